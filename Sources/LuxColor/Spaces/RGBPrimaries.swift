/// The chromaticities of an RGB colour space's red, green and blue primaries.
public struct RGBPrimaries: Hashable, Sendable, Codable {
    public var red: Chromaticity
    public var green: Chromaticity
    public var blue: Chromaticity

    /// Creates primaries from three chromaticities.
    public init(red: Chromaticity, green: Chromaticity, blue: Chromaticity) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// ITU-R BT.709 / sRGB.
    public static let rec709 = RGBPrimaries(
        red: .init(x: 0.64, y: 0.33), green: .init(x: 0.30, y: 0.60), blue: .init(x: 0.15, y: 0.06))
    /// DCI-P3 primaries as used by Display P3.
    public static let p3 = RGBPrimaries(
        red: .init(x: 0.680, y: 0.320), green: .init(x: 0.265, y: 0.690), blue: .init(x: 0.150, y: 0.060))
    /// Adobe RGB (1998).
    public static let adobeRGB = RGBPrimaries(
        red: .init(x: 0.64, y: 0.33), green: .init(x: 0.21, y: 0.71), blue: .init(x: 0.15, y: 0.06))
    /// ITU-R BT.2020.
    public static let rec2020 = RGBPrimaries(
        red: .init(x: 0.708, y: 0.292), green: .init(x: 0.170, y: 0.797), blue: .init(x: 0.131, y: 0.046))
    /// ROMM RGB (ProPhoto).
    public static let romm = RGBPrimaries(
        red: .init(x: 0.7347, y: 0.2653), green: .init(x: 0.1596, y: 0.8404), blue: .init(x: 0.0366, y: 0.0001))
    /// ACES AP1 (ACEScg).
    public static let acesAP1 = RGBPrimaries(
        red: .init(x: 0.713, y: 0.293), green: .init(x: 0.165, y: 0.830), blue: .init(x: 0.128, y: 0.044))

    /// The matrix from linear RGB to XYZ relative to `white` (Y of white = 1), derived from the
    /// primaries: columns are the primaries' XYZ scaled so that RGB (1, 1, 1) maps to the white point.
    ///
    /// - Returns: `nil` when the primaries are collinear.
    public func matrixToXYZ(white: Chromaticity) -> Matrix3x3? {
        let p = Matrix3x3(columns: red.xyz(), green.xyz(), blue.xyz())
        guard let inverse = p.inverse else { return nil }
        let s = inverse * white.xyz()
        return p * Matrix3x3.diagonal(s)
    }
}
