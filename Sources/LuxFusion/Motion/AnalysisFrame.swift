import LuxPixels

/// A movie frame reduced to a small grey image for motion analysis (box-averaged luma, 0…255).
struct AnalysisFrame: Sendable {
    let width: Int
    let height: Int
    let pixels: [Float]
    /// Frame pixels per analysis pixel.
    let factor: Double

    init(width: Int, height: Int, pixels: [Float], factor: Double) {
        self.width = width
        self.height = height
        self.pixels = pixels
        self.factor = factor
    }

    /// Reduces `frame` by a whole factor so that it is at most `maximumWidth` wide.
    init(_ frame: PixelBuffer, maximumWidth: Int = 192) {
        let source = frame.format == .rgba8 ? frame : frame.converted(to: .rgba8)
        let f = max(1, (source.width + maximumWidth - 1) / maximumWidth)
        let w = max(1, source.width / f)
        let h = max(1, source.height / f)
        var out = [Float](repeating: 0, count: w * h)
        source.withUnsafePlane { plane in
            out.withUnsafeMutableBufferPointer { dst in
                let norm = 1 / Float(f * f * 256)
                for y in 0..<h {
                    for dy in 0..<f {
                        let row = plane.row(min(y * f + dy, source.height - 1), as: UInt8.self)
                        for x in 0..<w {
                            var sum: Int = 0
                            for dx in 0..<f {
                                let p = 4 * (x * f + dx)
                                sum += 54 * Int(row[p]) + 183 * Int(row[p + 1]) + 19 * Int(row[p + 2])
                            }
                            dst[y * w + x] += Float(sum) * norm
                        }
                    }
                }
            }
        }
        self.init(width: w, height: h, pixels: out, factor: Double(f))
    }

    /// `frame` box-reduced by one whole factor to at most `maximumWidth`, as `.rgba8` (for LuxFusion's stabiliser).
    ///
    /// Each source row is converted to `.rgba8` as ``PixelBuffer/converted(to:matrix:threads:)`` converts it, but into
    /// one reused row rather than a whole converted frame (megabytes of fresh pages for every movie frame).
    static func reducedColor(_ frame: PixelBuffer, maximumWidth: Int) -> PixelBuffer {
        let f = max(1, (frame.width + maximumWidth - 1) / maximumWidth)
        guard f > 1 else { return frame.format == .rgba8 ? frame : frame.converted(to: .rgba8) }
        let w = max(1, frame.width / f)
        let h = max(1, frame.height / f)
        let used = 4 * w * f  // the bytes of a row's first w·f pixels
        var out = PixelBuffer(width: w, height: h, format: .rgba8, colorSpace: frame.colorSpace)
        let converted =
            frame.format == .rgba8 ? nil : PixelBuffer(width: frame.width, height: 1, format: .rgba8)
        let floats = UnsafeMutablePointer<Float>.allocate(capacity: 4 * frame.width)
        defer { floats.deallocate() }
        // Per byte of a row, its sum over the f rows of a band; then each pixel's f columns.
        let columnSums = UnsafeMutablePointer<UInt32>.allocate(capacity: used)
        defer { columnSums.deallocate() }
        out.withUnsafeMutablePlane { dst in
            for y in 0..<h {
                columnSums.update(repeating: 0, count: used)
                for dy in 0..<f {
                    let rowBytes: UnsafePointer<UInt8>
                    if let converted {
                        frame.readRGBAFloat(row: y * f + dy, into: floats)
                        converted.writeRGBAFloat(row: 0, from: floats)
                        rowBytes = converted.withUnsafePlane { UnsafePointer($0.row(0, as: UInt8.self)) }
                    } else {
                        rowBytes = frame.withUnsafePlane { UnsafePointer($0.row(y * f + dy, as: UInt8.self)) }
                    }
                    for i in 0..<used { columnSums[i] &+= UInt32(rowBytes[i]) }
                }
                let o = dst.row(y, as: UInt8.self)
                let n = UInt32(f * f)
                for x in 0..<w {
                    for c in 0..<4 {
                        var sum: UInt32 = 0
                        for dx in 0..<f { sum &+= columnSums[4 * (x * f + dx) + c] }
                        o[4 * x + c] = UInt8(truncatingIfNeeded: (sum + n / 2) / n)
                    }
                }
            }
        }
        withExtendedLifetime((frame, converted)) {}
        return out
    }

    /// Half the size (2×2 averages).
    func halved() -> AnalysisFrame {
        let w = max(1, width / 2)
        let h = max(1, height / 2)
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let a = pixels[(2 * y) * width + 2 * x]
                let b = pixels[(2 * y) * width + min(2 * x + 1, width - 1)]
                let c = pixels[min(2 * y + 1, height - 1) * width + 2 * x]
                let d = pixels[min(2 * y + 1, height - 1) * width + min(2 * x + 1, width - 1)]
                out[y * w + x] = (a + b + c + d) / 4
            }
        }
        return AnalysisFrame(width: w, height: h, pixels: out, factor: factor * 2)
    }
}

/// Frame-to-frame translation by block matching on a three-level pyramid (exhaustive search at the coarsest
/// level, ±2 refinement above, parabolic sub-pixel fit): the camera's global motion between two frames.
enum TranslationEstimator {
    /// How much lower than the unshifted frames' difference a shift's must be to be believed (a tenth: sensor noise
    /// moves the difference of a featureless pair by a few hundredths from one offset to another).
    static let minimumImprovement = 0.1

    /// The shift `d` (in frame pixels) such that `current(p + d) ≈ previous(p)`, and the mean absolute grey
    /// difference after alignment (0…1).
    static func estimate(from previous: AnalysisFrame, to current: AnalysisFrame) -> (
        shift: SIMD2<Double>, residual: Double
    ) {
        let levels0 = [previous, previous.halved()]
        let levels1 = [current, current.halved()]
        let p2 = levels0[1].halved()
        let c2 = levels1[1].halved()
        // Coarsest: exhaustive ±6 (±24 analysis pixels at full size).
        var best = search(p2, c2, centre: (0, 0), radius: 6).offset
        // ±2 at the finer levels: a half-pixel shift at a coarse level can make a neighbouring offset look better.
        best = search(levels0[1], levels1[1], centre: (2 * best.0, 2 * best.1), radius: 2).offset
        var fine = search(levels0[0], levels1[0], centre: (2 * best.0, 2 * best.1), radius: 2)
        // A shift must explain the frames clearly better than none: on a featureless picture (a grey card, a
        // clipped sky) every offset costs the same but for noise, and the search would pick one at random.
        let still = cost(previous, current, 0, 0)
        if !(fine.cost < still * (1 - minimumImprovement)) { fine = ((0, 0), still) }
        best = fine.offset
        // Sub-pixel: a parabola through the costs either side on each axis.
        func vertex(_ m: Double, _ c: Double, _ p: Double) -> Double {
            let d = m - 2 * c + p
            return d > 1e-9 ? max(-0.5, min(0.5, 0.5 * (m - p) / d)) : 0
        }
        let c = fine.cost
        let sx = vertex(cost(previous, current, best.0 - 1, best.1), c, cost(previous, current, best.0 + 1, best.1))
        let sy = vertex(cost(previous, current, best.0, best.1 - 1), c, cost(previous, current, best.0, best.1 + 1))
        let shift = SIMD2(Double(best.0) + sx, Double(best.1) + sy) * previous.factor
        return (shift, c / 255)
    }

    static func search(_ a: AnalysisFrame, _ b: AnalysisFrame, centre: (Int, Int), radius: Int)
        -> (offset: (Int, Int), cost: Double)
    {
        var best = (centre, Double.infinity)
        for dy in (centre.1 - radius)...(centre.1 + radius) {
            for dx in (centre.0 - radius)...(centre.0 + radius) {
                let c = cost(a, b, dx, dy)
                if c < best.1 { best = ((dx, dy), c) }
            }
        }
        return best
    }

    /// Mean absolute difference of `a(p)` and `b(p + d)` over their overlap (a shift leaving less than a quarter
    /// of the frame costs infinity).
    static func cost(_ a: AnalysisFrame, _ b: AnalysisFrame, _ dx: Int, _ dy: Int) -> Double {
        let x0 = max(0, -dx)
        let x1 = min(a.width, b.width - dx)
        let y0 = max(0, -dy)
        let y1 = min(a.height, b.height - dy)
        guard x1 - x0 >= a.width / 2, y1 - y0 >= a.height / 2 else { return .infinity }
        var sum: Float = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for y in y0..<y1 {
                    let ra = y * a.width
                    let rb = (y + dy) * b.width + dx
                    var s: Float = 0
                    for x in x0..<x1 { s += abs(pa[ra + x] - pb[rb + x]) }
                    sum += s
                }
            }
        }
        return Double(sum) / Double((x1 - x0) * (y1 - y0))
    }
}
