public import LuxColor
import LuxPixels
public import LuxRender

extension Filters {
    /// A colour wheel: a disc of radius `radius` centred at `(radius, radius)` whose hue is the angle (red along +x,
    /// turning counter-clockwise on screen through yellow and green), saturation the distance from the centre over the
    /// radius, and value `value`, computed in `colorSpace` (so a Display P3 wheel shows P3's wider gamut).
    ///
    /// The edge is antialiased over `softness` pixels and `dither` adds ±`dither`/255 of noise against banding. The
    /// extent is the disc's bounding box.
    public struct HueSaturationValueGradient: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "HueSaturationValueGradient", displayName: "Hue/Saturation/Value Gradient",
            categories: [.generator, .gradient, .stillImage, .video],
            summary: "A colour wheel of hues and saturations at one value.",
            .parameter(
                "value", \.value, slider: 0...1, allowed: 0...10, summary: "The value (brightness) of the wheel."),
            .parameter(
                "radius", \.radius, slider: 1...1000, allowed: 0.5...1e5, unit: .pixels, summary: "The wheel's radius."),
            .parameter(
                "softness", \.softness, slider: 0...10, allowed: 0...1e5, unit: .pixels,
                summary: "Width of the antialiased edge."),
            .parameter(
                "dither", \.dither, slider: 0...3, allowed: 0...100, summary: "Noise amplitude in 8-bit levels."),
            .parameter("colorSpace", \.colorSpace, summary: "The RGB space the wheel is defined in."))

        public var value: Double = 1
        public var radius: Double = 300
        public var softness: Double = 1
        public var dither: Double = 1
        public var colorSpace = ColorSpace.sRGB

        public init() {}

        /// The wheel's colour (straight, in `colorSpace`) at an angle (radians) and saturation, before dithering.
        public static func hsv(hue: Double, saturation: Double, value: Double) -> SIMD3<Double> {
            var h = (hue / (2 * Double.pi)).truncatingRemainder(dividingBy: 1)
            if h < 0 { h += 1 }
            func channel(_ n: Double) -> Double {
                let k = (n + h * 6).truncatingRemainder(dividingBy: 6)
                return value - value * saturation * max(0, min(k, 4 - k, 1))
            }
            return SIMD3(channel(5), channel(3), channel(1))
        }

        public var outputImage: Image {
            let r = radius
            let c = Float(r)
            let v = Float(value)
            let soft = Float(max(softness, 1e-3))
            let noise = Float(dither / 255)
            let kernel = ColorKernel(name: "hsvGradient", inputCount: 0, alphaHandling: .unpremultiplied) { row in
                let p = row.pixels
                let dy = c - (Float(row.y) + 0.5)  // up is positive
                for i in 0..<row.count {
                    let dx = Float(row.x + i) + 0.5 - c
                    let d = (dx * dx + dy * dy).squareRoot()
                    let s = min(d / c, 1)
                    // Hue in sixths of a turn, 0…6.
                    var h = Float(atan2Double(y: Double(dy), x: Double(dx))) * (3 / Float.pi)
                    h = h < 0 ? h + 6 : h
                    let hash = PixelHash.mix(
                        UInt32(truncatingIfNeeded: row.x + i) &* 0x8DA6_B343 ^ UInt32(truncatingIfNeeded: row.y)
                            &* 0xD816_3841)
                    let jitter = (PixelHash.unit(hash) - 0.5) * 2 * noise
                    func channel(_ n: Float) -> Float {
                        let k = (n + h).truncatingRemainder(dividingBy: 6)
                        return v - v * s * max(0, min(k, min(4 - k, 1))) + jitter
                    }
                    p.red[i] = channel(5)
                    p.green[i] = channel(3)
                    p.blue[i] = channel(1)
                    p.alpha[i] = clampFloat((c - d) / soft + 0.5, 0, 1)
                }
            }
            let args = "value=\(value) radius=\(radius) softness=\(softness) dither=\(dither)"
            return kernel.apply(extent: Rect(x: 0, y: 0, width: 2 * r, height: 2 * r), inputs: [], arguments: args)
                .matchedToWorkingSpace(from: colorSpace)
        }
    }
}

extension Image {
    /// A colour wheel (see ``Filters/HueSaturationValueGradient``).
    public static func hueSaturationValueGradient(
        value: Double = 1, radius: Double = 300, softness: Double = 1, dither: Double = 1,
        colorSpace: ColorSpace = .sRGB
    ) -> Image {
        Filters.HueSaturationValueGradient {
            $0.value = value
            $0.radius = radius
            $0.softness = softness
            $0.dither = dither
            $0.colorSpace = colorSpace
        }.outputImage
    }
}
