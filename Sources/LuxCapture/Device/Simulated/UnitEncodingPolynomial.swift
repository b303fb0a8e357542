import CLuxKernels
import LuxColor
import RealModule

/// A transfer function's encoding (linear → encoded) over linear values in 0…1, for the processor's fused row loop: the
/// curve's own line below its breakpoint, and above it a degree-6 polynomial in x^¼ fitted by Chebyshev interpolation.
///
/// In x^¼ the sRGB curve is smooth enough for the fit to stay within 3·10⁻⁶ of the exact curve (a thousandth of an
/// 8-bit code), and two square roots and seven multiply-adds vectorise where a logarithm and an exponential cost
/// several times more. CLuxKernels' `lux_capture_encode` evaluates it (the kernel tests hold the scalar reference).
struct UnitEncodingPolynomial: Sendable {
    /// Linear values below this use the line; at and above it, the polynomial.
    let knee: Float
    let slope: Float
    let intercept: Float
    /// u = x^¼ · uScale + uOffset maps the fitted range of x^¼ onto −1…1.
    let uScale: Float
    let uOffset: Float
    /// Monomial coefficients in u, constant term first.
    let c0, c1, c2, c3, c4, c5, c6: Float

    static let degree = 6

    /// Fits `transferFunction`'s encoding over 0…1.
    init(_ transferFunction: TransferFunction) {
        var knee = 0.0
        var slope = 1.0
        var intercept = 0.0
        if case .parametric(let p) = transferFunction, p.c != 0, p.breakpointLinear > 0 {
            knee = min(p.breakpointLinear, 1)
            slope = 1 / p.c
            intercept = -p.f / p.c
        }
        // Chebyshev interpolation of f(t) = encode(t⁴) over t ∈ [knee^¼, 1].
        let lo = knee.squareRoot().squareRoot()
        let hi = 1.0
        let mid = (lo + hi) / 2
        let half = (hi - lo) / 2
        let n = Self.degree + 1
        let nodes = (0..<n).map { k in Double.cos(Double.pi * (Double(k) + 0.5) / Double(n)) }
        let values = nodes.map { u in
            let t = mid + half * u
            return transferFunction.encoded(fromLinear: t * t * t * t)
        }
        var chebyshev = (0..<n).map { j in
            2 / Double(n) * zip(nodes, values).reduce(0) { $0 + $1.1 * Double.cos(Double(j) * Double.acos($1.0)) }
        }
        chebyshev[0] /= 2
        // Σ cⱼ Tⱼ(u) as monomials in u (T₀ = 1, T₁ = u, Tⱼ₊₁ = 2u·Tⱼ − Tⱼ₋₁).
        var monomials = [Double](repeating: 0, count: n)
        var previous = [Double](repeating: 0, count: n)
        var current = previous
        previous[0] = 1
        current[1] = 1
        monomials[0] = chebyshev[0]
        for i in 0..<n { monomials[i] += chebyshev[1] * current[i] }
        for j in 2..<n {
            var next = [Double](repeating: 0, count: n)
            for i in 0..<n {
                next[i] = (i > 0 ? 2 * current[i - 1] : 0) - previous[i]
                monomials[i] += chebyshev[j] * next[i]
            }
            previous = current
            current = next
        }
        let c = monomials.map(Float.init)
        (c0, c1, c2, c3, c4, c5, c6) = (c[0], c[1], c[2], c[3], c[4], c[5], c[6])
        self.knee = Float(knee)
        self.slope = Float(slope)
        self.intercept = Float(intercept)
        uScale = Float(1 / half)
        uOffset = Float(-mid / half)
    }

    /// The fit as CLuxKernels' `lux_capture_encode` takes it.
    var kernelParameters: lux_unit_encoding {
        lux_unit_encoding(
            knee: knee, slope: slope, intercept: intercept, u_scale: uScale, u_offset: uOffset,
            c: (c0, c1, c2, c3, c4, c5, c6))
    }
}
