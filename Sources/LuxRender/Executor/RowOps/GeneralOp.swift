import LuxPixels

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
        self.colors = RowOp.colorTable(colors)
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
