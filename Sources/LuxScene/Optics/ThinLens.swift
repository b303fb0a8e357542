/// A thin lens with a fixed aperture and a focus actuator, as on a phone camera.
///
/// Distances are in metres; the image-side quantities (focal length, circle of confusion, blur) in millimetres.
/// `lensPosition` runs from 0 (the closest focus) to 1 (the farthest, which need not be infinity), and maps
/// linearly to dioptres — physically apt, because the lens extension `v − f ≈ f²/s` is linear in `1/s`.
///
/// ```swift
/// let lens = ThinLens.phoneWide
/// lens.focusDistance(lensPosition: 1)              // 5 m
/// lens.blurDiameter(objectDistance: 0.5, focusDistance: 1)   // ≈ 0.0101 mm
/// lens.depthOfField(focusDistance: 1)              // near…far limits in metres
/// ```
public struct ThinLens: Hashable, Sendable, Codable {
    /// Focal length in millimetres.
    public var focalLength: Double
    /// The f-number N (focal length ÷ aperture diameter).
    ///
    /// Fixed, as on phones.
    public var fNumber: Double
    /// The focus distance at lens position 0, in metres.
    public var closestFocusDistance: Double
    /// The focus distance at lens position 1, in metres.
    public var farthestFocusDistance: Double
    /// The circle of confusion in millimetres: the largest blur diameter still judged sharp.
    public var circleOfConfusion: Double

    /// Creates a lens.
    public init(
        focalLength: Double, fNumber: Double, closestFocusDistance: Double, farthestFocusDistance: Double,
        circleOfConfusion: Double
    ) {
        self.focalLength = focalLength
        self.fNumber = fNumber
        self.closestFocusDistance = closestFocusDistance
        self.farthestFocusDistance = farthestFocusDistance
        self.circleOfConfusion = circleOfConfusion
    }

    /// A phone's wide camera: 4.25 mm f/1.8 (26 mm equivalent on a 5.64 × 4.23 mm sensor), focusing from
    /// 10 cm to 5 m, with a circle of confusion of two 1.4 µm pixels.
    public static let phoneWide = ThinLens(
        focalLength: 4.25, fNumber: 1.8, closestFocusDistance: 0.10, farthestFocusDistance: 5,
        circleOfConfusion: 0.0028)

    /// The aperture (entrance pupil) diameter in millimetres.
    public var apertureDiameter: Double { focalLength / fNumber }

    /// The distance in metres at which the lens focuses for `lensPosition` (not clamped).
    public func focusDistance(lensPosition p: Double) -> Double {
        let dNear = 1 / closestFocusDistance
        let dFar = 1 / farthestFocusDistance
        let d = dNear * (1 - p) + dFar * p
        return d > 0 ? 1 / d : .infinity
    }

    /// The lens position that focuses at `distance` metres (not clamped to 0…1).
    public func lensPosition(focusDistance distance: Double) -> Double {
        let dNear = 1 / closestFocusDistance
        let dFar = 1 / farthestFocusDistance
        return (dNear - 1 / distance) / (dNear - dFar)
    }

    /// The diameter in millimetres on the sensor of the blur circle of a point at `objectDistance` metres when
    /// the lens focuses at `focusDistance` metres: `c = A·|s − s_f|/s · f/(s_f − f)`.
    public func blurDiameter(objectDistance s: Double, focusDistance sf: Double) -> Double {
        let f = focalLength
        let sMM = s.isFinite ? s * 1000 : Double.greatestFiniteMagnitude
        let sfMM = sf * 1000
        guard sfMM > f else { return .infinity }
        let ratio = s.isFinite ? abs(sMM - sfMM) / sMM : 1
        return apertureDiameter * ratio * f / (sfMM - f)
    }

    /// The hyperfocal distance in metres, `H = f²/(N·c) + f`: focused there, everything from `H/2` to
    /// infinity is acceptably sharp.
    public var hyperfocalDistance: Double {
        (focalLength * focalLength / (fNumber * circleOfConfusion) + focalLength) / 1000
    }

    /// The near and far limits (metres) of acceptable sharpness when focused at `focusDistance`;
    /// the far limit is infinite at and beyond the hyperfocal distance.
    public func depthOfField(focusDistance s: Double) -> ClosedRange<Double> {
        let f = focalLength / 1000
        let h = hyperfocalDistance
        let near = s * (h - f) / (h + s - 2 * f)
        let far = s < h ? s * (h - f) / (h - s) : .infinity
        return near...far
    }
}
