public import LuxRender

/// Dilation or erosion (the kinds of ``Filters/MorphologyRectangle``).
public protocol MorphologyKind: Sendable {
    /// The filter name.
    static var name: String { get }
    /// `true` for the maximum (dilation), `false` for the minimum (erosion).
    static var isMaximum: Bool { get }
}

extension Filters {
    /// Dilates (maximum) or erodes (minimum): each premultiplied component becomes the extreme over a `width`×`height`
    /// rectangle around the pixel (sizes rounded to odd whole pixels), at a cost that grows only with the logarithm of
    /// the rectangle's size.
    ///
    /// The extent grows by half the rectangle.
    public struct MorphologyRectangle<Kind: MorphologyKind>: DeclaredFilter {
        public static var declaration: FilterDeclaration<Self> {
            let what = Kind.isMaximum ? "maximum over a rectangle (dilation)" : "minimum over a rectangle (erosion)"
            return FilterDeclaration<Self>(
                Kind.name, categories: [.blur, .stillImage, .video, .highDynamicRange],
                summary: "Replaces each pixel by the \(what).",
                .image(\.image),
                .parameter(
                    "width", \.width, slider: 1...49, allowed: 1...2001, unit: .pixels,
                    summary: "The rectangle's width (rounded to an odd number)."),
                .parameter(
                    "height", \.height, slider: 1...49, allowed: 1...2001, unit: .pixels,
                    summary: "The rectangle's height (rounded to an odd number)."))
        }

        public var image: Image = .empty
        public var width: Double = 5
        public var height: Double = 5

        public init() {}

        /// `size` rounded to an odd whole number (at least 1).
        static func odd(_ size: Double) -> Int { max(2 * Int((size / 2).rounded(.down)) + 1, 1) }

        public var outputImage: Image {
            RectangleMorphology.apply(image, kx: Self.odd(width), ky: Self.odd(height), maximum: Kind.isMaximum)
        }
    }
}

/// The two morphology kinds.
public enum MorphologyKinds {
    /// Dilation.
    public enum Maximum: MorphologyKind {
        public static let name = "MorphologyRectangleMaximum"
        public static let isMaximum = true
    }

    /// Erosion.
    public enum Minimum: MorphologyKind {
        public static let name = "MorphologyRectangleMinimum"
        public static let isMaximum = false
    }
}

extension Filters {
    /// Dilation by a rectangle (see ``MorphologyRectangle``).
    public typealias MorphologyRectangleMaximum = MorphologyRectangle<MorphologyKinds.Maximum>
    /// Erosion by a rectangle (see ``MorphologyRectangle``).
    public typealias MorphologyRectangleMinimum = MorphologyRectangle<MorphologyKinds.Minimum>
}

extension Image {
    /// The image dilated by a rectangle (see ``Filters/MorphologyRectangle``).
    public func morphologyRectangleMaximum(width: Double = 5, height: Double = 5) -> Image {
        applyingFilter(
            Filters.MorphologyRectangleMaximum {
                $0.width = width
                $0.height = height
            })
    }

    /// The image eroded by a rectangle (see ``Filters/MorphologyRectangle``).
    public func morphologyRectangleMinimum(width: Double = 5, height: Double = 5) -> Image {
        applyingFilter(
            Filters.MorphologyRectangleMinimum {
                $0.width = width
                $0.height = height
            })
    }
}
