import CLuxKernels
import LuxPixels

/// A program that is one ``ColorTransform`` over a half-float source stored as half float —
/// `[unpremultiply](transform([premultiply](load_RGBAh)))`, crops that keep the tile aside — run as one C loop per row
/// (`lux_half4_color_matrix`): each pixel is read, transformed and written in registers, with none of the planar round
/// trips of the general evaluation (widen into planes, alpha steps, matrix, alpha steps, narrow).
///
/// The values are those the general evaluation stores.
struct HalfMatrixRows {
    let load: LoadSourceOp
    let coefficients: SIMD16<Float>
    let premultiplies: Bool
    let unpremultiplies: Bool

    /// The fast form of `root` over `rect` into `target`, or `nil` when the program does something else.
    init?(_ root: RowOp, _ rect: PixelRect, _ target: RowTarget) {
        guard target.format == .rgbaHalf, target.quantize == nil, target.converter == nil else { return nil }
        /// `op` below the crops that keep `rect`, or `nil` when what is left does not cover `rect` either.
        func inside(_ op: RowOp) -> RowOp? {
            let o = Executor.skippingCrops(op, rect)
            return o.bounds.contains(rect) ? o : nil
        }
        guard var op = inside(root) else { return nil }
        unpremultiplies = (op as? AlphaOp)?.kind == .unpremultiply
        if unpremultiplies {
            guard let o = inside(op.children[0]) else { return nil }
            op = o
        }
        guard let kernel = op as? KernelOp, let transform = kernel.kernel.transform, kernel.children.count == 1,
            var below = inside(kernel.children[0])
        else { return nil }
        premultiplies = (below as? AlphaOp)?.kind == .premultiply
        if premultiplies {
            guard let o = inside(below.children[0]) else { return nil }
            below = o
        }
        guard let load = below as? LoadSourceOp, load.format == .rgbaHalf else { return nil }
        self.load = load
        coefficients = transform.coefficients
    }

    func run(_ rect: PixelRect, _ target: RowTarget, _ w: Worker) {
        withUnsafeBytes(of: coefficients) { c in
            let k = c.baseAddress!.assumingMemoryBound(to: Float.self)
            for y in rect.minY..<rect.maxY {
                let src = load.base + y * load.bytesPerRow + rect.minX * load.bytesPerPixel
                lux_half4_color_matrix(
                    src.assumingMemoryBound(to: UInt16.self),
                    target.pointer(x: rect.minX, y: y).assumingMemoryBound(to: UInt16.self), k,
                    premultiplies ? 1 : 0, unpremultiplies ? 1 : 0, target.streaming ? 1 : 0, rect.width)
            }
        }
        w.stats.sourcePixelsRead += rect.area
    }
}
