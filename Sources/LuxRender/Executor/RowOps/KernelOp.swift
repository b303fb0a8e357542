import LuxPixels

/// A user colour kernel.
final class KernelOp: RowOp {
    let kernel: ColorKernel
    let label: String
    let colors: UnsafeMutablePointer<SIMD4<Float>>?

    init(_ kernel: ColorKernel, label: String, colors: [SIMD4<Float>], bounds: PixelRect, children: [RowOp]) {
        self.kernel = kernel
        self.label = label
        self.colors = RowOp.colorTable(colors)
        super.init(bounds: bounds, children: children)
    }

    deinit { colors?.deallocate() }

    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let k = children.count
        if k > 0 { evaluateChild(0, y, x, n, dst, env) }
        let chunk = env.worker.chunk
        if k > 1 {
            let base = env.worker.push(k - 1)
            for i in 1..<k {
                evaluateChild(i, y, x, n, PlanarPixels(base: base + (i - 1) * 4 * chunk, stride: chunk, count: n), env)
            }
            kernel.body(
                ColorKernelRow(
                    count: n, x: x, y: y, pixels: dst, inputBase: base, planeStride: chunk, colorBase: colors))
            env.worker.pop(k - 1)
        } else {
            kernel.body(
                ColorKernelRow(count: n, x: x, y: y, pixels: dst, inputBase: nil, planeStride: chunk, colorBase: colors)
            )
        }
    }

    override var registerDemand: Int {
        var d = children.first?.registerDemand ?? 0
        for (i, c) in children.enumerated() where i > 0 { d = max(d, i + c.registerDemand) }
        return max(d, children.count - 1)
    }

    override var name: String { label }
}
