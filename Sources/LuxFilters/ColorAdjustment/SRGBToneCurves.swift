public import LuxRender

extension Filters {
    /// Encodes working-space values with the sRGB curve (IEC 61966-2-1: `12.92·x` up to 0.0031308, then
    /// `1.055·x^(1/2.4) − 0.055`, mirrored for negative values), leaving them labelled as working-space values.
    public struct LinearToSRGBToneCurve: Filter {
        public static let descriptor = FilterDescriptor(
            name: "LinearToSRGBToneCurve", displayName: "Linear to sRGB Tone Curve",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Applies the sRGB encoding curve to the values.", parameters: [.image()])

        public var image: Image

        public init(image: Image) { self.image = image }

        public init(arguments a: FilterArguments) { self.init(image: a.image()) }

        public var outputImage: Image {
            let kernel = ColorKernel(name: "linearToSRGB", alphaHandling: .unpremultiplied, preservesAlpha: true) {
                row in
                let p = row.pixels
                let r = p.red
                let g = p.green
                let b = p.blue
                for i in 0..<row.count {
                    r[i] = srgbEncode(r[i])
                    g[i] = srgbEncode(g[i])
                    b[i] = srgbEncode(b[i])
                }
            }
            return image.applying(kernel)
        }
    }

    /// Decodes values with the sRGB curve (the inverse of ``LinearToSRGBToneCurve``), mirrored for negative values.
    public struct SRGBToneCurveToLinear: Filter {
        public static let descriptor = FilterDescriptor(
            name: "SRGBToneCurveToLinear", displayName: "sRGB Tone Curve to Linear",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Applies the sRGB decoding curve to the values.", parameters: [.image()])

        public var image: Image

        public init(image: Image) { self.image = image }

        public init(arguments a: FilterArguments) { self.init(image: a.image()) }

        public var outputImage: Image {
            let kernel = ColorKernel(name: "srgbToLinear", alphaHandling: .unpremultiplied, preservesAlpha: true) {
                row in
                let p = row.pixels
                let r = p.red
                let g = p.green
                let b = p.blue
                for i in 0..<row.count {
                    r[i] = srgbDecode(r[i])
                    g[i] = srgbDecode(g[i])
                    b[i] = srgbDecode(b[i])
                }
            }
            return image.applying(kernel)
        }
    }
}

extension Image {
    /// The values encoded with the sRGB curve (see ``Filters/LinearToSRGBToneCurve``).
    public func linearToSRGBToneCurve() -> Image { Filters.LinearToSRGBToneCurve(image: self).outputImage }

    /// The values decoded with the sRGB curve (see ``Filters/SRGBToneCurveToLinear``).
    public func srgbToneCurveToLinear() -> Image { Filters.SRGBToneCurveToLinear(image: self).outputImage }
}
