public import LuxPixels
public import LuxRender

extension Filters {
    /// Lays a glass lozenge on the image: a capsule of `radius` around the segment from `point0` to `point1` (a
    /// cylinder with hemispherical ends) refracts what lies under it.
    ///
    /// A pixel at distance `d < radius` from the segment reads the source on the line to its nearest point of the
    /// segment, `z·tan(θᵢ − θₜ)` nearer it, where `z = √(radius² − d²)` is the glass's height there,
    /// `sin θᵢ = d / radius` and `sin θₜ = sin θᵢ / refraction`: a vertical ray refracted once at the surface and
    /// followed down to the image (the optics of ``TorusLensDistortion``). The lozenge magnifies what lies under its
    /// spine and leaves the rest unchanged. The extent is the input's.
    public struct GlassLozenge: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "GlassLozenge", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Distorts the image through a lozenge-shaped glass lens.", .image(\.image),
            .parameter("point0", \.point0, summary: "The centre of one end."),
            .parameter("point1", \.point1, summary: "The centre of the other end."),
            .parameter(
                "radius", \.radius, slider: 0...1000, allowed: 0...1e6, unit: .pixels,
                summary: "The radius of the lozenge."),
            .parameter(
                "refraction", \.refraction, slider: 0...5, allowed: 0...100,
                summary: "The refractive index of the glass."))

        public var image: Image = .empty
        public var point0: Point = Point(x: 150, y: 150)
        public var point1: Point = Point(x: 350, y: 150)
        public var radius: Double = 100
        public var refraction: Double = 1.7

        public init() {}

        public var outputImage: Image {
            let ax = Float(point0.x)
            let ay = Float(point0.y)
            let ex = Float(point1.x - point0.x)
            let ey = Float(point1.y - point0.y)
            let length2 = ex * ex + ey * ey
            let a = Float(max(radius, 0))
            let n = Float(refraction)
            let kernel = WarpKernel(name: "glassLozenge") { row in
                let py = Float(row.y) + 0.5
                for i in 0..<row.count {
                    let px = Float(row.x + i) + 0.5
                    // The nearest point of the segment.
                    let t = length2 > 0 ? min(max(((px - ax) * ex + (py - ay) * ey) / length2, 0), 1) : 0
                    let qx = ax + t * ex
                    let qy = ay + t * ey
                    let d = ((px - qx) * (px - qx) + (py - qy) * (py - qy)).squareRoot()
                    let f = d > 0 ? (d - GlassRefraction.shift(d, radius: a, index: n)) / d : 1
                    row.sourceX[i] = qx + (px - qx) * f
                    row.sourceY[i] = qy + (py - qy) * f
                }
            }
            let r = max(radius, 0)
            let capsule = Rect(
                minX: min(point0.x, point1.x) - r, minY: min(point0.y, point1.y) - r, maxX: max(point0.x, point1.x) + r,
                maxY: max(point0.y, point1.y) + r)
            return kernel.apply(
                extent: image.extent, image: image,
                arguments: "point0=\(point0) point1=\(point1) radius=\(radius) refraction=\(refraction)"
            ) { [reach = GlassRefraction.largestShift(radius: a, index: n)] rect in
                // Pixels under the glass read towards its axis, at most `reach` away; the others read themselves.
                rect.intersects(capsule) ? rect.insetBy(dx: -reach, dy: -reach) : rect
            }
        }
    }
}

extension Image {
    /// The image seen through a glass lozenge (see ``Filters/GlassLozenge``).
    public func glassLozenge(point0: Point, point1: Point, radius: Double = 100, refraction: Double = 1.7) -> Image {
        applyingFilter(
            Filters.GlassLozenge {
                $0.point0 = point0
                $0.point1 = point1
                $0.radius = radius
                $0.refraction = refraction
            })
    }
}
