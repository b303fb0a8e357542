import LuxPixels

/// A whole-pixel translation.
final class TranslateOp: RowOp {
    let dx: Int
    let dy: Int
    init(dx: Int, dy: Int, child: RowOp, bounds: PixelRect) {
        self.dx = dx
        self.dy = dy
        super.init(bounds: bounds, children: [child])
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        evaluateChild(0, y - dy, x - dx, n, dst, env)
    }
    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        children[0].collect(r.offsetBy(dx: -dx, dy: -dy), &rois, &sources)
    }
    override var name: String { "translate[\(dx) \(dy)]" }
}
