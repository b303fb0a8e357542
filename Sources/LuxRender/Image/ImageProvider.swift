public import LuxColor
public import LuxPixels

/// Pixels produced on demand, region by region (the CIImageProvider role): a decoder that reads only the
/// strips or tiles a render needs, so an image larger than memory can be filtered and written in bounded
/// memory.
///
/// The engine asks for the regions its tiles need (with margins for neighbourhood filters), possibly from
/// several threads at once and possibly more than once for overlapping regions; implementations should be
/// thread-safe and may keep a small cache of recently decoded rows.
///
/// ```swift
/// struct Checkerboard: ImageProvider {
///     let width = 4096, height = 4096, format = PixelFormat.rgba8, colorSpace: ColorSpace? = .sRGB
///     func provide(_ region: ImageProcessorOutput) throws {
///         for j in 0..<region.height { … fill region.row(j, as: UInt8.self) … }
///     }
/// }
/// let image = Image(provider: Checkerboard())
/// ```
public protocol ImageProvider: Sendable {
    /// Width of the image in pixels.
    var width: Int { get }
    /// Height of the image in pixels.
    var height: Int { get }
    /// The format ``provide(_:)`` writes: one of ``ImageProcessor/supportedFormats``.
    var format: PixelFormat { get }
    /// The colour space of the values (`nil`: already in the working space).
    var colorSpace: ColorSpace? { get }
    /// Whether colour values are premultiplied by alpha (default `false`).
    var isPremultiplied: Bool { get }
    /// A stable identity for caching and printing (default: the type name and size).
    var identifier: String { get }
    /// Whether every alpha ``provide(_:)`` writes is exactly 1 (default `false`).
    ///
    /// An opaque provider needs no premultiplication, and an 8-bit one can feed processors that read the working
    /// format as 8-bit (exact) instead of converting to half floats.
    var isOpaque: Bool { get }

    /// Fills `output` (whose `region` lies inside `(0, 0, width, height)`) with pixels.
    func provide(_ output: ImageProcessorOutput) throws
}

extension ImageProvider {
    public var isPremultiplied: Bool { false }
    public var identifier: String { "\(Self.self) \(width)x\(height)" }
    public var isOpaque: Bool { false }
}

extension Image {
    /// An image whose pixels come from `provider` when a render needs them; extent `(0, 0, width, height)`.
    ///
    /// - Precondition: the provider's format is one of ``ImageProcessor/supportedFormats`` and its size is
    ///   positive.
    public init(provider: some ImageProvider) {
        precondition(provider.width > 0 && provider.height > 0, "a provider needs a positive size")
        let extent = Rect(width: provider.width, height: provider.height)
        let processor = ImageProcessor(
            description: "provider", argumentDigest: provider.identifier, inputFormat: provider.format,
            outputFormat: provider.format, roi: { _, rect in rect },
            process: { _, output in
                try provider.provide(output)
            }
        )
        var image = Image(node: Node(.processor(processor), extent: extent, isOpaque: provider.isOpaque))
        if !provider.isPremultiplied { image = image.premultiplied() }
        if let space = provider.colorSpace { image = image.matchedToWorkingSpace(from: space) }
        self = image
    }
}
