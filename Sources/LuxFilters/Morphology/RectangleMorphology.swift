import LuxPixels
import LuxRender

/// Maximum or minimum over a `width`×`height` rectangle, per premultiplied channel.
///
/// Window extremes by doubling: after pass `j` each value is the extreme of `2^j` consecutive ones, and a window of
/// `k` is the extreme of two overlapping power-of-two windows — `⌈log₂ k⌉ + 1` vectorised passes over whole rows
/// per axis, in place, so the cost grows only with the logarithm of the rectangle's size.
enum RectangleMorphology {
    /// `image` dilated (maximum) or eroded (minimum) by a rectangle of odd size `kx`×`ky`.
    ///
    /// The extent grows by half the rectangle (transparent reads as zero outside the input's extent).
    static func apply(_ image: Image, kx: Int, ky: Int, maximum: Bool) -> Image {
        let rx = kx / 2
        let ry = ky / 2
        if rx == 0 && ry == 0 { return image }
        let dx = Double(rx)
        let dy = Double(ry)
        let processor = ImageProcessor(
            description: maximum ? "morphologyMaximum" : "morphologyMinimum", argumentDigest: "\(kx)x\(ky)",
            inputFormat: nil, outputFormat: .rgbaFloat,
            roi: { _, rect in rect.insetBy(dx: -dx, dy: -dy) },
            process: { inputs, output in
                try run(inputs[0], output, rx: rx, ry: ry, maximum: maximum)
            }
        )
        return processor.apply(to: [image], extent: image.extent.insetBy(dx: -dx, dy: -dy))
    }

    static func run(_ input: ImageProcessorInput, _ output: ImageProcessorOutput, rx: Int, ry: Int, maximum: Bool)
        throws
    {
        let w = output.width
        let h = output.height
        guard Int(output.region.minX - input.region.minX) == rx, Int(output.region.minY - input.region.minY) == ry,
            input.width == w + 2 * rx, input.height == h + 2 * ry
        else {
            throw SeparableBlur.RegionMismatch(
                description: "morphology input \(input.region) does not surround output \(output.region)")
        }
        let inW = input.width
        let rows = input.height
        let kx = 2 * rx + 1
        let ky = 2 * ry + 1
        let rowFloats = 4 * w
        // Two converted-row buffers (ping-pong), then the horizontal results of every input row.
        let scratch = output.scratch(byteCount: 4 * (8 * inW + rows * rowFloats)).assumingMemoryBound(to: Float.self)
        let line = scratch
        let spare = line + 4 * inW
        let a = spare + 4 * inW
        for j in 0..<rows {
            ProcessorRows.loadInterleaved(input, row: j, into: line)
            windowExtreme(line, spare, window: kx, length: 4 * inW, into: a + j * rowFloats, count: rowFloats, maximum)
        }
        // Vertically: the same doubling over whole rows.
        var span = 1
        while 2 * span <= ky {
            for j in 0..<(rows - span) {
                combineInto(a + j * rowFloats, a + (j + span) * rowFloats, rowFloats, maximum)
            }
            span *= 2
        }
        for y in 0..<h {
            let out = output.row(y, as: Float.self)
            combine(a + y * rowFloats, a + (y + ky - span) * rowFloats, into: out, rowFloats, maximum)
        }
    }

    /// `out[i] = extreme of src[i + 4t]` for `t` in `0..<window` (interleaved RGBA pixels), for `count` outputs;
    /// `src` holds `length ≥ count + 4·(window − 1)` values; `src` and `spare` are overwritten.
    static func windowExtreme(
        _ src: UnsafeMutablePointer<Float>, _ spare: UnsafeMutablePointer<Float>, window: Int, length: Int,
        into out: UnsafeMutablePointer<Float>, count: Int, _ maximum: Bool
    ) {
        var current = src
        var other = spare
        var span = 1
        while 2 * span <= window {
            combine(current, current + 4 * span, into: other, length - 4 * span, maximum)
            swap(&current, &other)
            span *= 2
        }
        combine(current, current + 4 * (window - span), into: out, count, maximum)
    }

    /// `acc[i] = max(acc[i], b[i])` (or min), `acc` and `b` disjoint.
    @inline(never)
    static func combineInto(_ acc: UnsafeMutablePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int, _ maximum: Bool) {
        if maximum {
            for i in 0..<n { acc[i] = max(acc[i], b[i]) }
        } else {
            for i in 0..<n { acc[i] = min(acc[i], b[i]) }
        }
    }

    /// `out[i] = max(a[i], b[i])` (or min).
    @inline(never)
    static func combine(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, _ n: Int,
        _ maximum: Bool
    ) {
        if maximum {
            for i in 0..<n { out[i] = max(a[i], b[i]) }
        } else {
            for i in 0..<n { out[i] = min(a[i], b[i]) }
        }
    }
}
