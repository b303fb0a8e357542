import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Lights the image, seen as a flat matte surface, with a spotlight.
    ///
    /// The model is SVG's `feSpotLight` on a diffuse surface of normal (0, 0, 1) (z points towards the viewer): at
    /// surface point `P = (x, y, 0)`, with `L` the unit vector to `lightPosition` and `S` the unit vector from
    /// `lightPosition` towards `lightPointsAt`, each colour component is multiplied by
    /// `brightness·L.z·max(−L·S, 0)^concentration` and by `color`. Alpha is kept. Positions are in pixels (x and y as
    /// for points; Core Image's are flipped like its points). The extent is the input's.
    public struct SpotLight: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "SpotLight", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Lights the image with a spotlight.", .image(\.image),
            .parameter(
                "lightPosition", \.lightPosition, unit: .pixels, geometry: .position,
                summary: "The position of the light (z above the image)."),
            .parameter(
                "lightPointsAt", \.lightPointsAt, unit: .pixels, geometry: .position,
                summary: "The point the light is aimed at."),
            .parameter(
                "brightness", \.brightness, slider: 0...10, allowed: 0...1e4, summary: "The strength of the light."),
            .parameter(
                "concentration", \.concentration, slider: 0.001...1.5, allowed: 0...1e3,
                summary: "The exponent of the cone's fall-off: higher values make a tighter spot."),
            .parameter("color", \.color, summary: "The colour of the light."))

        public var image: Image = .empty
        public var lightPosition: SIMD3<Double> = SIMD3(400, 600, 150)
        public var lightPointsAt: SIMD3<Double> = SIMD3(200, 200, 0)
        public var brightness: Double = 3
        public var concentration: Double = 0.1
        public var color: Color = Color(red: 1, green: 1, blue: 1)

        public init() {}

        public var outputImage: Image {
            let light = lightPosition
            let aim = lightPointsAt - light
            let s = aim / max((aim * aim).sum().squareRoot(), 1e-12)
            let (b, e) = (brightness, concentration)
            let kernel = ColorKernel(name: "spotLight", alphaHandling: .premultiplied, preservesAlpha: true) { row in
                let c = row.color(0)
                let p = row.pixels
                let y = Double(row.y) + 0.5
                for i in 0..<row.count {
                    let l = light - SIMD3(Double(row.x + i) + 0.5, y, 0)
                    let n = l / max((l * l).sum().squareRoot(), 1e-12)
                    let cone = max(-(n * s).sum(), 0)
                    let f = Float(b * max(n.z, 0) * (cone > 0 ? Double.exp(e * Double.log(cone)) : 0))
                    p.red[i] *= f * c.x
                    p.green[i] *= f * c.y
                    p.blue[i] *= f * c.z
                }
            }
            return image.applying(
                kernel, arguments: "light=\(light) at=\(lightPointsAt) brightness=\(b) concentration=\(e)",
                colors: [color])
        }
    }
}

extension Image {
    /// The image lit by a spotlight (see ``Filters/SpotLight``).
    public func spotLight(
        position: SIMD3<Double>, pointsAt: SIMD3<Double>, brightness: Double = 3, concentration: Double = 0.1,
        color: Color = Color(red: 1, green: 1, blue: 1)
    ) -> Image {
        applyingFilter(
            Filters.SpotLight {
                $0.lightPosition = position
                $0.lightPointsAt = pointsAt
                $0.brightness = brightness
                $0.concentration = concentration
                $0.color = color
            })
    }
}
