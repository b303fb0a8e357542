public import LuxPixels
public import LuxRender

extension Filters {
    /// Infinite vertical stripes `width` pixels wide, alternating `color0` (starting right of `center.x`) and
    /// `color1`; `sharpness` below 1 softens the edges.
    public struct StripesGenerator: Filter {
        public static let descriptor = FilterDescriptor(
            name: "StripesGenerator", displayName: "Stripes",
            categories: [.generator, .stillImage, .video, .highDynamicRange],
            summary: "Infinite vertical stripes.",
            parameters: [
                .point("center", default: [150, 150], summary: "Where a stripe starts (only x matters)."),
                .color("color0", default: .white, summary: "The first colour."),
                .color("color1", default: .black, summary: "The second colour."),
                .number(
                    "width", default: 80, slider: 1...800, allowed: 0.01...1e7, unit: .pixels, summary: "Stripe width."),
                .number(
                    "sharpness", default: 1, slider: 0...1, allowed: 0...1, unit: .fraction,
                    summary: "1 for hard edges, lower for soft ones."),
            ])

        public var center: Point
        public var color0: Color
        public var color1: Color
        public var width: Double
        public var sharpness: Double

        public init(
            center: Point = Point(x: 150, y: 150), color0: Color = .white, color1: Color = .black, width: Double = 80,
            sharpness: Double = 1
        ) {
            self.center = center
            self.color0 = color0
            self.color1 = color1
            self.width = width
            self.sharpness = sharpness
        }

        public init(arguments a: FilterArguments) {
            self.init(
                center: a.point("center"), color0: a.color("color0"), color1: a.color("color1"),
                width: a.number("width"), sharpness: a.number("sharpness"))
        }

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
        Filters.StripesGenerator(center: center, color0: color0, color1: color1, width: width, sharpness: sharpness)
            .outputImage
    }
}
