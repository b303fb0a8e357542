public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Wraps the image around a circle: the row through `center` is bent onto the circle of `radius`, the rows above
    /// it outwards and the rows below it inwards, leaving a transparent hole.
    ///
    /// A pixel at distance `r` from `center` and polar angle `φ` (measured from `angle`, clockwise on screen, in
    /// −π…π) reads the source at `(center.x + radius·φ, center.y + radius − r)`: arc length along the circle becomes
    /// x, distance outwards becomes height. Columns farther than `π·radius` from `center.x` are not shown. The extent
    /// is the square around `center` reaching the image's top row.
    public struct CircularWrap: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "CircularWrap", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Wraps the image around a transparent circle.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the circle."),
            .parameter(
                "radius", \.radius, slider: 0...600, allowed: 0...1e6, unit: .pixels,
                summary: "The radius of the circle the centre row is bent onto."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The direction in which the centre column lands."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var radius: Double = 150
        public var angle: Double = 0

        public init() {}

        public var outputImage: Image {
            let c = center
            let r0 = radius
            let a0 = angle
            let kernel = WarpKernel(name: "circularWrap") { row in
                let dy = Double(row.y) + 0.5 - c.y
                for i in 0..<row.count {
                    let dx = Double(row.x + i) + 0.5 - c.x
                    var phi = Double.atan2(y: dy, x: dx) - a0
                    phi -= 2 * Double.pi * ((phi + Double.pi) / (2 * Double.pi)).rounded(.down)
                    row.sourceX[i] = Float(c.x + r0 * phi)
                    row.sourceY[i] = Float(c.y + r0 - (dx * dx + dy * dy).squareRoot())
                }
            }
            let e = image.extent
            let reach = e.isInfinite ? 1e4 : max(r0 + c.y - e.minY, 0)
            let extent = Rect(minX: c.x - reach, minY: c.y - reach, maxX: c.x + reach, maxY: c.y + reach)
            return kernel.apply(
                extent: extent, image: image, arguments: "center=\(center) radius=\(radius) angle=\(angle)"
            ) { rect in
                // Sources lie on the rows radius − r for the rectangle's distances r, within π·radius of center.x.
                let (near, far) = RadialWarp.radialRange(of: rect, around: c)
                var (x0, x1) = (c.x - Double.pi * r0, c.x + Double.pi * r0)
                // Columns r0·φ for the rectangle's angles φ (from `angle`, in −π…π), unless they cross the seam at ±π.
                if let (from, to) = RadialWarp.angularRange(of: rect, around: c) {
                    var phi = from - a0
                    phi -= 2 * Double.pi * ((phi + Double.pi) / (2 * Double.pi)).rounded(.down)
                    if phi + (to - from) < Double.pi { (x0, x1) = (c.x + r0 * phi, c.x + r0 * (phi + to - from)) }
                }
                return Rect(minX: x0, minY: c.y + r0 - far, maxX: x1, maxY: c.y + r0 - near)
            }
        }
    }
}

extension Image {
    /// The image wrapped around a circle (see ``Filters/CircularWrap``).
    public func circularWrap(center: Point, radius: Double = 150, angle: Double = 0) -> Image {
        applyingFilter(
            Filters.CircularWrap {
                $0.center = center
                $0.radius = radius
                $0.angle = angle
            })
    }
}
