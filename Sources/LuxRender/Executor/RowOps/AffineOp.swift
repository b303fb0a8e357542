import LuxPixels

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
        Resample.sample(
            env.samplers[slot], xs: xs, ys: ys, n, mode, into: dst, scratch: env.worker.scratch,
            outside: env.worker.outside)
    }

    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        rois[slot] = rois[slot].union(RegionOfInterest.affineSourceRegion(forward, r, mode))
    }

    override var name: String {
        "affine_\(mode.rawValue)[\(forward.a) \(forward.b) \(forward.c) \(forward.d) \(forward.tx) \(forward.ty)](slot\(slot))"
    }
}
