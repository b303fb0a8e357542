public import LuxPixels
public import LuxRender

extension Filters {
    /// Lays a glass ring on the image: a torus whose middle circle has `radius` about `center` and whose tube is
    /// `width` across refracts what lies under it.
    ///
    /// Core Image gives no formula; Lux models the lens physically. A pixel at distance
    /// `d = |r − radius|` from the middle circle, inside the tube (`d < width / 2`), reads the source on its own ray
    /// from `center`, `z·tan(θᵢ − θₜ)` nearer the middle circle, where `z = √((width/2)² − d²)` is the glass's height
    /// there, `sin θᵢ = d / (width/2)` and `sin θₜ = sin θᵢ / refraction`: a vertical ray refracted once at the
    /// surface and followed down to the image. The ring therefore magnifies what lies under its middle, and leaves
    /// the image unchanged at its rims and outside. The extent is the input's.
    public struct TorusLensDistortion: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "TorusLensDistortion", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Distorts the image through a torus-shaped glass lens.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the ring."),
            .parameter(
                "radius", \.radius, slider: 0...500, allowed: 0...1e6, unit: .pixels,
                summary: "The radius of the ring's middle circle."),
            .parameter(
                "width", \.width, slider: 0...200, allowed: 0...1e6, unit: .pixels, summary: "The width of the ring."),
            .parameter(
                "refraction", \.refraction, slider: 0...5, allowed: 0...100,
                summary: "The refractive index of the glass."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var radius: Double = 160
        public var width: Double = 80
        public var refraction: Double = 1.7

        public init() {}

        public var outputImage: Image {
            let cx = Float(center.x)
            let cy = Float(center.y)
            let ridge = Float(radius)
            let a = Float(max(width, 0) / 2)
            let n = Float(refraction)
            let kernel = WarpKernel(name: "torusLens") { row in
                let dy = Float(row.y) + 0.5 - cy
                for i in 0..<row.count {
                    let dx = Float(row.x + i) + 0.5 - cx
                    let r = (dx * dx + dy * dy).squareRoot()
                    let d = r - ridge
                    let shift = GlassRefraction.shift(abs(d), radius: a, index: n)
                    // Along the ray from the centre, towards the middle circle.
                    let f = r > 0 ? (r - (d < 0 ? -shift : shift)) / r : 1
                    row.sourceX[i] = cx + dx * f
                    row.sourceY[i] = cy + dy * f
                }
            }
            let outer = radius + max(width, 0) / 2
            let ring = Rect(
                minX: center.x - outer, minY: center.y - outer, maxX: center.x + outer, maxY: center.y + outer)
            return kernel.apply(
                extent: image.extent, image: image,
                arguments: "center=\(center) radius=\(radius) width=\(width) refraction=\(refraction)"
            ) { [reach = GlassRefraction.largestShift(radius: a, index: n)] rect in
                // Pixels in the tube read along their radius, at most `reach` away; the others read themselves.
                rect.intersects(ring) ? rect.insetBy(dx: -reach, dy: -reach) : rect
            }
        }
    }
}

extension Image {
    /// The image seen through a glass ring (see ``Filters/TorusLensDistortion``).
    public func torusLensDistortion(center: Point, radius: Double = 160, width: Double = 80, refraction: Double = 1.7)
        -> Image
    {
        applyingFilter(
            Filters.TorusLensDistortion {
                $0.center = center
                $0.radius = radius
                $0.width = width
                $0.refraction = refraction
            })
    }
}
