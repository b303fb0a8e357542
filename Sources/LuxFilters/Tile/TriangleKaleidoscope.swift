public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A kaleidoscope of triangles: the equilateral triangle of side `size` centred on `point` and turned by
    /// `rotation` is mirrored across its sides again and again (as ``TriangleTile``), fading with distance.
    ///
    /// A pixel at distance `d` from `point` is the folded image with its premultiplied colour (alpha kept) times
    /// `decay^(d/size)`, so `decay` 1 does not fade. The extent is infinite.
    public struct TriangleKaleidoscope: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "TriangleKaleidoscope", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Mirrors a triangle of the image into a fading kaleidoscope.", .image(\.image),
            .parameter("point", \.point, summary: "The centre of the triangle."),
            .parameter(
                "size", \.size, slider: 1...1000, allowed: 0.01...1e6, unit: .pixels,
                summary: "The length of the triangle's sides."),
            .parameter(
                "rotation", \.rotation, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The rotation of the triangle."),
            .parameter(
                "decay", \.decay, slider: 0...1, allowed: 0...1,
                summary: "The fraction of colour left one side's length from the centre."))

        public var image: Image = .empty
        public var point: Point = Point(x: 150, y: 150)
        public var size: Double = 700
        public var rotation: Double = 5.924
        public var decay: Double = 0.85

        public init() {}

        public var outputImage: Image {
            let side = max(size, 0.01)
            let (c, s) = (Double.cos(rotation), Double.sin(rotation))
            // The corner from which the first side runs: the centroid is (½, √3/6) sides from it.
            let (ax, ay) = (0.5 * side, HexagonalLattice.rowHeight / 3 * side)
            let corner = Point(x: point.x - (c * ax - s * ay), y: point.y - (s * ax + c * ay))
            let folded = TileWarp.apply(
                image, name: "triangleKaleidoscope",
                arguments: "point=\(point) size=\(size) rotation=\(rotation)", center: corner, angle: rotation,
                width: side, base: Rect(x: 0, y: 0, width: 1, height: HexagonalLattice.rowHeight),
                fold: TriangleFold.fold)
            guard decay < 1 else { return folded }
            let rate = Float(Double.log(max(decay, 1e-12)) / side)
            let (px, py) = (Float(point.x), Float(point.y))
            let fade = ColorKernel(name: "triangleKaleidoscopeFade", preservesAlpha: true) { row in
                let p = row.pixels
                let dy = Float(row.y) + 0.5 - py
                for i in 0..<row.count {
                    let dx = Float(row.x + i) + 0.5 - px
                    let f = Float.exp(rate * (dx * dx + dy * dy).squareRoot())
                    p.red[i] *= f
                    p.green[i] *= f
                    p.blue[i] *= f
                }
            }
            return fade.apply(
                extent: .infinite, inputs: [folded], arguments: "point=\(point) size=\(size) decay=\(decay)")
        }
    }
}

extension Image {
    /// A fading kaleidoscope of the triangle centred on `point` (see ``Filters/TriangleKaleidoscope``).
    public func triangleKaleidoscope(point: Point, size: Double = 700, rotation: Double = 5.924, decay: Double = 0.85)
        -> Image
    {
        applyingFilter(
            Filters.TriangleKaleidoscope {
                $0.point = point
                $0.size = size
                $0.rotation = rotation
                $0.decay = decay
            })
    }
}
