public import LuxRender

extension Filters {
    /// Maps colours to shades of brown, mixed with the original by `intensity`.
    ///
    /// The classic sepia matrix (rows red, green, blue: `0.393 0.769 0.189`, `0.349 0.686 0.168`,
    /// `0.272 0.534 0.131`) blended with the identity: `M = (1 − intensity)·I + intensity·S`.
    public struct SepiaTone: Filter {
        public static let descriptor = FilterDescriptor(
            name: "SepiaTone", displayName: "Sepia Tone", categories: [.colorEffect, .stillImage, .video],
            summary: "Maps colours to shades of brown.",
            parameters: [
                .image(),
                .number(
                    "intensity", default: 1, slider: 0...1, allowed: 0...1, unit: .fraction,
                    summary: "How much of the sepia look to mix in."),
            ])

        public var image: Image
        public var intensity: Double

        public init(image: Image, intensity: Double = 1) {
            self.image = image
            self.intensity = intensity
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), intensity: a.number("intensity")) }

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
        Filters.SepiaTone(image: self, intensity: intensity).outputImage
    }
}
