/// CIE 1976 L*a*b* ↔ XYZ.
public enum Lab {
    static let epsilon = 216.0 / 24389.0
    static let kappa = 24389.0 / 27.0

    /// L*a*b* of an XYZ value relative to `white` (white's Y = 1).
    public static func fromXYZ(_ xyz: SIMD3<Double>, white: Chromaticity = WhitePoint.d50) -> SIMD3<Double> {
        let w = white.xyz()
        let r = xyz / w
        func f(_ t: Double) -> Double { t > epsilon ? cbrt(t) : (kappa * t + 16) / 116 }
        let fx = f(r.x)
        let fy = f(r.y)
        let fz = f(r.z)
        return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// XYZ (white's Y = 1) of an L*a*b* value relative to `white`.
    public static func toXYZ(_ lab: SIMD3<Double>, white: Chromaticity = WhitePoint.d50) -> SIMD3<Double> {
        let w = white.xyz()
        let fy = (lab.x + 16) / 116
        let fx = fy + lab.y / 500
        let fz = fy - lab.z / 200
        func finv(_ t: Double) -> Double {
            let t3 = t * t * t
            return t3 > epsilon ? t3 : (116 * t - 16) / kappa
        }
        let yr = lab.x > kappa * epsilon ? fy * fy * fy : lab.x / kappa
        return SIMD3(finv(fx), yr, finv(fz)) * w
    }
}
