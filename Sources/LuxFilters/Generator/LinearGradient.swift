public import LuxPixels
public import LuxRender

/// Linear or smooth ramp (the kinds of ``Filters/LinearGradientFilter``).
public protocol LinearGradientKind: Sendable {
    /// The filter name.
    static var name: String { get }
    /// Whether the ramp is eased with a smooth step.
    static var isSmooth: Bool { get }
}

extension Filters {
    /// A gradient along the line from `point0` (`color0`) to `point1` (`color1`), constant across it and beyond the
    /// ends; colours blend (premultiplied, in the working space) linearly or, for the smooth kind, eased with a smooth
    /// step `3t² − 2t³` so the blend starts and ends gently.
    ///
    /// Infinite extent.
    public struct LinearGradientFilter<Kind: LinearGradientKind>: DeclaredFilter {
        public static var declaration: FilterDeclaration<Self> {
            FilterDeclaration<Self>(
                Kind.name, categories: [.generator, .gradient, .stillImage, .video, .highDynamicRange],
                summary: Kind.isSmooth
                    ? "Blends two colours along a line with an S-shaped ramp." : "Blends two colours along a line.",
                .parameter("point0", \.point0, summary: "Where color0 is."),
                .parameter("point1", \.point1, summary: "Where color1 is."),
                .parameter("color0", \.color0, summary: "The starting colour."),
                .parameter("color1", \.color1, summary: "The ending colour."))
        }

        public var point0: Point = Point(x: 0, y: 0)
        public var point1: Point = Point(x: 200, y: 200)
        public var color0: Color = .white
        public var color1: Color = .black

        public init() {}

        public var outputImage: Image {
            let dx = point1.x - point0.x
            let dy = point1.y - point0.y
            let len2 = dx * dx + dy * dy
            // t = ((x, y) − p0)·d / |d|²; a zero-length line gives color1 everywhere.
            let kx = len2 > 0 ? Float(dx / len2) : 0
            let ky = len2 > 0 ? Float(dy / len2) : 0
            let x0 = Float(point0.x)
            let y0 = Float(point0.y)
            let degenerate = len2 == 0
            let smooth = Kind.isSmooth
            let args = "p0=\(describe(point0)) p1=\(describe(point1))"
            return twoColorGenerator(Kind.name, arguments: args, colors: [color0, color1]) { row, t in
                let base = (Float(row.y) + 0.5 - y0) * ky
                for i in 0..<row.count {
                    let u = degenerate ? 1 : clampFloat((Float(row.x + i) + 0.5 - x0) * kx + base, 0, 1)
                    t[i] = smooth ? u * u * (3 - 2 * u) : u
                }
            }
        }
    }
}

/// The two linear-gradient kinds.
public enum LinearGradientKinds {
    /// A linear ramp.
    public enum Linear: LinearGradientKind {
        public static let name = "LinearGradient"
        public static let isSmooth = false
    }

    /// A smooth-step ramp.
    public enum Smooth: LinearGradientKind {
        public static let name = "SmoothLinearGradient"
        public static let isSmooth = true
    }
}

extension Filters {
    /// A linear gradient (see ``LinearGradientFilter``).
    public typealias LinearGradient = LinearGradientFilter<LinearGradientKinds.Linear>
    /// A smooth-step linear gradient (see ``LinearGradientFilter``).
    public typealias SmoothLinearGradient = LinearGradientFilter<LinearGradientKinds.Smooth>
}

extension Image {
    /// A linear gradient (see ``Filters/LinearGradientFilter``).
    public static func linearGradient(from point0: Point, _ color0: Color, to point1: Point, _ color1: Color) -> Image {
        Filters.LinearGradient {
            $0.point0 = point0
            $0.point1 = point1
            $0.color0 = color0
            $0.color1 = color1
        }.outputImage
    }

    /// A smooth linear gradient (see ``Filters/LinearGradientFilter``).
    public static func smoothLinearGradient(from point0: Point, _ color0: Color, to point1: Point, _ color1: Color)
        -> Image
    {
        Filters.SmoothLinearGradient {
            $0.point0 = point0
            $0.point1 = point1
            $0.color0 = color0
            $0.color1 = color1
        }.outputImage
    }
}
