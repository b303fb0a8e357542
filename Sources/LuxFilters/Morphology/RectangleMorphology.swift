import LuxPixels
import LuxRender

/// Maximum or minimum over a `width`×`height` rectangle, per premultiplied channel, by van Herk / Gil–Werman:
/// three comparisons per value and pass, whatever the rectangle's size.
enum RectangleMorphology {
    /// `image` dilated (maximum) or eroded (minimum) by a rectangle of odd size `kx`×`ky`. The extent grows by
    /// half the rectangle (transparent reads as zero outside the input's extent).
    static func apply(_ image: Image, kx: Int, ky: Int, maximum: Bool) -> Image {
        let rx = kx / 2
        let ry = ky / 2
        if rx == 0 && ry == 0 { return image }
        let dx = Double(rx)
        let dy = Double(ry)
        let processor = ImageProcessor(
            description: maximum ? "morphologyMaximum" : "morphologyMinimum", argumentDigest: "\(kx)x\(ky)",
            inputFormat: nil, outputFormat: .rgbaFloat,
            roi: { _, rect in rect.insetBy(dx: -dx, dy: -dy) }
        ) { inputs, output in
            try run(inputs[0], output, rx: rx, ry: ry, maximum: maximum)
        }
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
        // Horizontal results for every input row (a), the vertical prefix extremes (g); the suffix extremes are
        // built in place in a.
        let scratch = output.scratch(byteCount: 4 * (3 * 4 * inW + 2 * rows * rowFloats))
            .assumingMemoryBound(to: Float.self)
        let line = scratch
        let prefix = line + 4 * inW
        let suffix = prefix + 4 * inW
        let a = suffix + 4 * inW
        let g = a + rows * rowFloats
        for j in 0..<rows {
            ProcessorRows.loadInterleaved(input, row: j, into: line)
            blockExtremes(line, stride: 4, count: inW, block: kx, prefix: prefix, suffix: suffix, maximum: maximum)
            // Window [x, x + kx − 1] = suffix[x] ∨ prefix[x + kx − 1].
            combine(suffix, prefix + 4 * (kx - 1), into: a + j * rowFloats, rowFloats, maximum)
        }
        // Vertically, whole rows at a time: g = prefix extremes within blocks of ky rows, a = suffix extremes.
        var start = 0
        while start < rows {
            let end = min(start + ky, rows)
            (g + start * rowFloats).update(from: a + start * rowFloats, count: rowFloats)
            for j in (start + 1)..<max(end, start + 1) {
                combine(g + (j - 1) * rowFloats, a + j * rowFloats, into: g + j * rowFloats, rowFloats, maximum)
            }
            if end - start >= 2 {
                for j in stride(from: end - 2, through: start, by: -1) {
                    combine(a + j * rowFloats, a + (j + 1) * rowFloats, into: a + j * rowFloats, rowFloats, maximum)
                }
            }
            start = end
        }
        for y in 0..<h {
            let out = output.row(y, as: Float.self)
            combine(a + y * rowFloats, g + (y + ky - 1) * rowFloats, into: out, rowFloats, maximum)
        }
    }

    /// Prefix and suffix extremes within consecutive blocks of `block` pixels, per channel of interleaved RGBA.
    @inline(never)
    static func blockExtremes(
        _ src: UnsafePointer<Float>, stride: Int, count n: Int, block: Int, prefix: UnsafeMutablePointer<Float>,
        suffix: UnsafeMutablePointer<Float>, maximum: Bool
    ) {
        var start = 0
        while start < n {
            let end = min(start + block, n)
            for c in 0..<4 { prefix[4 * start + c] = src[4 * start + c] }
            for x in (start + 1)..<max(end, start + 1) {
                for c in 0..<4 {
                    let p = prefix[4 * (x - 1) + c]
                    let v = src[4 * x + c]
                    prefix[4 * x + c] = maximum ? max(p, v) : min(p, v)
                }
            }
            for c in 0..<4 { suffix[4 * (end - 1) + c] = src[4 * (end - 1) + c] }
            var x = end - 2
            while x >= start {
                for c in 0..<4 {
                    let p = suffix[4 * (x + 1) + c]
                    let v = src[4 * x + c]
                    suffix[4 * x + c] = maximum ? max(p, v) : min(p, v)
                }
                x -= 1
            }
            start = end
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
