/// One transfer-function step of a conversion, prepared as `Float` parameters for row loops.
///
/// Row loops switch on the kind once per row and run a concrete, branch-free loop over a plane.
struct CurveStage: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case identity
        /// Encoded → linear: `x ≥ d ? (a·x + b)^g + e : c·x + f`.
        case decodeParametric
        /// Linear → encoded: `y ≥ yd ? ((y − e)^(1/g) − b)/a : (y − f)/c`.
        case encodeParametric
        /// A table over 0…1, linearly interpolated.
        case table
    }

    var kind: Kind
    var g: Float = 1, a: Float = 1, b: Float = 0, c: Float = 0, d: Float = 0, e: Float = 0, f: Float = 0
    var table: [Float] = []
    /// Whether values are clamped to 0…1 (before decoding or after encoding).
    var clamps: Bool
    /// Whether negative values are mirrored through the curve (extended range).
    var mirrors: Bool

    static let identity = CurveStage(kind: .identity, clamps: false, mirrors: false)

    static func decoding(_ tf: TransferFunction, clamps: Bool, mirrors: Bool) -> CurveStage {
        switch tf {
        case .linear:
            return CurveStage(kind: .identity, clamps: clamps, mirrors: mirrors)
        case .parametric(let p):
            if p == .gamma(1) { return CurveStage(kind: .identity, clamps: clamps, mirrors: mirrors) }
            return CurveStage(
                kind: .decodeParametric, g: Float(p.g), a: Float(p.a), b: Float(p.b), c: Float(p.c), d: Float(p.d),
                e: Float(p.e), f: Float(p.f), clamps: clamps, mirrors: mirrors)
        case .sampled(let s):
            return CurveStage(kind: .table, table: s.samples, clamps: true, mirrors: mirrors)
        }
    }

    static func encoding(_ tf: TransferFunction, clamps: Bool, mirrors: Bool) -> CurveStage {
        switch tf {
        case .linear:
            return CurveStage(kind: .identity, clamps: clamps, mirrors: mirrors)
        case .parametric(let p):
            if p == .gamma(1) { return CurveStage(kind: .identity, clamps: clamps, mirrors: mirrors) }
            // Parameters of the inverse: g' = 1/g, a' = 1/a, b' = −b/a, c' = 1/c, d' = breakpoint in linear.
            return CurveStage(
                kind: .encodeParametric, g: Float(1 / p.g), a: Float(1 / p.a), b: Float(p.b / p.a),
                c: p.c != 0 ? Float(1 / p.c) : 0, d: Float(p.breakpointLinear), e: Float(p.e), f: Float(p.f),
                clamps: clamps, mirrors: mirrors)
        case .sampled(let s):
            return CurveStage(kind: .table, table: s.inverseSamples, clamps: true, mirrors: mirrors)
        }
    }

    /// Applies the stage to `n` values in place.
    func apply(_ p: UnsafeMutablePointer<Float>, _ n: Int) {
        switch kind {
        case .identity:
            if clamps { Self.clamp01(p, n) }
        case .decodeParametric:
            if clamps { Self.clamp01(p, n) }
            Self.decodeParametric(p, n, self)
        case .encodeParametric:
            Self.encodeParametric(p, n, self)
            if clamps { Self.clamp01(p, n) }
        case .table:
            Self.applyTable(p, n, table, mirrors)
        }
    }

    /// Applies the stage to one value (the reference for the row loops).
    func apply(_ x: Float) -> Float {
        var v = x
        apply(&v, 1)
        return v
    }

    @inline(never)
    static func clamp01(_ p: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n { p[i] = clampUnit(p[i]) }  // NaN becomes 0
    }

    @inline(never)
    static func decodeParametric(_ p: UnsafeMutablePointer<Float>, _ n: Int, _ s: CurveStage) {
        let (g, a, b, c, d, e, f) = (s.g, s.a, s.b, s.c, s.d, s.e, s.f)
        for i in 0..<n {
            let x = p[i]
            let ax = abs(x)
            let base = max(a * ax + b, 0)
            let powered = fastExp2(g * fastLog2(base))
            let curved = (base > 0 ? powered : 0) + e
            let y = ax >= d ? curved : c * ax + f
            p[i] = Float(bitPattern: (y.bitPattern & 0x7FFF_FFFF) | (x.bitPattern & 0x8000_0000))
        }
    }

    @inline(never)
    static func encodeParametric(_ p: UnsafeMutablePointer<Float>, _ n: Int, _ s: CurveStage) {
        // Here g = 1/g, a = 1/a, b = b/a, c = 1/c and d = the linear breakpoint.
        let (gInv, aInv, bOverA, cInv, d, e, f) = (s.g, s.a, s.b, s.c, s.d, s.e, s.f)
        for i in 0..<n {
            let y = p[i]
            let ay = abs(y)
            let base = max(ay - e, 0)
            let powered = fastExp2(gInv * fastLog2(base))
            let curved = (base > 0 ? powered : 0) * aInv - bOverA
            let x = ay >= d ? curved : (ay - f) * cInv
            p[i] = Float(bitPattern: (x.bitPattern & 0x7FFF_FFFF) | (y.bitPattern & 0x8000_0000))
        }
    }

    @inline(never)
    static func applyTable(_ p: UnsafeMutablePointer<Float>, _ n: Int, _ table: [Float], _ mirrors: Bool) {
        table.withUnsafeBufferPointer { t in
            let last = Float(t.count - 1)
            for i in 0..<n {
                let x = p[i]
                let ax = clampUnit(mirrors ? abs(x) : x) * last
                let j = min(Int(ax), t.count - 2)
                let frac = ax - Float(j)
                let y = t[j] + (t[j + 1] - t[j]) * frac
                p[i] = mirrors && x < 0 ? -y : y
            }
        }
    }
}
