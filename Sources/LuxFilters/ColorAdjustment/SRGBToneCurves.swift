import LuxColor
public import LuxRender

extension Filters {
    /// Encodes working-space values with the sRGB curve (IEC 61966-2-1: `12.92·x` up to 0.0031308, then
    /// `1.055·x^(1/2.4) − 0.055`, mirrored for negative values), leaving them labelled as working-space values.
    public struct LinearToSRGBToneCurve: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "LinearToSRGBToneCurve", displayName: "Linear to sRGB Tone Curve",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Applies the sRGB encoding curve to the values.", .image(\.image))

        public var image: Image = .empty

        public init() {}

        public var outputImage: Image {
            image.applying(
                sRGBCurveKernel(
                    name: "linearToSRGB", TransferCurveRows(encoding: .sRGB, clamps: false, mirrors: true)))
        }
    }

    /// Decodes values with the sRGB curve (the inverse of ``LinearToSRGBToneCurve``), mirrored for negative values.
    public struct SRGBToneCurveToLinear: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "SRGBToneCurveToLinear", displayName: "sRGB Tone Curve to Linear",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Applies the sRGB decoding curve to the values.", .image(\.image))

        public var image: Image = .empty

        public init() {}

        public var outputImage: Image {
            image.applying(
                sRGBCurveKernel(
                    name: "srgbToLinear", TransferCurveRows(decoding: .sRGB, clamps: false, mirrors: true)))
        }
    }
}

/// A kernel running `curve` over the colour planes of each row (LuxColor's vectorised curve loop, once per plane).
private func sRGBCurveKernel(name: String, _ curve: TransferCurveRows) -> ColorKernel {
    ColorKernel(name: name, alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
        curve.apply(row.pixels.red, count: row.count)
        curve.apply(row.pixels.green, count: row.count)
        curve.apply(row.pixels.blue, count: row.count)
    }
}

extension Image {
    /// The values encoded with the sRGB curve (see ``Filters/LinearToSRGBToneCurve``).
    public func linearToSRGBToneCurve() -> Image { applyingFilter(Filters.LinearToSRGBToneCurve()) }

    /// The values decoded with the sRGB curve (see ``Filters/SRGBToneCurveToLinear``).
    public func srgbToneCurveToLinear() -> Image { applyingFilter(Filters.SRGBToneCurveToLinear()) }
}
