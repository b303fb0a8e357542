import RealModule

/// A glass lens of circular cross-section lying on the image, seen from straight above: the shared optics of
/// `TorusLensDistortion` and `GlassLozenge`.
///
/// Over a point at distance `d` from the lens's ridge (the torus's middle circle, the lozenge's segment) the glass
/// surface is the circle of radius `a` about the ridge: height `z = √(a² − d²)`, its normal tilted by `θᵢ = asin(d/a)`
/// from the vertical. A vertical ray refracts there by Snell's law into `θₜ = asin(sin θᵢ / n)` and travels down
/// `z` to the image, so it lands `z·tan(θᵢ − θₜ)` nearer the ridge (farther when `n < 1`). Outside the lens
/// (`d ≥ a`) nothing moves.
enum GlassRefraction {
    /// How far towards the ridge the image seen at distance `d` from it lies (`a`: the cross-section's radius, `n`:
    /// the refractive index), at most `a` either way: with `n < 1`, rays past the critical angle would leave the
    /// glass sideways (the tangent grows without bound), and they are taken from the cross-section's edge instead.
    @inline(__always)
    static func shift(_ d: Float, radius a: Float, index n: Float) -> Float {
        guard d < a, a > 0 else { return 0 }
        let sinI = d / a
        let sinT = min(sinI / max(n, 1e-3), 1)
        let z = (a * a - d * d).squareRoot()
        return max(-a, min(a, z * Float.tan(Float.asin(sinI) - Float.asin(sinT))))
    }

    /// The largest distance any point of a lens moves the image it shows (`shift` sampled densely across the
    /// cross-section, with a margin): a tile reads no farther than this around itself.
    static func largestShift(radius a: Float, index n: Float) -> Double {
        guard a > 0 else { return 0 }
        var largest: Float = 0
        for k in 0..<4096 { largest = max(largest, abs(shift(a * Float(k) / 4096, radius: a, index: n))) }
        return Double(largest) * 1.05 + 2
    }
}
