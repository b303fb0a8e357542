public import LuxPixels
public import LuxRender

extension Filters {
    /// Maps red, green and blue through a smooth curve through five points, on sRGB-encoded values.
    ///
    /// The curve is the monotone cubic Hermite interpolant of the points (Fritsch–Carlson tangents): it passes
    /// through every point, has a continuous slope, and never overshoots between points, so increasing points
    /// give an increasing curve. Beyond the first and last point it continues along the end tangents.
    public struct ToneCurve: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ToneCurve", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps colour through a curve through five points.",
            .image(\.image),
            .parameter(
                "point0", \.points[0], unit: FilterParameter.Unit.none, geometry: FilterParameter.Geometry.none,
                summary: "The first point (input, output)."),
            .parameter(
                "point1", \.points[1], unit: FilterParameter.Unit.none, geometry: FilterParameter.Geometry.none,
                summary: "The second point."),
            .parameter(
                "point2", \.points[2], unit: FilterParameter.Unit.none, geometry: FilterParameter.Geometry.none,
                summary: "The third point."
            ),
            .parameter(
                "point3", \.points[3], unit: FilterParameter.Unit.none, geometry: FilterParameter.Geometry.none,
                summary: "The fourth point."),
            .parameter(
                "point4", \.points[4], unit: FilterParameter.Unit.none, geometry: FilterParameter.Geometry.none,
                summary: "The fifth point."
            ))

        public var image: Image = .empty
        /// The five points (input, output), any order.
        public var points = Self.identityPoints

        public init() {}

        /// The default points, on the diagonal.
        public static let identityPoints = [0, 0.25, 0.5, 0.75, 1].map { Point(x: $0, y: $0) }

        /// The result.
        ///
        /// - Precondition: ``points`` holds five points.
        public var outputImage: Image {
            precondition(points.count == 5, "ToneCurve takes five points")
            if points == Self.identityPoints { return image }
            let curve = MonotoneCubic(points.map { SIMD2($0.x, $0.y) })
            let k = curve.pieces
            let kernel = ColorKernel(name: "toneCurve", alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
                let p = row.pixels
                curve.apply(p.red, row.count, k)
                curve.apply(p.green, row.count, k)
                curve.apply(p.blue, row.count, k)
            }
            let args = "points=" + points.map { "\($0.x),\($0.y)" }.joined(separator: ";")
            return image.inPerceptualSpace { $0.applying(kernel, arguments: args) }
        }
    }
}

/// A monotone piecewise-cubic curve through up to five points, extended linearly at both ends, evaluated
/// branch-free (segment chosen by selects) so row loops vectorise.
struct MonotoneCubic: Sendable {
    /// Per piece: origin x, then the cubic's coefficients in `t = x − origin`; six pieces (left extension,
    /// four segments, right extension), unused segments repeat the last one.
    struct Pieces: Sendable {
        var breaks: SIMD8<Float> = .zero
        var origin = [Float](repeating: 0, count: 6)
        var c0 = [Float](repeating: 0, count: 6)
        var c1 = [Float](repeating: 0, count: 6)
        var c2 = [Float](repeating: 0, count: 6)
        var c3 = [Float](repeating: 0, count: 6)
    }

    let pieces: Pieces

    /// The curve through `points` (sorted by x; points with equal x keep the last).
    init(_ points: [SIMD2<Double>]) {
        var pts: [SIMD2<Double>] = []
        for p in points.sorted(by: { $0.x < $1.x }) {
            if let last = pts.last, p.x - last.x < 1e-9 { pts[pts.count - 1] = p } else { pts.append(p) }
        }
        var k = Pieces()
        if pts.count == 1 {
            pts.append(pts[0] + SIMD2(1, 0))
        }
        let n = pts.count
        // Secant slopes, then Fritsch–Carlson tangents.
        let d = (0..<(n - 1)).map { (pts[$0 + 1].y - pts[$0].y) / (pts[$0 + 1].x - pts[$0].x) }
        var m = [Double](repeating: 0, count: n)
        m[0] = d[0]
        m[n - 1] = d[n - 2]
        for i in 1..<(n - 1) { m[i] = d[i - 1] * d[i] <= 0 ? 0 : (d[i - 1] + d[i]) / 2 }
        for i in 0..<(n - 1) {
            if d[i] == 0 {
                m[i] = 0
                m[i + 1] = 0
                continue
            }
            let a = m[i] / d[i]
            let b = m[i + 1] / d[i]
            let s = a * a + b * b
            if s > 9 {
                let t = 3 / s.squareRoot()
                m[i] = t * a * d[i]
                m[i + 1] = t * b * d[i]
            }
        }
        // Piece 0: left extension; pieces 1…n−1: segments; piece n (and any unused): right extension.
        func set(_ j: Int, origin: Double, _ a: Double, _ b: Double, _ c: Double, _ e: Double) {
            k.origin[j] = Float(origin)
            k.c0[j] = Float(a)
            k.c1[j] = Float(b)
            k.c2[j] = Float(c)
            k.c3[j] = Float(e)
        }
        set(0, origin: pts[0].x, pts[0].y, m[0], 0, 0)
        for i in 0..<(n - 1) {
            let h = pts[i + 1].x - pts[i].x
            let c = (3 * d[i] - 2 * m[i] - m[i + 1]) / h
            let e = (m[i] + m[i + 1] - 2 * d[i]) / (h * h)
            set(i + 1, origin: pts[i].x, pts[i].y, m[i], c, e)
        }
        for j in n..<6 { set(j, origin: pts[n - 1].x, pts[n - 1].y, m[n - 1], 0, 0) }
        // Breakpoints: x₀ … x₍ₙ₋₁₎, unused ones at +∞ so later pieces are never chosen.
        var breaks = SIMD8<Float>(repeating: .infinity)
        for i in 0..<n { breaks[i] = Float(pts[i].x) }
        k.breaks = breaks
        pieces = k
    }

    /// Maps `n` values in place.
    @inline(__always)
    func apply(_ v: UnsafeMutablePointer<Float>, _ n: Int, _ k: Pieces) {
        let (x0, x1, x2, x3, x4) = (k.breaks[0], k.breaks[1], k.breaks[2], k.breaks[3], k.breaks[4])
        let o = (k.origin[0], k.origin[1], k.origin[2], k.origin[3], k.origin[4], k.origin[5])
        let a = (k.c0[0], k.c0[1], k.c0[2], k.c0[3], k.c0[4], k.c0[5])
        let b = (k.c1[0], k.c1[1], k.c1[2], k.c1[3], k.c1[4], k.c1[5])
        let c = (k.c2[0], k.c2[1], k.c2[2], k.c2[3], k.c2[4], k.c2[5])
        let e = (k.c3[0], k.c3[1], k.c3[2], k.c3[3], k.c3[4], k.c3[5])
        for i in 0..<n {
            let x = v[i]
            // Piece index by counting breakpoints at or below x (right-continuous), as selects.
            let s1 = x >= x0
            let s2 = x >= x1
            let s3 = x >= x2
            let s4 = x >= x3
            let s5 = x >= x4
            var po = o.0
            var pa = a.0
            var pb = b.0
            var pc = c.0
            var pe = e.0
            po = s1 ? o.1 : po
            pa = s1 ? a.1 : pa
            pb = s1 ? b.1 : pb
            pc = s1 ? c.1 : pc
            pe = s1 ? e.1 : pe
            po = s2 ? o.2 : po
            pa = s2 ? a.2 : pa
            pb = s2 ? b.2 : pb
            pc = s2 ? c.2 : pc
            pe = s2 ? e.2 : pe
            po = s3 ? o.3 : po
            pa = s3 ? a.3 : pa
            pb = s3 ? b.3 : pb
            pc = s3 ? c.3 : pc
            pe = s3 ? e.3 : pe
            po = s4 ? o.4 : po
            pa = s4 ? a.4 : pa
            pb = s4 ? b.4 : pb
            pc = s4 ? c.4 : pc
            pe = s4 ? e.4 : pe
            po = s5 ? o.5 : po
            pa = s5 ? a.5 : pa
            pb = s5 ? b.5 : pb
            pc = s5 ? c.5 : pc
            pe = s5 ? e.5 : pe
            let t = x - po
            v[i] = pa + t * (pb + t * (pc + t * pe))
        }
    }
}

extension Image {
    /// The image mapped through a tone curve through five points (see ``Filters/ToneCurve``).
    public func toneCurve(points: [Point]) -> Image { applyingFilter(Filters.ToneCurve { $0.points = points }) }
}
