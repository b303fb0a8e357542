import LuxColor
public import LuxRender

extension Filters {
    /// White balance: colours that were neutral under the light `neutral` (temperature in kelvin, tint) become
    /// neutral under `targetNeutral`.
    ///
    /// A Bradford chromatic adaptation from the chromaticity of `neutral` to that of `targetNeutral`
    /// (LuxColor's `TemperatureAndTint`: tint is 3000·Duv, positive = green), applied in linear sRGB. Setting
    /// `neutral` below `targetNeutral` cools the picture (it removes a warm cast).
    public struct TemperatureAndTint: Filter {
        public static let descriptor = FilterDescriptor(
            name: "TemperatureAndTint", displayName: "Temperature and Tint",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Adapts the white point from one temperature and tint to another.",
            parameters: [
                .image(),
                .vector(
                    "neutral", default: [6500, 0], summary: "The light the picture was taken under: kelvin, tint."),
                .vector("targetNeutral", default: [6500, 0], summary: "The light to render it for: kelvin, tint."),
            ])

        public var image: Image
        public var neutral: SIMD2<Double>
        public var targetNeutral: SIMD2<Double>

        public init(image: Image, neutral: SIMD2<Double> = [6500, 0], targetNeutral: SIMD2<Double> = [6500, 0]) {
            self.image = image
            self.neutral = neutral
            self.targetNeutral = targetNeutral
        }

        public init(arguments a: FilterArguments) {
            self.init(image: a.image(), neutral: a.vector2("neutral"), targetNeutral: a.vector2("targetNeutral"))
        }

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
        Filters.TemperatureAndTint(image: self, neutral: neutral, targetNeutral: targetNeutral).outputImage
    }
}
