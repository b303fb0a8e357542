public import LuxPixels
public import LuxRender

extension Filters {
    /// Darkens the image outside a circle: linear colour is scaled by
    /// `1 − intensity·smoothstep(radius·(1 − falloff), radius·(1 + falloff), d)`, `d` the distance from `center`.
    public struct VignetteEffect: Filter {
        public static let descriptor = FilterDescriptor(
            name: "VignetteEffect", displayName: "Vignette Effect",
            categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Darkens the image outside a circle.",
            parameters: [
                .image(),
                .point("center", default: [150, 150], summary: "The centre of the circle."),
                .number(
                    "radius", default: 150, slider: 0...2000, allowed: 0...1e7, unit: .pixels,
                    summary: "The radius of the circle."),
                .number(
                    "intensity", default: 1, slider: 0...1, allowed: -1...1, unit: .fraction,
                    summary: "How dark the outside becomes (1 = black)."),
                .number(
                    "falloff", default: 0.5, slider: 0...1, allowed: 0...1, unit: .fraction,
                    summary: "Width of the transition, relative to the radius."),
            ])

        public var image: Image
        public var center: Point
        public var radius: Double
        public var intensity: Double
        public var falloff: Double

        public init(
            image: Image, center: Point = Point(x: 150, y: 150), radius: Double = 150, intensity: Double = 1,
            falloff: Double = 0.5
        ) {
            self.image = image
            self.center = center
            self.radius = radius
            self.intensity = intensity
            self.falloff = falloff
        }

        public init(arguments a: FilterArguments) {
            self.init(
                image: a.image(), center: a.point("center"), radius: a.number("radius"),
                intensity: a.number("intensity"), falloff: a.number("falloff"))
        }

        public var outputImage: Image {
            if intensity == 0 { return image }
            let cx = Float(center.x)
            let cy = Float(center.y)
            let inner = Float(radius * (1 - falloff))
            let outer = Float(radius * (1 + falloff))
            let invSpan = outer > inner ? 1 / (outer - inner) : 0
            let hard = outer <= inner
            let k = Float(intensity)
            let kernel = ColorKernel(name: "vignetteEffect", alphaHandling: .premultiplied, preservesAlpha: true) {
                row in
                let p = row.pixels
                let dy = Float(row.y) + 0.5 - cy
                let x0 = Float(row.x) + 0.5 - cx
                for i in 0..<row.count {
                    let dx = x0 + Float(i)
                    let d = (dx * dx + dy * dy).squareRoot()
                    let t = clampFloat((d - inner) * invSpan, 0, 1)
                    let s = hard ? (d >= inner ? 1 : 0) : t * t * (3 - 2 * t)
                    let f = 1 - k * s
                    p.red[i] *= f
                    p.green[i] *= f
                    p.blue[i] *= f
                }
            }
            let args = "center=\(describe(center)) radius=\(radius) intensity=\(intensity) falloff=\(falloff)"
            return image.applying(kernel, arguments: args)
        }
    }
}

extension Image {
    /// The image darkened outside a circle (see ``Filters/VignetteEffect``).
    public func vignetteEffect(center: Point, radius: Double, intensity: Double = 1, falloff: Double = 0.5) -> Image {
        Filters.VignetteEffect(image: self, center: center, radius: radius, intensity: intensity, falloff: falloff)
            .outputImage
    }
}
