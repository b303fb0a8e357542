import LuxPixels

/// Passes spans through; its bounds (a crop rectangle) do the work.
final class CropOp: RowOp {
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        evaluateChild(0, y, x, n, dst, env)
    }
    override var name: String { "crop\(bounds)" }
}
