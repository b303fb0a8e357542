/// Perceptual colour differences between CIE L*a*b* values.
///
/// ```swift
/// let d = ColorDifference.deltaE2000(SIMD3(50, 2.6772, -79.7751), SIMD3(50, 0, -82.7485))  // 2.0425
/// ```
public enum ColorDifference {
    /// CIE 1976 ΔE*ab: the Euclidean distance in L*a*b*.
    public static func deltaE76(_ lab1: SIMD3<Double>, _ lab2: SIMD3<Double>) -> Double {
        let d = lab1 - lab2
        return (d * d).sum().squareRoot()
    }

    /// CIEDE2000 ΔE₀₀ (CIE 142-2001), implemented as in Sharma, Wu and Dalal (2005), including their
    /// conventions for the hue mean and hue difference at the ±180° discontinuity and for neutral colours.
    ///
    /// A ΔE₀₀ of 1 is about a just-noticeable difference. The formula is symmetric in its arguments.
    ///
    /// - Parameters:
    ///   - lab1: The first colour as (L*, a*, b*).
    ///   - lab2: The second colour.
    ///   - kL: Lightness weight (1 for reference conditions; 2 is used for textiles).
    ///   - kC: Chroma weight.
    ///   - kH: Hue weight.
    public static func deltaE2000(
        _ lab1: SIMD3<Double>, _ lab2: SIMD3<Double>, kL: Double = 1, kC: Double = 1, kH: Double = 1
    ) -> Double {
        let (l1, a1, b1) = (lab1.x, lab1.y, lab1.z)
        let (l2, a2, b2) = (lab2.x, lab2.y, lab2.z)
        let c1 = (a1 * a1 + b1 * b1).squareRoot()
        let c2 = (a2 * a2 + b2 * b2).squareRoot()
        let cMean = (c1 + c2) / 2
        let cMean7 = pow(cMean, 7)
        let g = 0.5 * (1 - (cMean7 / (cMean7 + 6_103_515_625)).squareRoot())  // 25⁷
        let a1p = (1 + g) * a1
        let a2p = (1 + g) * a2
        let c1p = (a1p * a1p + b1 * b1).squareRoot()
        let c2p = (a2p * a2p + b2 * b2).squareRoot()
        let h1p = hueDegrees(b1, a1p)
        let h2p = hueDegrees(b2, a2p)

        let dL = l2 - l1
        let dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2p - h1p
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (c1p * c2p).squareRoot() * sin(radians(dh / 2))

        let lMean = (l1 + l2) / 2
        let cpMean = (c1p + c2p) / 2
        var hMean = h1p + h2p
        if c1p * c2p != 0 {
            if abs(h1p - h2p) <= 180 {
                hMean /= 2
            } else {
                hMean = hMean < 360 ? (hMean + 360) / 2 : (hMean - 360) / 2
            }
        }
        let t =
            1 - 0.17 * cos(radians(hMean - 30)) + 0.24 * cos(radians(2 * hMean))
            + 0.32 * cos(radians(3 * hMean + 6)) - 0.20 * cos(radians(4 * hMean - 63))
        let dTheta = 30 * exp(-((hMean - 275) / 25) * ((hMean - 275) / 25))
        let cpMean7 = pow(cpMean, 7)
        let rC = 2 * (cpMean7 / (cpMean7 + 6_103_515_625)).squareRoot()
        let l50 = (lMean - 50) * (lMean - 50)
        let sL = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sC = 1 + 0.045 * cpMean
        let sH = 1 + 0.015 * cpMean * t
        let rT = -sin(radians(2 * dTheta)) * rC

        let tl = dL / (kL * sL)
        let tc = dC / (kC * sC)
        let th = dH / (kH * sH)
        return (tl * tl + tc * tc + th * th + rT * tc * th).squareRoot()
    }

    /// The hue angle in degrees in 0..<360 (0 for a = b = 0).
    private static func hueDegrees(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let h = atan2(b, a) * 180 / Double.pi
        return h < 0 ? h + 360 : h
    }

    private static func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }
}
