import LuxPixels
import LuxRender

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
}
