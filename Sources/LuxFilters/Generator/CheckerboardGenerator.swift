public import LuxPixels
public import LuxRender

extension Filters {
    /// An infinite checkerboard of `width`-pixel squares with a corner at `center`; the square right of and below
    /// `center` has `color0`.
    ///
    /// `sharpness` below 1 softens the edges (at 0 the blend spans the whole square).
    public struct CheckerboardGenerator: Filter {
        public static let descriptor = FilterDescriptor(
            name: "CheckerboardGenerator", displayName: "Checkerboard",
            categories: [.generator, .stillImage, .video, .highDynamicRange],
            summary: "An infinite checkerboard pattern.",
            parameters: [
                .point("center", default: [150, 150], summary: "A corner of the squares."),
                .color("color0", default: .white, summary: "The first colour."),
                .color("color1", default: .black, summary: "The second colour."),
                .number(
                    "width", default: 80, slider: 1...800, allowed: 0.01...1e7, unit: .pixels,
                    summary: "The side of a square."),
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
        Filters.CheckerboardGenerator(
            center: center, color0: color0, color1: color1, width: width, sharpness: sharpness
        )
        .outputImage
    }
}
