import LuxColor
import LuxPixels

/// A colour match (on straight colour).
final class MatchOp: RowOp {
    let converter: ColorConverter
    let label: String
    init(_ converter: ColorConverter, label: String, child: RowOp, bounds: PixelRect) {
        self.converter = converter
        self.label = label
        super.init(bounds: bounds, children: [child])
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        evaluateChild(0, y, x, n, dst, env)
        converter.convertInPlace(red: dst.red, green: dst.green, blue: dst.blue, count: n)
    }
    override var name: String { label }
}
