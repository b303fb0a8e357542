public import LuxRender

extension Filters {
    /// Rotates hues by `angle` radians: a rotation of RGB space about the gray axis `r = g = b`.
    ///
    /// Grays stay put and `r + g + b` is preserved; the rotation is linear, so it runs on premultiplied colour.
    public struct HueAdjust: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "HueAdjust", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Rotates hues about the gray axis.", .image(\.image),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1000...1000, unit: .radians,
                summary: "The rotation in radians."))

        public var image: Image = .empty
        public var angle: Double = 0

        public init() {}

        /// Rodrigues' rotation matrix about the unit axis `(1, 1, 1)/√3`, row-major.
        static func matrix(angle: Double) -> [Float] {
            let c = cosDouble(angle)
            let s = sinDouble(angle)
            let u = 1 / 3.0.squareRoot()
            let t = (1 - c) / 3  // (1 − cos)·u²
            let d = c + t
            let p = t + s * u
            let q = t - s * u
            return [d, q, p, p, d, q, q, p, d].map(Float.init)
        }

        public var outputImage: Image {
            if angle == 0 { return image }
            return image.applyingMatrix("hueAdjust", Self.matrix(angle: angle), arguments: "angle=\(angle)")
        }
    }
}

extension Image {
    /// The image with hues rotated by `angle` radians (see ``Filters/HueAdjust``).
    public func hueAdjust(angle: Double) -> Image { applyingFilter(Filters.HueAdjust { $0.angle = angle }) }
}
