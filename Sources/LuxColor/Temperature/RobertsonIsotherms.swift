/// Robertson's (1968) method for correlated colour temperature: 31 isotemperature lines from 0 to 600
/// mired (Wyszecki & Stiles, *Color Science*, 2nd ed., Table 1(3.11), with the corrected u at 325 mired),
/// the table Adobe's DNG SDK uses.
enum RobertsonIsotherms {
    /// (mired, u, v, slope of the isotemperature line dv/du) in CIE 1960 UCS.
    static let lines: [(mired: Double, u: Double, v: Double, slope: Double)] = [
        (0, 0.18006, 0.26352, -0.24341), (10, 0.18066, 0.26589, -0.25479), (20, 0.18133, 0.26846, -0.26876),
        (30, 0.18208, 0.27119, -0.28539), (40, 0.18293, 0.27407, -0.30470), (50, 0.18388, 0.27709, -0.32675),
        (60, 0.18494, 0.28021, -0.35156), (70, 0.18611, 0.28342, -0.37915), (80, 0.18740, 0.28668, -0.40955),
        (90, 0.18880, 0.28997, -0.44278), (100, 0.19032, 0.29326, -0.47888), (125, 0.19462, 0.30141, -0.58204),
        (150, 0.19962, 0.30921, -0.70471), (175, 0.20525, 0.31647, -0.84901), (200, 0.21142, 0.32312, -1.0182),
        (225, 0.21807, 0.32909, -1.2168), (250, 0.22511, 0.33439, -1.4512), (275, 0.23247, 0.33904, -1.7298),
        (300, 0.24010, 0.34308, -2.0637), (325, 0.24792, 0.34655, -2.4681), (350, 0.25591, 0.34951, -2.9641),
        (375, 0.26400, 0.35200, -3.5814), (400, 0.27218, 0.35407, -4.3633), (425, 0.28039, 0.35577, -5.3762),
        (450, 0.28863, 0.35714, -6.7262), (475, 0.29685, 0.35823, -8.5955), (500, 0.30505, 0.35907, -11.324),
        (525, 0.31320, 0.35968, -15.628), (550, 0.32129, 0.36011, -23.325), (575, 0.32931, 0.36038, -40.770),
        (600, 0.33724, 0.36051, -116.45),
    ]

    /// The correlated colour temperature of `uv` in mired, and the signed distance along the
    /// interpolated isotemperature line (positive = green side).
    ///
    /// Walks the lines from 0 mired until the point's signed distance to a line changes sign, then
    /// interpolates between the two bracketing lines by the ratio of the distances. Points beyond the
    /// last line (below 1667 K) get 600 mired.
    static func estimate(_ uv: SIMD2<Double>) -> (mired: Double, offset: Double) {
        var lastDistance = 0.0
        var lastDirection = SIMD2<Double>.zero
        for i in 1..<lines.count {
            var direction = SIMD2(1, lines[i].slope)
            direction /= (direction * direction).sum().squareRoot()
            let delta = uv - SIMD2(lines[i].u, lines[i].v)
            // Signed distance from the isotemperature line (positive on the low-mired side).
            var distance = -delta.x * direction.y + delta.y * direction.x
            if distance <= 0 || i == lines.count - 1 {
                distance = -min(distance, 0)
                let f = i == 1 ? 0 : distance / (lastDistance + distance)
                let mired = lines[i - 1].mired * f + lines[i].mired * (1 - f)
                let onLocus = SIMD2(
                    lines[i - 1].u * f + lines[i].u * (1 - f), lines[i - 1].v * f + lines[i].v * (1 - f))
                var along = direction * (1 - f) + lastDirection * f
                along /= (along * along).sum().squareRoot()
                // The line direction (1, slope) points to the magenta side; green is the opposite.
                return (mired, -((uv - onLocus) * along).sum())
            }
            lastDistance = distance
            lastDirection = direction
        }
        return (lines[lines.count - 1].mired, 0)
    }
}
