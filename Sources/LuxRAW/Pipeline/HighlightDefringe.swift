import CLuxKernels
import LuxPixels
public import LuxRender

/// Stage 2b: the purple fringes around clipped highlights faded to neutral, in white-balanced camera RGB.
///
/// Where photosites clip, the pixels around them come out of the demosaic with a false colour, mostly magenta or
/// purple: colour differences are interpolated across the clip, where the least-gained channel (green) has stopped
/// rising while red and blue have not. Any filter that spreads colour afterwards (colour noise reduction above all)
/// would carry that colour several pixels further. As phones do, this stage removes the magenta part of a pixel's
/// colour (green below both red and blue, by `m = min(R, B) − G`) where a photosite within ``radius`` pixels comes
/// near the sensor's clip: not at all below ``fadeStart``, fully from ``fadeEnd`` (fractions of the sensor's range,
/// read through the white-balance ``gains``). Other hues, and pixels away from clipped photosites, are unchanged; the
/// pixel's R + G + B is kept.
public struct HighlightDefringe: Hashable, Sendable {
    /// How far (pixels) from a clipped photosite fringes are faded.
    public var radius: Int
    /// The white-balance gains the mosaic was multiplied by (red, green, blue).
    public var gains: SIMD3<Float>
    /// The raw level (fraction of the sensor's range) at which fading starts.
    public var fadeStart: Float
    /// The raw level from which the magenta part is removed entirely.
    public var fadeEnd: Float

    /// Creates the stage.
    public init(radius: Int = 4, gains: SIMD3<Float>, fadeStart: Float = 0.9, fadeEnd: Float = 0.98) {
        self.radius = max(radius, 0)
        self.gains = gains
        self.fadeStart = fadeStart
        self.fadeEnd = max(fadeEnd, fadeStart + 1e-3)
    }

    /// Applies the stage.
    public func apply(to image: Image) -> Image {
        let r = radius
        let m = Double(r)
        let inverseGains = 1 / gains
        let start = fadeStart
        let slope = 1 / (fadeEnd - fadeStart)
        let processor = ImageProcessor(
            description: "highlightDefringe", argumentDigest: "radius=\(r) gains=\(gains) fade=\(start)…\(fadeEnd)",
            inputFormat: .rgbaFloat, inputLayout: .planarRows, outputFormat: .rgbaFloat, outputLayout: .planarRows,
            roi: { _, rect in rect.insetBy(dx: -m, dy: -m) },
            process: { inputs, output in
                let input = inputs[0]
                let w = input.width
                let h = input.height
                let ox = Int(output.region.minX - input.region.minX)
                let oy = Int(output.region.minY - input.region.minY)
                let ow = output.width
                let scratch = output.scratch(byteCount: 4 * (2 * w * h + ow) + h).assumingMemoryBound(to: Float.self)
                let level = scratch
                let across = scratch + w * h
                let peak = across + w * h
                let isAbove = UnsafeMutableRawPointer(peak + ow).assumingMemoryBound(to: Bool.self)
                // Each pixel's brightest channel as a fraction of the sensor's range, and whether a row's exceed the
                // fade's start.
                var anyAbove = false
                for j in 0..<h {
                    isAbove[j] = Self.rawLevels(
                        input.planes(j), gains: inverseGains, into: level + j * w, count: w, above: start)
                    anyAbove = anyAbove || isAbove[j]
                }
                for j in 0..<output.height {
                    Self.copy(input.planes(j + oy), from: ox, into: output.planes(j), count: ow)
                }
                // Most tiles, and most rows of the others, are nowhere near the clip: they stay as copied. Rows whose
                // levels all stay at or below `start` cannot raise a peak above it (nor change a fade), so only the
                // rows above it are searched: the result is the same as searching them all.
                guard anyAbove else { return }
                for j in 0..<h where isAbove[j] {
                    Self.rowMaximum(level + j * w, radius: r, into: across + j * w, count: w)
                }
                for j in 0..<output.height {
                    let y = j + oy
                    let rows = max(y - r, 0)...min(y + r, h - 1)
                    var found = false
                    for k in rows where isAbove[k] {
                        let row = UnsafePointer(across + k * w + ox)
                        Self.raise(peak, to: row, count: ow, first: !found)
                        found = true
                    }
                    if found {
                        let o = output.planes(j)
                        Self.fade(o.red, o.green, o.blue, peaks: peak, start: start, slope: slope, count: ow)
                    }
                }
            }
        )
        return processor.apply(to: [image.clampedToExtent()], extent: image.extent, isOpaque: true)
    }

    /// Each pixel's largest channel divided by its gain (the raw level of its brightest photosite colour); returns
    /// whether any exceeds `level`.
    ///
    /// In C (`lux_defringe_levels`, 8 lanes wide with AVX2): `max(r·kr, max(g·kg, b·kb))` as Swift's `max` gives it.
    @inline(never)
    static func rawLevels(
        _ p: ReadOnlyPlanarPixels, gains g: SIMD3<Float>, into out: UnsafeMutablePointer<Float>, count n: Int,
        above level: Float
    ) -> Bool {
        lux_defringe_levels(p.red, p.green, p.blue, g.x, g.y, g.z, level, out, n) != 0
    }

    /// Copies `n` pixels of `p` from column `x` into `o`, opaque.
    @inline(never)
    static func copy(_ p: ReadOnlyPlanarPixels, from x: Int, into o: PlanarPixels, count n: Int) {
        o.red.update(from: p.red + x, count: n)
        o.green.update(from: p.green + x, count: n)
        o.blue.update(from: p.blue + x, count: n)
        o.alpha.update(repeating: 1, count: n)
    }

    /// Raises each of `peaks` to the matching value of `row` where that is larger (sets them to `row` when
    /// `first`).
    @inline(never)
    static func raise(_ peaks: UnsafeMutablePointer<Float>, to row: UnsafePointer<Float>, count n: Int, first: Bool) {
        if first {
            peaks.update(from: row, count: n)
        } else {
            for i in 0..<n { peaks[i] = max(peaks[i], row[i]) }
        }
    }

    /// The largest of `values` within `radius` of each index (clamped to the row).
    ///
    /// Away from the row's ends every window is whole: there the maximum is taken as `2r + 1` passes over shifted
    /// whole rows, which vectorise (a window loop per index did not); the ends take their clamped windows one by one.
    @inline(never)
    static func rowMaximum(
        _ values: UnsafePointer<Float>, radius r: Int, into out: UnsafeMutablePointer<Float>, count n: Int
    ) {
        func clamped(_ i: Int) -> Float {
            var m = values[i]
            for k in max(i - r, 0)...min(i + r, n - 1) { m = max(m, values[k]) }
            return m
        }
        guard r > 0, n > 2 * r else {
            for i in 0..<n { out[i] = clamped(i) }
            return
        }
        for i in 0..<r { out[i] = clamped(i) }
        for i in (n - r)..<n { out[i] = clamped(i) }
        // Interior index r + i: the window values[i … i + 2r].
        let inner = out + r
        let m = n - 2 * r
        inner.update(from: values + r, count: m)
        for k in 0...(2 * r) where k != r {
            let shifted = values + k
            for i in 0..<m { inner[i] = max(inner[i], shifted[i]) }
        }
    }

    /// Removes `t·m` of each pixel's magenta part `m = max(min(R, B) − G, 0)`, `t` ramping from 0 at `start` to 1
    /// at `start + 1/slope` of its neighbourhood's raw peak, keeping R + G + B.
    @inline(never)
    static func fade(
        _ red: UnsafeMutablePointer<Float>, _ green: UnsafeMutablePointer<Float>, _ blue: UnsafeMutablePointer<Float>,
        peaks: UnsafePointer<Float>, start: Float, slope: Float, count n: Int
    ) {
        for i in 0..<n {
            let t = min(max((peaks[i] - start) * slope, 0), 1)
            let r = red[i]
            let g = green[i]
            let b = blue[i]
            let k = t * max(min(r, b) - g, 0) * (1 / 3.0)
            red[i] = r - k
            green[i] = g + 2 * k
            blue[i] = b - k
        }
    }

    /// Floats of scratch ``split(_:extent:y:cr:cb:scratch:)`` needs for an input of `width × height` pixels.
    static func splitScratchCount(width: Int, height: Int) -> Int { 2 * width * height + 5 * width + height / 4 + 1 }

    /// Noise reduction's first pass with this stage fused into it: the fringes of `input` faded, and the result split
    /// into `Y, R − G, B − G` planes (``NRPlanes/splitRow(_:_:_:_:_:_:_:)``), with no copy of the pixels that stay
    /// as they are.
    ///
    /// The planes are the input less ``radius`` pixels on every side. `input` is read clamped to `extent`, and a
    /// pixel of the planes outside `extent` is the faded pixel of `extent` nearest to it: the values noise reduction
    /// reads when this stage runs on its own and its output is clamped to the extent.
    func split(
        _ input: ImageProcessorInput, extent: Rect, y: UnsafeMutablePointer<Float>, cr: UnsafeMutablePointer<Float>,
        cb: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>
    ) {
        let r = radius
        let iw = input.width
        let ih = input.height
        let w = iw - 2 * r
        let h = ih - 2 * r
        let level = scratch
        let across = level + iw * ih
        let peak = across + iw * ih
        let mapped = peak + iw
        let rows = mapped + w
        let isAbove = UnsafeMutableRawPointer(rows + 3 * w).assumingMemoryBound(to: Bool.self)
        let inverseGains = 1 / gains
        let start = fadeStart
        let slope = 1 / (fadeEnd - fadeStart)
        var anyAbove = false
        for j in 0..<ih {
            isAbove[j] = Self.rawLevels(
                input.planes(j), gains: inverseGains, into: level + j * iw, count: iw, above: start)
            anyAbove = anyAbove || isAbove[j]
        }
        if anyAbove {
            for j in 0..<ih where isAbove[j] {
                Self.rowMaximum(level + j * iw, radius: r, into: across + j * iw, count: iw)
            }
        }
        // Input coordinates of the planes' first pixel, and of the extent's first and last.
        let ix = Int(input.region.minX)
        let iy = Int(input.region.minY)
        let (ex0, ex1) = (Int(extent.minX) - ix, Int(extent.maxX) - 1 - ix)
        let (ey0, ey1) = (Int(extent.minY) - iy, Int(extent.maxY) - 1 - iy)
        let columnsInside = r >= ex0 && r + w - 1 <= ex1
        for j in 0..<h {
            let p = input.planes(j + r)
            let o = j * w
            var found = false
            if anyAbove {
                // The row whose fade this one takes: itself, or the extent's nearest.
                let cy = min(max(j + r, ey0), ey1)
                for k in (cy - r)...(cy + r) where isAbove[k] {
                    Self.raise(peak, to: across + k * iw, count: iw, first: !found)
                    found = true
                }
            }
            guard found else {
                NRPlanes.splitRow(p.red + r, p.green + r, p.blue + r, y + o, cr + o, cb + o, w)
                continue
            }
            let red = rows
            let green = rows + w
            let blue = rows + 2 * w
            red.update(from: p.red + r, count: w)
            green.update(from: p.green + r, count: w)
            blue.update(from: p.blue + r, count: w)
            if !columnsInside {
                for i in 0..<w { mapped[i] = peak[min(max(i + r, ex0), ex1)] }
            }
            Self.fade(red, green, blue, peaks: columnsInside ? peak + r : mapped, start: start, slope: slope, count: w)
            NRPlanes.splitRow(red, green, blue, y + o, cr + o, cb + o, w)
        }
    }
}
