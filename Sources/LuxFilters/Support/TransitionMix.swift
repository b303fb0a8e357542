import LuxPixels
import LuxRender
import RealModule

/// The shared body of the transitions that show, at each pixel, a mix of the source and the target.
enum TransitionMix {
    /// The mix `image + (target − image)·k` on premultiplied colour, with `k` from `weight` (0: source, 1: target).
    ///
    /// `weight` fills `k` for the row's pixels; extra `inputs` (masks) are the row's inputs 2, 3, …. The extent is the
    /// union of the two images.
    static func apply(
        _ image: Image, target: Image, inputs: [Image] = [], name: String, arguments: String,
        weight: @escaping @Sendable (_ row: ColorKernelRow, _ k: UnsafeMutablePointer<Float>) -> Void
    ) -> Image {
        let kernel = ColorKernel(name: name, inputCount: 2 + inputs.count) { row in
            let s = row.pixels
            let t = row.input(1)
            withUnsafeTemporaryAllocation(of: Float.self, capacity: row.count) { k in
                let kp = k.baseAddress!
                weight(row, kp)
                for i in 0..<row.count {
                    let w = kp[i]
                    s.red[i] += (t.red[i] - s.red[i]) * w
                    s.green[i] += (t.green[i] - s.green[i]) * w
                    s.blue[i] += (t.blue[i] - s.blue[i]) * w
                    s.alpha[i] += (t.alpha[i] - s.alpha[i]) * w
                }
            }
        }
        return kernel.apply(
            extent: image.extent.union(target.extent), inputs: [image, target] + inputs, arguments: arguments)
    }

    /// A front moving across a rectangle in a direction: distances are measured along the direction from the
    /// rectangle's corner that the front reaches first.
    struct Sweep: Sendable {
        /// The distance along the direction from the first corner to the last.
        let length: Double
        let start: Float
        let ux: Float
        let uy: Float

        /// The front crossing `rect` (the 1000-pixel square at the origin when `rect` is infinite) in the direction
        /// `angle`.
        init(across rect: Rect, angle: Double) {
            let e = rect.isInfinite ? Rect(x: 0, y: 0, width: 1000, height: 1000) : rect
            let x = Double.cos(angle)
            let y = Double.sin(angle)
            let along = [
                e.minX * x + e.minY * y, e.maxX * x + e.minY * y, e.minX * x + e.maxY * y, e.maxX * x + e.maxY * y,
            ]
            start = Float(along.min()!)
            length = along.max()! - along.min()!
            ux = Float(x)
            uy = Float(y)
        }

        /// The distance of `(x, y)` along the direction from the first corner.
        @inline(__always)
        func distance(_ x: Float, _ y: Float) -> Float { x * ux + y * uy - start }
    }
}
