import LuxPixels

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
        Resample.sample(
            env.samplers[slot], xs: xs, ys: ys, n, mode, into: dst, scratch: env.worker.scratch,
            outside: env.worker.outside)
    }

    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        rois[slot] = rois[slot].union(PixelRect(enclosing: roi(r.rect)).insetBy(dx: -1, dy: -1))
    }

    override var name: String { "\(label)(slot\(slot))" }
}
