import LuxPixels
public import LuxRender

extension Filters {
    /// Rotates the image about its centre by `angle` radians (counter-clockwise on screen) and enlarges it just enough
    /// that no transparent corner shows, keeping the original extent — how photo editors straighten a tilted horizon.
    ///
    /// An image of infinite extent is only rotated about the origin.
    public struct StraightenFilter: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "StraightenFilter", displayName: "Straighten",
            categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Rotates and enlarges the image to level a tilted horizon.", .image(\.image),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1000...1000, unit: .radians,
                summary: "The rotation, counter-clockwise on screen."))

        public var image: Image = .empty
        public var angle: Double = 0

        public init() {}

        /// The enlargement that keeps a `width`×`height` rectangle covered when rotated by `angle`.
        public static func coverScale(width: Double, height: Double, angle: Double) -> Double {
            let c = abs(cosDouble(angle))
            let s = abs(sinDouble(angle))
            return max(c + s * height / width, c + s * width / height)
        }

        public var outputImage: Image {
            if angle == 0 { return image }
            let e = image.extent
            // Counter-clockwise on screen is a negative angle in y-down coordinates.
            let rotate = LuxPixels.AffineTransform(rotationAngle: -angle)
            guard !e.isInfinite, !e.isEmpty else { return image.transformed(by: rotate) }
            let k = Self.coverScale(width: e.width, height: e.height, angle: angle)
            let t = LuxPixels.AffineTransform(translationX: -e.midX, y: -e.midY).concatenating(rotate)
                .scaledBy(x: k, y: k).translatedBy(x: e.midX, y: e.midY)
            // Edge pixels extended, so bilinear sampling at the very corners reads no transparency.
            return image.clampedToExtent().transformed(by: t).cropped(to: e)
        }
    }
}

extension Image {
    /// The image rotated and enlarged to level a tilt (see ``Filters/StraightenFilter``).
    public func straighten(angle: Double) -> Image { applyingFilter(Filters.StraightenFilter { $0.angle = angle }) }
}
