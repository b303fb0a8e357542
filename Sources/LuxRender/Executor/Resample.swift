import CLuxKernels
import LuxPixels

/// Resampling reads of a materialised `rgbaFloat` slot at continuous positions.
enum Resample {
    /// Bilinear (or nearest) samples at `(xs[i], ys[i])` into `dst`, through `scratch` (`4 n` floats) and `outside`
    /// (`n` indices): whole pixels are stored interleaved, then split into planes in one vectorised pass.
    @inline(__always)
    static func sample(
        _ s: Sampler, xs: UnsafePointer<Float>, ys: UnsafePointer<Float>, _ n: Int, _ mode: SamplingMode,
        into dst: PlanarPixels, scratch: UnsafeMutablePointer<Float>, outside: UnsafeMutablePointer<Int32>
    ) {
        let out = UnsafeMutableRawPointer(scratch)
        if mode == .linear {
            // The positions whose four pixels lie in the region in C (the same arithmetic as `linear`), the others
            // here.
            let missed = lux_bilinear_samples(
                s.base, s.rowStride, s.minX, s.minY, s.width, s.height, xs, ys, n, scratch, outside)
            for k in 0..<missed {
                let i = Int(outside[k])
                out.storeBytes(of: linear(s, xs[i], ys[i]), toByteOffset: 16 &* i, as: SIMD4<Float>.self)
            }
        } else {
            for i in 0..<n {
                out.storeBytes(of: nearest(s, xs[i], ys[i]), toByteOffset: 16 &* i, as: SIMD4<Float>.self)
            }
        }
        PixelIO.deinterleave(scratch, n, dst)
    }

    @inline(__always)
    static func nearest(_ s: Sampler, _ x: Float, _ y: Float) -> SIMD4<Float> {
        // A position that is not a number (a degenerate transform's) reads far outside, as an infinite one does:
        // comparisons with NaN are false.
        let fx = x >= -1e9 ? min(x.rounded(.down), 1e9) : -1e9
        let fy = y >= -1e9 ? min(y.rounded(.down), 1e9) : -1e9
        return s.pixel(x: Int(fx), y: Int(fy))
    }

    /// The bilinear sample at `(x, y)` read through ``Sampler/pixel(x:y:)`` (transparent outside the region): the
    /// positions `lux_bilinear_samples` leaves to the caller, whose four pixels do not all lie in the region (the
    /// kernel's arithmetic, the same bits).
    @inline(__always)
    static func linear(_ s: Sampler, _ x: Float, _ y: Float) -> SIMD4<Float> {
        let u = x - 0.5
        let v = y - 0.5
        // A position that is infinite or not a number (a degenerate transform's) lies outside every region.
        guard u.isFinite, v.isFinite else { return .zero }
        let fu = min(max(u.rounded(.down), -1e9), 1e9)
        let fv = min(max(v.rounded(.down), -1e9), 1e9)
        let i = Int(fu)
        let j = Int(fv)
        let ax = u - fu
        let ay = v - fv
        let p00 = s.pixel(x: i, y: j)
        let p10 = s.pixel(x: i + 1, y: j)
        let p01 = s.pixel(x: i, y: j + 1)
        let p11 = s.pixel(x: i + 1, y: j + 1)
        let top = p00 + (p10 - p00) * ax
        let bottom = p01 + (p11 - p01) * ax
        return top + (bottom - top) * ay
    }
}
