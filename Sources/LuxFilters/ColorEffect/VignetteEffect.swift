public import LuxPixels
public import LuxRender

extension Filters {
    /// Darkens the image outside a circle: linear colour is scaled by
    /// `1 − intensity·smoothstep(radius·(1 − falloff), radius·(1 + falloff), d)`, `d` the distance from `center`.
    public struct VignetteEffect: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "VignetteEffect", categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Darkens the image outside a circle.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the circle."),
            .parameter(
                "radius", \.radius, slider: 0...2000, allowed: 0...1e7, unit: .pixels,
                summary: "The radius of the circle."),
            .parameter(
                "intensity", \.intensity, slider: 0...1, allowed: -1...1, unit: .fraction,
                summary: "How dark the outside becomes (1 = black)."),
            .parameter(
                "falloff", \.falloff, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "Width of the transition, relative to the radius."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var radius: Double = 150
        public var intensity: Double = 1
        public var falloff: Double = 0.5

        public init() {}

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
        applyingFilter(
            Filters.VignetteEffect {
                $0.center = center
                $0.radius = radius
                $0.intensity = intensity
                $0.falloff = falloff
            })
    }
}
