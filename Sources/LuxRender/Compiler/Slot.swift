import LuxPixels

/// A region of another step's output that a step needs materialised.
struct Slot {
    let producer: Step
    /// The storage format of the materialised buffer.
    let format: PixelFormat
    /// The arrangement of its rows.
    let layout: PixelLayout
    /// Values are rounded to this format's precision when stored (the working format).
    let quantize: PixelFormat?
    /// Whether the recipe asked for this intermediate to be cached.
    let cache: Bool
    /// Pixel bounds of the producer's extent.
    let producerBounds: PixelRect
    /// The producer's extent.
    let extent: Rect

    /// The storage for printing: the format, and the layout unless interleaved.
    var storageName: String { layout == .planarRows ? "\(format.shortName) planar" : format.shortName }
}
