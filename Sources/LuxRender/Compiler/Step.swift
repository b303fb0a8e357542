import LuxPixels

/// One unit of materialisation: a fused row program, or an image processor.
final class Step {
    enum Kind {
        case rows(RowOp)
        case processor(ImageProcessor, bounds: PixelRect)
    }

    var kind: Kind = .rows(ConstantOp(.zero, bounds: .empty))
    /// Intermediates the step reads, materialised before it runs on a tile.
    var slots: [Slot] = []
    /// A structural description of what the step computes (cache key and printing).
    let digest: String
    let number: Int

    init(digest: String, number: Int) {
        self.digest = digest
        self.number = number
    }
}
