public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A kaleidoscope: the wedge of half a sector from `angle` around `center` is mirrored into `count` sectors.
    ///
    /// A pixel at polar angle `φ` around the centre (measured from `angle`) reads the pixel at the same distance and
    /// angle `φ'`: `φ` folded into one sector of `2π/count`, then mirrored into its first half. The picture has the
    /// symmetry of the dihedral group of order `2·count`. The extent is infinite.
    public struct Kaleidoscope: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Kaleidoscope", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Mirrors a wedge of the image around a point.", .image(\.image),
            .parameter("count", \.count, slider: 1...64, allowed: 1...1000, summary: "The number of sectors."),
            .parameter("center", \.center, summary: "The centre of symmetry."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The direction of the mirrored wedge's first edge."))

        public var image: Image = .empty
        public var count: Int = 6
        public var center: Point = Point(x: 150, y: 150)
        public var angle: Double = 0

        public init() {}

        public var outputImage: Image {
            let sector = 2 * Double.pi / Double(max(count, 1))
            let start = angle
            let c = center
            let kernel = WarpKernel(name: "kaleidoscope") { row in
                let dy = Double(row.y) + 0.5 - c.y
                for i in 0..<row.count {
                    let dx = Double(row.x + i) + 0.5 - c.x
                    let r = (dx * dx + dy * dy).squareRoot()
                    var phi = Double.atan2(y: dy, x: dx) - start
                    phi -= sector * (phi / sector).rounded(.down)
                    if phi > sector / 2 { phi = sector - phi }
                    row.sourceX[i] = Float(c.x + r * Double.cos(start + phi))
                    row.sourceY[i] = Float(c.y + r * Double.sin(start + phi))
                }
            }
            return kernel.apply(
                extent: .infinite, image: image, arguments: "count=\(count) center=\(center) angle=\(angle)"
            ) { rect in
                // Sources lie at the rectangle's distances from the centre, inside the mirrored wedge.
                let (near, far) = RadialWarp.radialRange(of: rect, around: c)
                return RadialWarp.sectorBounds(around: c, near: near, far: far, from: start, to: start + sector / 2)
            }
        }
    }
}

extension Image {
    /// The image mirrored into a kaleidoscope around `center` (see ``Filters/Kaleidoscope``).
    public func kaleidoscope(count: Int = 6, center: Point, angle: Double = 0) -> Image {
        applyingFilter(
            Filters.Kaleidoscope {
                $0.count = count
                $0.center = center
                $0.angle = angle
            })
    }
}
