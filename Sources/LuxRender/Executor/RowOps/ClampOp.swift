import LuxPixels

/// Repeats the edge pixels of `edge` outwards.
final class ClampOp: RowOp {
    let edge: PixelRect
    init(edge: PixelRect, child: RowOp, bounds: PixelRect) {
        self.edge = edge
        super.init(bounds: bounds, children: [child])
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let e = edge
        if e.isEmpty {
            dst.zero(0..<n)
            return
        }
        let yy = min(max(y, e.minY), e.maxY - 1)
        let a = max(x, e.minX)
        let b = min(x + n, e.maxX)
        if a < b {
            evaluateChild(0, yy, a, b - a, dst.advanced(by: a - x, count: b - a), env)
            if a > x { dst.fill(0..<(a - x), with: dst[a - x]) }
            if b < x + n { dst.fill((b - x)..<n, with: dst[b - x - 1]) }
        } else {
            let ex = x + n <= e.minX ? e.minX : e.maxX - 1
            evaluateChild(0, yy, ex, 1, dst, env)
            dst.fill(1..<n, with: dst[0])
        }
    }
    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        children[0].collect(RegionOfInterest.clampRegion(r, into: edge), &rois, &sources)
    }
    override var name: String { "clamp\(edge)" }
}
