/// Counter-based random numbers: every value is a pure function of a seed and the coordinates it is for
/// (pixel, frame, sample), so simulations are bit-identical on any thread count and in any order.
package enum CounterRandom {
    /// A 64-bit mix of `a`, `b` and the seed (SplitMix64 finaliser).
    @inline(__always)
    package static func hash(_ seed: UInt64, _ a: UInt64, _ b: UInt64 = 0) -> UInt64 {
        var z = seed &+ a &* 0x9E37_79B9_7F4A_7C15 &+ b &* 0xC2B2_AE3D_27D4_EB4F
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A 32-bit mix of one 32-bit value (Wellons' lowbias32), cheap enough for pixel loops.
    @inline(__always)
    package static func hash32(_ x: UInt32) -> UInt32 {
        var v = x
        v ^= v >> 16
        v &*= 0x7FEB_352D
        v ^= v >> 15
        v &*= 0x846C_A68B
        v ^= v >> 16
        return v
    }

    /// A uniform value in [0, 1) from the top 24 bits of `bits`.
    @inline(__always)
    package static func unit(_ bits: UInt32) -> Float {
        Float(bits >> 8) * (1 / 16_777_216)
    }

    /// An approximately standard-normal value from 64 random bits: the sum of four 16-bit uniforms, centred and scaled
    /// to unit variance (Irwin–Hall, n = 4).
    ///
    /// Mean and variance are exact; the tails end at ±3.46σ.
    @inline(__always)
    package static func gaussian(_ bits: UInt64) -> Float {
        let a = Float(UInt32(truncatingIfNeeded: bits) & 0xFFFF)
        let b = Float(UInt32(truncatingIfNeeded: bits >> 16) & 0xFFFF)
        let c = Float(UInt32(truncatingIfNeeded: bits >> 32) & 0xFFFF)
        let d = Float(UInt32(truncatingIfNeeded: bits >> 48) & 0xFFFF)
        // Each (k + 0.5)/65536 is uniform on (0, 1) with variance ≈ 1/12; four of them: variance 1/3.
        let sum = (a + b + c + d + 2) * (1 / 65536)
        return (sum - 2) * 1.7320508  // √3
    }
}
