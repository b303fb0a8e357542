import RealModule

/// The outline of a shape on a scene layer, in scene units (the frame is 1 wide and 0.75 high, origin at
/// the top-left, y down).
public enum Geometry: Hashable, Sendable, Codable {
    /// The whole layer (an infinite plane).
    case everywhere
    /// An axis-aligned rectangle with its top-left corner at `origin`.
    case rectangle(origin: SIMD2<Double>, size: SIMD2<Double>)
    /// An ellipse (a disc when the radii are equal).
    case ellipse(center: SIMD2<Double>, radii: SIMD2<Double>)
    /// A convex polygon, vertices in order (either winding).
    case polygon([SIMD2<Double>])
    /// A Siemens star: `spokes` dark wedges alternating with gaps, filling a disc of `radius`.
    case siemensStar(center: SIMD2<Double>, radius: Double, spokes: Int)

    /// A square of side `side` centred at `center`, rotated by `degrees` (a slanted-edge target).
    public static func rotatedSquare(center: SIMD2<Double>, side: Double, degrees: Double) -> Geometry {
        let a = degrees * Double.pi / 180
        let c = cosApprox(a)
        let s = sinApprox(a)
        let h = side / 2
        let corners: [SIMD2<Double>] = [SIMD2(-h, -h), SIMD2(h, -h), SIMD2(h, h), SIMD2(-h, h)]
        return .polygon(corners.map { SIMD2(center.x + c * $0.x - s * $0.y, center.y + s * $0.x + c * $0.y) })
    }

    /// The bounding box (min, max) in scene units, `nil` for ``everywhere``.
    var bounds: (min: SIMD2<Double>, max: SIMD2<Double>)? {
        switch self {
        case .everywhere: return nil
        case .rectangle(let origin, let size): return (origin, origin + size)
        case .ellipse(let center, let radii): return (center - radii, center + radii)
        case .polygon(let points):
            guard var lo = points.first else { return nil }
            var hi = lo
            for p in points {
                lo = pointwiseMin(lo, p)
                hi = pointwiseMax(hi, p)
            }
            return (lo, hi)
        case .siemensStar(let center, let radius, _):
            return (center - SIMD2(repeating: radius), center + SIMD2(repeating: radius))
        }
    }
}

// Trigonometry without Foundation for a few setup-time calls.
func sinApprox(_ x: Double) -> Double { Double.sin(x) }
func cosApprox(_ x: Double) -> Double { Double.cos(x) }
