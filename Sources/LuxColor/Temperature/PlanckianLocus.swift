/// The Planckian (black-body) locus in CIE 1960 UCS, by exact integration of Planck's law against the
/// CIE 1931 2° observer, and the CIE daylight locus.
enum PlanckianLocus {
    /// Planck's second radiation constant c₂ in m·K, as CIE 015:2004 uses it.
    static let c2 = 1.4388e-2
    /// The temperatures the locus is evaluated over (K); inputs are clamped to this range.
    static let temperatureRange = 500.0...1_000_000.0

    /// A point of the locus and its derivative with respect to mired (10⁶/T).
    struct Point {
        var uv: SIMD2<Double>
        var derivative: SIMD2<Double>

        /// The unit normal pointing to the green side (increasing v): positive Duv.
        var normal: SIMD2<Double> {
            let length = (derivative * derivative).sum().squareRoot()
            let tangent = derivative / length
            return SIMD2(-tangent.y, tangent.x)
        }
    }

    /// CIE 1931 XYZ of a black body at `temperature` (arbitrary scale) and its derivative d/dT.
    static func tristimulus(temperature: Double) -> (xyz: SIMD3<Double>, derivative: SIMD3<Double>) {
        let t = min(max(temperature, temperatureRange.lowerBound), temperatureRange.upperBound)
        var xyz = SIMD3<Double>.zero
        var dxyz = SIMD3<Double>.zero
        let cmf = CIE1931StandardObserver.values
        for i in 0..<CIE1931StandardObserver.count {
            let lambda =
                (CIE1931StandardObserver.firstWavelength + Double(i) * CIE1931StandardObserver.wavelengthStep) * 1e-9
            let a = c2 / (lambda * t)
            let e = exp(a)
            let l5 = lambda * lambda * lambda * lambda * lambda
            // The λ⁻⁵ and constant factors scale every channel alike; scale by 1e-30 to stay in range.
            let radiance = 1e-30 / (l5 * (e - 1))
            let dRadiance = radiance * a * e / (t * (e - 1))
            let observer = SIMD3(cmf[3 * i], cmf[3 * i + 1], cmf[3 * i + 2])
            xyz += radiance * observer
            dxyz += dRadiance * observer
        }
        return (xyz, dxyz)
    }

    /// The locus point at `mired` (10⁶/T) in CIE 1960 (u, v), with d(u, v)/d(mired).
    static func point(mired: Double) -> Point {
        let temperature = 1e6 / mired
        let (xyz, d) = tristimulus(temperature: temperature)
        let denominator = xyz.x + 15 * xyz.y + 3 * xyz.z
        let dDenominator = d.x + 15 * d.y + 3 * d.z
        let uv = SIMD2(4 * xyz.x, 6 * xyz.y) / denominator
        let duvdT =
            SIMD2(
                4 * (d.x * denominator - xyz.x * dDenominator), 6 * (d.y * denominator - xyz.y * dDenominator))
            / (denominator * denominator)
        // dT/dmired = −T²/10⁶
        return Point(uv: uv, derivative: duvdT * (-temperature * temperature / 1e6))
    }

    /// The mired of the locus point whose normal passes through `uv` (the CCT of `uv` in mired),
    /// refined by Newton's method from `initial`.
    static func footOfNormal(through uv: SIMD2<Double>, initial: Double) -> Double {
        let miredRange = (1e6 / temperatureRange.upperBound)...(1e6 / temperatureRange.lowerBound)
        var m = min(max(initial, miredRange.lowerBound), miredRange.upperBound)
        let h = 1e-3
        for _ in 0..<50 {
            // g(m) = (p − L(m))·L′(m) vanishes at the foot of the normal.
            let p = point(mired: m)
            let offset = uv - p.uv
            let g = (offset * p.derivative).sum()
            let ahead = point(mired: m + h).derivative
            let behind = point(mired: m - h).derivative
            let second = (ahead - behind) / (2 * h)
            let slope = -(p.derivative * p.derivative).sum() + (offset * second).sum()
            guard slope < 0, slope.isFinite else { break }
            let next = min(max(m - g / slope, miredRange.lowerBound), miredRange.upperBound)
            let step = abs(next - m)
            m = next
            if step < 1e-10 * max(1, m) { break }
        }
        return m
    }
}

extension Chromaticity {
    /// The chromaticity of a black body (Planckian radiator) at `blackBodyTemperature` kelvin.
    ///
    /// Planck's law is integrated against the CIE 1931 2° observer (5 nm, 360–830 nm, c₂ = 1.4388·10⁻² m·K),
    /// which matches 1 nm integration to 3·10⁻⁶ in xy. Temperatures are clamped to 500…10⁶ K.
    ///
    /// ```swift
    /// Chromaticity(blackBodyTemperature: 2856)   // ≈ (0.44754, 0.40743), CIE illuminant A
    /// ```
    public init(blackBodyTemperature: Double) {
        self.init(uv1960: PlanckianLocus.point(mired: 1e6 / blackBodyTemperature).uv)
    }

    /// The chromaticity of CIE daylight (the D series) at `daylightTemperature` kelvin, from the
    /// CIE 015 polynomials (defined for 4000–25000 K; other values extrapolate).
    ///
    /// Daylight lies slightly on the green side of the black-body locus (Duv ≈ +0.003). CIE D65 is
    /// `Chromaticity(daylightTemperature: 6504)`: 6500 K scaled by the change of c₂ (1.4388/1.4380).
    public init(daylightTemperature t: Double) {
        let t2 = t * t
        let t3 = t2 * t
        let x =
            t <= 7000
            ? -4.6070e9 / t3 + 2.9678e6 / t2 + 0.09911e3 / t + 0.244063
            : -2.0064e9 / t3 + 1.9018e6 / t2 + 0.24748e3 / t + 0.237040
        self.init(x: x, y: -3 * x * x + 2.87 * x - 0.275)
    }
}
