public import LuxColor
public import LuxPixels

/// An immutable, lazy image recipe: the CIImage role.
///
/// An `Image` says *how* to compute pixels, not the pixels themselves. Creating one from a buffer,
/// applying kernels and filters, cropping or transforming all return new recipes instantly; nothing is
/// computed until a ``RenderContext`` renders it. Every image has an ``extent`` (possibly infinite, as
/// for generators and clamped images); outside it the image is transparent.
///
/// Coordinates: x grows to the right, y grows downwards, pixel `(x, y)` covers `[x, x+1) × [y, y+1)`.
///
/// ```swift
/// let photo = Image(buffer: decoded)                       // carries the buffer's colour space
/// let look = try photo.applyingFilter("SepiaTone", parameters: ["intensity": 0.8])
///     .cropped(to: Rect(x: 0, y: 0, width: 1024, height: 768))
/// let out = try RenderContext().createBuffer(look, format: .rgba8, colorSpace: .displayP3)
/// ```
public struct Image: Sendable, CustomStringConvertible {
    let node: Node

    init(node: Node) { self.node = node }

    /// The region where the image is defined (outside it pixels are transparent).
    public var extent: Rect { node.extent }

    /// Whether every pixel inside the extent is known to have alpha 1.
    public var isOpaque: Bool { node.isOpaque }

    /// Creates an image from pixels in memory.
    ///
    /// The pixels are colour-matched from `colorSpace` (default: the buffer's own) into the render's
    /// working space. With no colour space at all the values are taken to be in the working space already.
    /// The buffer is shared, not copied (it is copy-on-write).
    ///
    /// - Parameters:
    ///   - buffer: The pixels; their extent is `(0, 0, width, height)`. Any ``PixelFormat`` is accepted.
    ///   - colorSpace: Overrides the buffer's colour space.
    public init(buffer: PixelBuffer, colorSpace: ColorSpace? = nil) {
        let space = colorSpace ?? buffer.colorSpace
        let opaque = !buffer.format.hasAlpha
        node = Node(
            .source(SourceBox(buffer), colorSpace: space), extent: buffer.bounds, isOpaque: opaque)
    }

    /// Creates an image of infinite extent filled with one colour.
    public init(color: Color) {
        node = Node(.constant(color), extent: .infinite, isOpaque: color.alpha == 1)
    }

    /// Whether `other` is this very recipe (this value or a copy of it, not an equal one built again): lets a caller
    /// skip work when a processor hands back the image it was given.
    package func isSameRecipe(as other: Image) -> Bool { node === other.node }

    /// The empty image (transparent, empty extent).
    public static let empty = Image(node: Node(.empty, extent: .null, isOpaque: false))

    public var description: String {
        "Image(extent: \(extent)\(isOpaque ? ", opaque" : ""))"
    }
}
