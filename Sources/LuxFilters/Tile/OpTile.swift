public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// An op-art mosaic: the plane is cut into square cells of side `width` (a corner at `center`, sides turned by
    /// `angle`), and each cell shows the area `scale` times its size around its own centre, shrunk to fit.
    ///
    /// Core Image gives no formula; Lux's is this. A pixel at `p`, in a cell whose centre is `m`, reads the source at
    /// `m + scale·(p − m)`: with `scale` above 1 each cell holds a smaller, fuller view of its neighbourhood (the
    /// effect's "less detail"), below 1 a magnified one. The pattern repeats the cell grid, so the extent is infinite.
    public struct OpTile: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "OpTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Cuts the image into cells that each show their neighbourhood scaled.", .image(\.image),
            .parameter("center", \.center, summary: "A corner of the cells."),
            .parameter(
                "scale", \.scale, slider: 0.1...10, allowed: 0.01...1000,
                summary: "How many times its own size each cell shows."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The rotation of the cells."),
            .parameter(
                "width", \.width, slider: 1...1000, allowed: 0.01...1e6, unit: .pixels, summary: "The side of a cell."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var scale: Double = 2.8
        public var angle: Double = 0
        public var width: Double = 65

        public init() {}

        public var outputImage: Image {
            let w = max(width, 0.01)
            let k = scale
            let o = center
            let c = Double.cos(angle)
            let s = Double.sin(angle)
            let kernel = WarpKernel(name: "opTile") { row in
                let py = Double(row.y) + 0.5 - o.y
                for i in 0..<row.count {
                    let px = Double(row.x + i) + 0.5 - o.x
                    // Cell coordinates, the cell's centre, and the point scaled about it.
                    let u = (c * px + s * py) / w
                    let v = (-s * px + c * py) / w
                    let mu = u.rounded(.down) + 0.5
                    let mv = v.rounded(.down) + 0.5
                    let su = mu + k * (u - mu)
                    let sv = mv + k * (v - mv)
                    row.sourceX[i] = Float(o.x + w * (c * su - s * sv))
                    row.sourceY[i] = Float(o.y + w * (s * su + c * sv))
                }
            }
            // A source lies within half a cell diagonal, times `scale`, of its cell's centre, itself within half a
            // diagonal of the pixel.
            let reach = w * (1 + abs(k)) / 2.0.squareRoot() + 1
            return kernel.apply(
                extent: .infinite, image: image,
                arguments: "center=\(center) scale=\(scale) angle=\(angle) width=\(width)"
            ) { rect in rect.insetBy(dx: -reach, dy: -reach) }
        }
    }
}

extension Image {
    /// The image cut into op-art cells (see ``Filters/OpTile``).
    public func opTile(center: Point, scale: Double = 2.8, angle: Double = 0, width: Double = 65) -> Image {
        applyingFilter(
            Filters.OpTile {
                $0.center = center
                $0.scale = scale
                $0.angle = angle
                $0.width = width
            })
    }
}
