public import LuxRender

extension Filters {
    /// Maps colours to shades of brown, mixed with the original by `intensity`.
    ///
    /// The classic sepia matrix (rows red, green, blue: `0.393 0.769 0.189`, `0.349 0.686 0.168`,
    /// `0.272 0.534 0.131`) blended with the identity: `M = (1 − intensity)·I + intensity·S`.
    public struct SepiaTone: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "SepiaTone", categories: [.colorEffect, .stillImage, .video], summary: "Maps colours to shades of brown.",
            .image(\.image),
            .parameter(
                "intensity", \.intensity, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "How much of the sepia look to mix in."))

        public var image: Image = .empty
        public var intensity: Double = 1

        public init() {}

        /// The classic sepia matrix (rows: red, green, blue output).
        static let sepia: [Float] = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]

        public var outputImage: Image {
            if intensity == 0 { return image }
            // Linear in colour, so it commutes with premultiplication.
            let m = Matrix3.mix(Matrix3.identity, Self.sepia, Float(intensity))
            return image.applyingMatrix("sepiaTone", m, arguments: "intensity=\(intensity)")
        }
    }
}

extension Image {
    /// The image in sepia tones (see ``Filters/SepiaTone``).
    public func sepiaTone(intensity: Double = 1) -> Image {
        applyingFilter(Filters.SepiaTone { $0.intensity = intensity })
    }
}
