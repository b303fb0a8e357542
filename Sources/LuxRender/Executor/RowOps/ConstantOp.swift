import LuxPixels

/// A constant colour.
final class ConstantOp: RowOp {
    let value: SIMD4<Float>
    init(_ value: SIMD4<Float>, bounds: PixelRect) {
        self.value = value
        super.init(bounds: bounds)
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        dst.fill(0..<n, with: value)
    }
    override var name: String { "constant" }
}
