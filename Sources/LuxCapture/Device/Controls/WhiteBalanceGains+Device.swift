import LuxColor

extension WhiteBalanceGains {
    /// The gains as a vector (red, green, blue).
    var vector: SIMD3<Double> { SIMD3(red, green, blue) }

    /// Gains clamped component-wise to `maximum` (the auto loops never hand out gains a device would reject).
    init(clamping v: SIMD3<Double>, maximum: Double) {
        let c = pointwiseMin(pointwiseMax(v, SIMD3(repeating: 1)), SIMD3(repeating: maximum))
        self.init(red: c.x, green: c.y, blue: c.z)
    }
}
