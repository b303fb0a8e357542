import LuxPixels

/// The speed level's light noise reduction, on the Bayer mosaic: a sigma filter over the 3 × 3 neighbourhood of
/// same-colour photosites (two pixels apart).
///
/// Neighbours within two standard deviations of the centre — by the frame's noise model — are averaged with it; edges,
/// whose neighbours differ by more, are kept.
enum LightNoiseReduction {
    /// A noise-reduced copy of `frame` (from `pool`).
    static func apply(_ frame: RawFrame, noise: SIMD2<Double>, pool: BufferPool, threads: Int) -> RawFrame {
        let src = frame.pixels
        let w = src.width
        let h = src.height
        let out = PipelineBuffers.buffer(pool: pool, format: src.format, width: w, height: h)
        let dst = out.unsafeSharedMutablePlane(0)
        let black = Float(frame.blackLevel)
        let range = Float(frame.whiteLevel - frame.blackLevel)
        // Variance in codes² at level v (codes above black): S·range·v + O·range².
        let s = Float(noise.x) * range
        let o = Float(noise.y) * range * range
        src.withUnsafePlane { plane in
            Parallel.forEachBand(h, threads: threads) { rows in
                for y in rows {
                    // Same-colour rows two above and below, mirrored at the borders (keeping the CFA phase).
                    let up = y >= 2 ? y - 2 : y + 2 < h ? y + 2 : y
                    let down = y + 2 < h ? y + 2 : y >= 2 ? y - 2 : y
                    let r0 = plane.row(up, as: UInt16.self)
                    let r1 = plane.row(y, as: UInt16.self)
                    let r2 = plane.row(down, as: UInt16.self)
                    let o16 = dst.row(y, as: UInt16.self)
                    // Borders (neighbours mirrored inside the row), then the interior without branches so the
                    // loop vectorises.
                    @inline(__always) func filtered(_ x: Int, _ xl: Int, _ xr: Int) -> UInt16 {
                        let c = Float(r1[x])
                        let t = 2 * (s * max(c - black, 0) + o).squareRoot()
                        var sum = c
                        var n: Float = 1
                        @inline(__always) func take(_ v: UInt16) {
                            let f = Float(v)
                            let inside: Float = abs(f - c) <= t ? 1 : 0
                            sum += inside * f
                            n += inside
                        }
                        take(r0[xl])
                        take(r0[x])
                        take(r0[xr])
                        take(r1[xl])
                        take(r1[xr])
                        take(r2[xl])
                        take(r2[x])
                        take(r2[xr])
                        return UInt16(min(sum / n + 0.5, 65535))
                    }
                    let lo = min(2, w)
                    let hi = max(lo, w - 2)
                    for x in 0..<lo { o16[x] = filtered(x, x + 2 < w ? x + 2 : x, x + 2 < w ? x + 2 : x) }
                    for x in lo..<hi { o16[x] = filtered(x, x - 2, x + 2) }
                    for x in hi..<w { o16[x] = filtered(x, x >= 2 ? x - 2 : x, x >= 2 ? x - 2 : x) }
                }
            }
        }
        var result = frame
        result.pixels = out
        return result
    }
}
