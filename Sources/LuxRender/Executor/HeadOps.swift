import LuxPixels

/// Resampling reads of a materialised `rgbaFloat` slot at continuous positions.
enum Resample {
    /// Bilinear (or nearest) samples at `(xs[i], ys[i])` into `dst`, through `scratch` (`4 n` floats):
    /// whole pixels are stored interleaved, then split into planes in one vectorised pass.
    @inline(__always)
    static func sample(
        _ s: Sampler, xs: UnsafePointer<Float>, ys: UnsafePointer<Float>, _ n: Int, _ mode: SamplingMode,
        into dst: PlanarPixels, scratch: UnsafeMutablePointer<Float>
    ) {
        let out = UnsafeMutableRawPointer(scratch)
        if mode == .linear {
            for i in 0..<n { out.storeBytes(of: linear(s, xs[i], ys[i]), toByteOffset: 16 &* i, as: SIMD4<Float>.self) }
        } else {
            for i in 0..<n {
                out.storeBytes(of: nearest(s, xs[i], ys[i]), toByteOffset: 16 &* i, as: SIMD4<Float>.self)
            }
        }
        PixelIO.deinterleave(scratch, n, dst)
    }

    @inline(__always)
    static func nearest(_ s: Sampler, _ x: Float, _ y: Float) -> SIMD4<Float> {
        let fx = min(max(x.rounded(.down), -1e9), 1e9)
        let fy = min(max(y.rounded(.down), -1e9), 1e9)
        return s.pixel(x: Int(fx), y: Int(fy))
    }

    @inline(__always)
    static func linear(_ s: Sampler, _ x: Float, _ y: Float) -> SIMD4<Float> {
        let u = x - 0.5
        let v = y - 0.5
        let fu = min(max(u.rounded(.down), -1e9), 1e9)
        let fv = min(max(v.rounded(.down), -1e9), 1e9)
        let i = Int(fu)
        let j = Int(fv)
        let ax = u - fu
        let ay = v - fv
        let p00: SIMD4<Float>
        let p10: SIMD4<Float>
        let p01: SIMD4<Float>
        let p11: SIMD4<Float>
        let di = i &- s.minX
        let dj = j &- s.minY
        if di >= 0 && di &+ 1 < s.width && dj >= 0 && dj &+ 1 < s.height {
            let p = UnsafeRawPointer(s.base + (dj &* s.rowStride &+ 4 &* di))
            let q = p + 4 &* s.rowStride
            p00 = p.loadUnaligned(as: SIMD4<Float>.self)
            p10 = p.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
            p01 = q.loadUnaligned(as: SIMD4<Float>.self)
            p11 = q.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
        } else {
            p00 = s.pixel(x: i, y: j)
            p10 = s.pixel(x: i + 1, y: j)
            p01 = s.pixel(x: i, y: j + 1)
            p11 = s.pixel(x: i + 1, y: j + 1)
        }
        let top = p00 + (p10 - p00) * ax
        let bottom = p01 + (p11 - p01) * ax
        return top + (bottom - top) * ay
    }
}

/// An affine transform sampling a materialised input.
final class AffineOp: RowOp {
    let slot: Int
    let inverse: AffineTransform
    let mode: SamplingMode
    let forward: AffineTransform

    init(slot: Int, transform: AffineTransform, mode: SamplingMode, bounds: PixelRect) {
        self.slot = slot
        forward = transform
        inverse = transform.inverted ?? .identity
        self.mode = mode
        super.init(bounds: bounds)
    }

    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let t = inverse
        let cy = Double(y) + 0.5
        // Every pixel's position is computed from its absolute column, so the result does not depend on
        // where a tile or span starts (bit-identical output for any tiling).
        let a = Float(t.a)
        let b = Float(t.b)
        let rowX = Float(t.c * cy + t.tx)
        let rowY = Float(t.d * cy + t.ty)
        let xs = env.worker.coordinates
        let ys = xs + env.worker.chunk
        for i in 0..<n {
            let px = Float(x + i) + 0.5
            xs[i] = a * px + rowX
            ys[i] = b * px + rowY
        }
        Resample.sample(env.samplers[slot], xs: xs, ys: ys, n, mode, into: dst, scratch: env.worker.scratch)
    }

    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        rois[slot] = rois[slot].union(RegionOfInterest.affineSourceRegion(forward, r, mode))
    }

    override var name: String {
        "affine_\(mode.rawValue)[\(forward.a) \(forward.b) \(forward.c) \(forward.d) \(forward.tx) \(forward.ty)](slot\(slot))"
    }
}

/// A warp kernel sampling a materialised input.
final class WarpOp: RowOp {
    let slot: Int
    let kernel: WarpKernel
    let label: String
    let mode: SamplingMode
    let roi: @Sendable (Rect) -> Rect

    init(
        slot: Int, kernel: WarpKernel, label: String, mode: SamplingMode, roi: @escaping @Sendable (Rect) -> Rect,
        bounds: PixelRect
    ) {
        self.slot = slot
        self.kernel = kernel
        self.label = label
        self.mode = mode
        self.roi = roi
        super.init(bounds: bounds)
    }

    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let xs = env.worker.coordinates
        let ys = xs + env.worker.chunk
        kernel.body(WarpKernelRow(count: n, x: x, y: y, sourceX: xs, sourceY: ys))
        Resample.sample(env.samplers[slot], xs: xs, ys: ys, n, mode, into: dst, scratch: env.worker.scratch)
    }

    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        rois[slot] = rois[slot].union(PixelRect(enclosing: roi(r.rect)).insetBy(dx: -1, dy: -1))
    }

    override var name: String { "\(label)(slot\(slot))" }
}

/// A general kernel reading materialised inputs through samplers.
final class GeneralOp: RowOp {
    let firstSlot: Int
    let kernel: GeneralKernel
    let label: String
    let roi: GeneralKernel.RegionOfInterest
    let colors: UnsafeMutablePointer<SIMD4<Float>>?

    init(
        firstSlot: Int, kernel: GeneralKernel, label: String, colors: [SIMD4<Float>],
        roi: @escaping GeneralKernel.RegionOfInterest, bounds: PixelRect
    ) {
        self.firstSlot = firstSlot
        self.kernel = kernel
        self.label = label
        self.roi = roi
        self.colors = colorTable(colors)
        super.init(bounds: bounds)
    }

    deinit { colors?.deallocate() }

    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let out = env.worker.scratch
        kernel.body(
            GeneralKernelRow(
                count: n, x: x, y: y, output: out, samplerBase: env.samplers + firstSlot, colorBase: colors))
        PixelIO.deinterleave(out, n, dst)
    }

    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        for i in 0..<kernel.inputCount {
            rois[firstSlot + i] = rois[firstSlot + i].union(PixelRect(enclosing: roi(i, r.rect)))
        }
    }

    override var name: String {
        "\(label)(\((0..<kernel.inputCount).map { "slot\(firstSlot + $0)" }.joined(separator: ",")))"
    }
}
