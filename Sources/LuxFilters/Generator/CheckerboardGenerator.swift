public import LuxPixels
public import LuxRender

extension Filters {
    /// An infinite checkerboard of `width`-pixel squares with a corner at `center`; the square right of and below
    /// `center` has `color0`.
    ///
    /// `sharpness` below 1 softens the edges (at 0 the blend spans the whole square).
    public struct CheckerboardGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "CheckerboardGenerator", displayName: "Checkerboard",
            categories: [.generator, .stillImage, .video, .highDynamicRange],
            summary: "An infinite checkerboard pattern.",
            .parameter("center", \.center, summary: "A corner of the squares."),
            .parameter("color0", \.color0, summary: "The first colour."),
            .parameter("color1", \.color1, summary: "The second colour."),
            .parameter(
                "width", \.width, slider: 1...800, allowed: 0.01...1e7, unit: .pixels, summary: "The side of a square."),
            .parameter(
                "sharpness", \.sharpness, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "1 for hard edges, lower for soft ones."))

        public var center: Point = Point(x: 150, y: 150)
        public var color0: Color = .white
        public var color1: Color = .black
        public var width: Double = 80
        public var sharpness: Double = 1

        public init() {}

        public var outputImage: Image {
            let cx = Float(center.x)
            let cy = Float(center.y)
            let iw = Float(1 / width)
            let soft = (1 - sharpness) / 2
            let isoft = soft > 0 ? Float(1 / soft) : 0
            let args = "center=\(describe(center)) width=\(width) sharpness=\(sharpness)"
            return twoColorGenerator("checkerboard", arguments: args, colors: [color0, color1]) { row, t in
                let wy = squareWave(Float(row.y) + 0.5, origin: cy, inverseWidth: iw, inverseSoftness: isoft)
                for i in 0..<row.count {
                    let wx = squareWave(Float(row.x + i) + 0.5, origin: cx, inverseWidth: iw, inverseSoftness: isoft)
                    t[i] = (1 - wx * wy) * 0.5
                }
            }
        }
    }
}

extension Image {
    /// An infinite checkerboard (see ``Filters/CheckerboardGenerator``).
    public static func checkerboard(
        center: Point = Point(x: 0, y: 0), color0: Color = .white, color1: Color = .black, width: Double = 80,
        sharpness: Double = 1
    ) -> Image {
        Filters.CheckerboardGenerator {
            $0.center = center
            $0.color0 = color0
            $0.color1 = color1
            $0.width = width
            $0.sharpness = sharpness
        }.outputImage
    }
}
