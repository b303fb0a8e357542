/// A width and height in pixels (CMVideoDimensions).
public struct PixelDimensions: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates dimensions.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// No pixels (what ``ResolvedPhotoSettings`` reports for an image that is not delivered).
    public static let zero = PixelDimensions(width: 0, height: 0)

    /// Width × height.
    public var pixelCount: Int { width * height }

    /// The largest dimensions with this aspect ratio that fit inside `box` (at least 1 × 1).
    public func fitting(in box: PixelDimensions) -> PixelDimensions {
        guard width > 0, height > 0 else { return .zero }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return PixelDimensions(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded())))
    }

    public var description: String { "\(width)×\(height)" }
}
