import Foundation
public import FoundationEssentials
import LuxCodecs
import LuxFilters
public import LuxPixels
public import LuxRender

/// A logo composited on the still and every movie frame of an edited Live Photo, in a corner of the (cropped) frame.
///
/// The logo's file is kept inside the recipe (``imageData``), so a saved edit re-applies without it. Its size and
/// margin are fractions of the frame's width, so it covers the same part of the still, the smaller movie frames and
/// previews. Transparent pixels of a PNG show the frame through.
///
/// ```swift
/// var recipe = LivePhotoAdjustments()
/// recipe.watermark = LivePhotoWatermark(
///     imageData: try Data(contentsOf: URL(fileURLWithPath: "logo.png")), corner: .bottomRight, width: 0.2)
/// ```
public struct LivePhotoWatermark: Hashable, Sendable, Codable {
    /// A corner of the frame.
    public enum Corner: String, Hashable, Sendable, Codable, CaseIterable {
        /// The top-left corner.
        case topLeft
        /// The top-right corner.
        case topRight
        /// The bottom-left corner.
        case bottomLeft
        /// The bottom-right corner.
        case bottomRight
    }

    /// The logo's file (PNG, JPEG, WebP, TIFF: any still Lux reads).
    public var imageData: Data
    /// Where the logo sits (default: bottom right).
    public var corner: Corner
    /// The logo's width as a fraction of the frame's width, 0 < width ≤ 1 (default 0.2); its aspect ratio is kept.
    public var width: Double
    /// The gap between the logo and the frame's edges, as a fraction of the frame's width (default 0.03).
    public var margin: Double
    /// The logo's opacity, 0…1 (default 1).
    public var opacity: Double

    /// Creates a watermark.
    public init(
        imageData: Data, corner: Corner = .bottomRight, width: Double = 0.2, margin: Double = 0.03,
        opacity: Double = 1
    ) {
        self.imageData = imageData
        self.corner = corner
        self.width = width
        self.margin = margin
        self.opacity = opacity
    }

    /// The logo decoded, after checking the settings.
    ///
    /// - Throws: ``LivePhotoError/adjustments(_:)`` for a width outside 0 < w ≤ 1, a negative margin, an opacity
    ///   outside 0…1 or image data Lux cannot decode.
    func decodedLogo() throws(LivePhotoError) -> Image {
        guard width.isFinite, width > 0, width <= 1 else {
            throw .adjustments("the watermark's width must be 0 < width ≤ 1 of the frame, not \(width)")
        }
        guard margin.isFinite, margin >= 0, margin < 0.5 else {
            throw .adjustments("the watermark's margin must be 0 ≤ margin < 0.5 of the frame, not \(margin)")
        }
        guard opacity.isFinite, (0...1).contains(opacity) else {
            throw .adjustments("the watermark's opacity must be 0…1, not \(opacity)")
        }
        do {
            let file = try ImageFile.read(data: imageData)
            return Image(buffer: file.pixels)
        } catch {
            throw .adjustments("the watermark image cannot be read: \(error)")
        }
    }

    /// `logo` scaled and placed in ``corner`` of `frame`, composited over `image`.
    func composite(_ logo: Image, over image: Image, frame: Rect) -> Image {
        let e = logo.extent
        let scale = width * frame.width / e.width
        let w = e.width * scale
        let h = e.height * scale
        let gap = margin * frame.width
        let x = corner == .topLeft || corner == .bottomLeft ? frame.minX + gap : frame.maxX - gap - w
        let y = corner == .topLeft || corner == .topRight ? frame.minY + gap : frame.maxY - gap - h
        var placed = logo.transformed(
            by: AffineTransform(translationX: -e.minX, y: -e.minY).concatenating(
                AffineTransform(scaleX: scale, y: scale)
            ).concatenating(AffineTransform(translationX: x, y: y)))
        if opacity < 1 { placed = placed.colorMatrix(alpha: [0, 0, 0, opacity]) }
        return placed.composited(over: image).cropped(to: frame)
    }
}
