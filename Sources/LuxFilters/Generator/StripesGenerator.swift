public import LuxPixels
public import LuxRender

extension Filters {
    /// Infinite vertical stripes `width` pixels wide, alternating `color0` (starting right of `center.x`) and
    /// `color1`; `sharpness` below 1 softens the edges.
    public struct StripesGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "StripesGenerator", displayName: "Stripes",
            categories: [.generator, .stillImage, .video, .highDynamicRange], summary: "Infinite vertical stripes.",
            .parameter("center", \.center, summary: "Where a stripe starts (only x matters)."),
            .parameter("color0", \.color0, summary: "The first colour."),
            .parameter("color1", \.color1, summary: "The second colour."),
            .parameter("width", \.width, slider: 1...800, allowed: 0.01...1e7, unit: .pixels, summary: "Stripe width."),
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
            let iw = Float(1 / width)
            let soft = (1 - sharpness) / 2
            let isoft = soft > 0 ? Float(1 / soft) : 0
            let args = "x=\(center.x) width=\(width) sharpness=\(sharpness)"
            return twoColorGenerator("stripes", arguments: args, colors: [color0, color1]) { row, t in
                for i in 0..<row.count {
                    let w = squareWave(Float(row.x + i) + 0.5, origin: cx, inverseWidth: iw, inverseSoftness: isoft)
                    t[i] = (1 - w) * 0.5
                }
            }
        }
    }
}

extension Image {
    /// Infinite vertical stripes (see ``Filters/StripesGenerator``).
    public static func stripes(
        center: Point = Point(x: 0, y: 0), color0: Color = .white, color1: Color = .black, width: Double = 80,
        sharpness: Double = 1
    ) -> Image {
        Filters.StripesGenerator {
            $0.center = center
            $0.color0 = color0
            $0.color1 = color1
            $0.width = width
            $0.sharpness = sharpness
        }.outputImage
    }
}
