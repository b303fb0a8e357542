import LuxColor
public import LuxRender

extension Filters {
    /// White balance: colours that were neutral under the light `neutral` (temperature in kelvin, tint) become
    /// neutral under `targetNeutral`.
    ///
    /// A Bradford chromatic adaptation from the chromaticity of `neutral` to that of `targetNeutral`
    /// (LuxColor's `TemperatureAndTint`: tint is 3000·Duv, positive = green), applied in linear sRGB. Setting
    /// `neutral` below `targetNeutral` cools the picture (it removes a warm cast).
    public struct TemperatureAndTint: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "TemperatureAndTint", displayName: "Temperature and Tint",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Adapts the white point from one temperature and tint to another.", .image(\.image),
            .parameter("neutral", \.neutral, summary: "The light the picture was taken under: kelvin, tint."),
            .parameter("targetNeutral", \.targetNeutral, summary: "The light to render it for: kelvin, tint."))

        public var image: Image = .empty
        public var neutral: SIMD2<Double> = [6500, 0]
        public var targetNeutral: SIMD2<Double> = [6500, 0]

        public init() {}

        /// The adaptation as a matrix on linear sRGB (row-major).
        public static func matrix(neutral: SIMD2<Double>, targetNeutral: SIMD2<Double>) -> [Double] {
            func white(_ v: SIMD2<Double>) -> Chromaticity {
                LuxColor.TemperatureAndTint(temperature: min(max(v.x, 1000), 100_000), tint: v.y).chromaticity
            }
            let toXYZ = ColorSpace.linearSRGB.matrixToXYZ ?? .identity
            let adapt = ChromaticAdaptation.bradford(from: white(neutral), to: white(targetNeutral))
            return ((toXYZ.inverse ?? .identity) * adapt * toXYZ).entries
        }

        public var outputImage: Image {
            if neutral == targetNeutral { return image }
            let m = Self.matrix(neutral: neutral, targetNeutral: targetNeutral).map(Float.init)
            let args = "neutral=\(neutral.x),\(neutral.y) target=\(targetNeutral.x),\(targetNeutral.y)"
            return image.matchedFromWorkingSpace(to: .extendedLinearSRGB)
                .applyingMatrix("temperatureAndTint", m, arguments: args)
                .matchedToWorkingSpace(from: .extendedLinearSRGB)
        }
    }
}

extension Image {
    /// The image white-balanced from one light to another (see ``Filters/TemperatureAndTint``).
    public func temperatureAndTint(neutral: SIMD2<Double>, targetNeutral: SIMD2<Double> = [6500, 0]) -> Image {
        applyingFilter(
            Filters.TemperatureAndTint {
                $0.neutral = neutral
                $0.targetNeutral = targetNeutral
            })
    }
}
