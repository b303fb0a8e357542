import LuxColor
import LuxScene

/// Correlated colour temperature and tint ↔ chromaticity on the Planckian locus (CIE 1960 uv).
///
/// Temperature is the locus point nearest to the chromaticity; tint is 3000 × Duv (the signed uv distance,
/// positive above the locus, i.e. greener), the scale Adobe and Apple use (ALGORITHMS.md §4.3).
///
/// Kept private to LuxCapture until LuxColor's Robertson conversions land on main.
enum PlanckianLocus {
    /// Locus points every 1 mired from 1 to 1000 mired (1000 K … 1 000 000 K).
    static let table: [SIMD2<Double>] = (0...1000).map { m in
        let t = 1e6 / Double(max(m, 1))
        return Spectrum.planckian(kelvin: t).chromaticity.uv1960
    }

    static func point(mired m: Double) -> SIMD2<Double> {
        let c = min(max(m, 1), 999.999)
        let i = Int(c), f = c - Double(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }

    /// The unit normal to the locus at `m` mired, pointing to larger v (green side).
    static func normal(mired m: Double) -> SIMD2<Double> {
        let a = point(mired: m - 0.5), b = point(mired: m + 0.5)
        let t = b - a
        var n = SIMD2(-t.y, t.x)
        if n.y < 0 { n = -n }
        return n / (n * n).sum().squareRoot()
    }

    /// Temperature (K) and tint of a chromaticity.
    static func temperatureAndTint(_ xy: Chromaticity) -> (temperature: Double, tint: Double) {
        let p = xy.uv1960
        func distance2(_ m: Double) -> Double { let d = point(mired: m) - p; return (d * d).sum() }
        var best = 1, bestD = Double.infinity
        for m in 1...999 {
            let d = distance2(Double(m))
            if d < bestD { bestD = d; best = m }
        }
        // Golden-section refinement on [best − 1, best + 1].
        var lo = Double(max(1, best - 1)), hi = Double(min(999, best + 1))
        for _ in 0..<60 {
            let a = lo + (hi - lo) * 0.381966, b = lo + (hi - lo) * 0.618034
            if distance2(a) < distance2(b) { hi = b } else { lo = a }
        }
        let m = (lo + hi) / 2
        let duv = ((p - point(mired: m)) * normal(mired: m)).sum()
        return (1e6 / m, 3000 * duv)
    }

    /// The chromaticity of a temperature (K) and tint.
    static func chromaticity(temperature: Double, tint: Double) -> Chromaticity {
        let m = 1e6 / temperature
        let uv = point(mired: m) + normal(mired: m) * (tint / 3000)
        return Chromaticity(uv1960: uv)
    }
}
