// Branch-free, vectorisable approximations of log2, exp2 and pow for pixel loops.
//
// libm's powf is a call per value (no vectorisation); these are plain arithmetic on Float bit
// patterns, so a loop over a row widens to the full SIMD width. Maximum relative error is
// about 2e-7 for log2 and exp2 over the normal range, well below half-float precision
// and within a few float ULPs. They are `@inlinable` so that the pixel loops of other modules
// (RAW development, the simulated sensor, filters, fusion) inline them instead of calling them
// once per value.

/// log2(x) for x > 0.
///
/// Inputs below 2^-100 are treated as 2^-100.
@inlinable @inline(__always)
package func fastLog2(_ x: Float) -> Float {
    let v = max(x, 7.888609e-31)  // 2^-100: keeps subnormals and zero out of the bit tricks
    let bits = v.bitPattern
    var e = Float(Int32(bitPattern: bits >> 23)) - 127
    var m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)  // mantissa in [1, 2)
    let big = m > 1.4142135
    m = big ? m * 0.5 : m
    e = big ? e + 1 : e
    let t = (m - 1) / (m + 1)  // |t| ≤ 0.1716
    let t2 = t * t
    // log2(m) = 2/ln 2 · atanh(t) = 2/ln 2 · (t + t³/3 + t⁵/5 + t⁷/7 + t⁹/9 + …)
    var p: Float = 0.32059889797
    p = p * t2 + 0.41219858311
    p = p * t2 + 0.57707801636
    p = p * t2 + 0.96179669393
    p = p * t2 + 2.88539008178
    return e + t * p
}

/// 2^y, clamped to the normal float range [2^-126, 2^127].
@inlinable @inline(__always)
package func fastExp2(_ y: Float) -> Float {
    let yc = min(max(y, -126), 127)
    let r = (yc + 12_582_912) - 12_582_912  // round to nearest integer (1.5·2^23 trick)
    let f = yc - r  // in [-0.5, 0.5]
    var p: Float = 1.5252734e-05
    p = p * f + 1.5403530e-04
    p = p * f + 1.3333558e-03
    p = p * f + 9.6181291e-03
    p = p * f + 5.5504109e-02
    p = p * f + 2.4022651e-01
    p = p * f + 6.9314718e-01
    p = p * f + 1
    // 2^r from the integer r + 127 placed in the exponent field, without a trapping Int conversion.
    let biased = (r + 8_388_735).bitPattern & 0x007F_FFFF  // 2^23 + 127 exposes r + 127 in the mantissa
    return p * Float(bitPattern: biased &<< 23)
}

/// x^g for x ≥ 0 (0^g = 0 for g > 0).
@inlinable @inline(__always)
package func fastPow(_ x: Float, _ g: Float) -> Float {
    let r = fastExp2(g * fastLog2(x))
    return x > 0 ? r : 0
}

/// Rounds to the nearest integer-valued Float for |x| < 2^22, without libm or trapping conversions.
@inlinable @inline(__always)
package func roundedToNearest(_ x: Float) -> Float {
    (x + 12_582_912) - 12_582_912
}

/// The integer nearest to `x` for 0 ≤ x < 2^22, read from the bit pattern (no trapping conversion).
@inlinable @inline(__always)
package func nearestIndex(_ x: Float) -> Int {
    Int((x + 12_582_912).bitPattern &- 0x4B40_0000)
}

/// Clamps to 0…1, mapping NaN to 0 (so a NaN can never become an out-of-range table index).
@inlinable @inline(__always)
package func clampUnit(_ v: Float) -> Float {
    let a = v > 0 ? v : 0
    return a < 1 ? a : 1
}
