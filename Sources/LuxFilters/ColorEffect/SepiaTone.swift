public import LuxRender

extension Filters {
    /// Maps colours to shades of brown, mixed with the original by `intensity`.
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
            let t = Float(intensity)
            // Blend the identity and the sepia matrix once: m = (1 − t)·I + t·S.
            var m = Self.sepia.map { $0 * t }
            m[0] += 1 - t
            m[4] += 1 - t
            m[8] += 1 - t
            let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
            // Linear in colour, so it commutes with premultiplication.
            let kernel = ColorKernel(name: "sepiaTone", alphaHandling: .premultiplied, preservesAlpha: true) { row in
                let p = row.pixels
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                for i in 0..<row.count {
                    let r = rr[i]
                    let g = gg[i]
                    let b = bb[i]
                    rr[i] = m0 * r + m1 * g + m2 * b
                    gg[i] = m3 * r + m4 * g + m5 * b
                    bb[i] = m6 * r + m7 * g + m8 * b
                }
            }
            return image.applying(kernel, arguments: "intensity=\(intensity)")
        }
    }
}

extension Image {
    /// The image in sepia tones (see ``Filters/SepiaTone``).
    public func sepiaTone(intensity: Double = 1) -> Image {
        Filters.SepiaTone(image: self, intensity: intensity).outputImage
    }
}
