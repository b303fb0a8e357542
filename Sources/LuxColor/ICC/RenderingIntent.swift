/// How colours outside the destination's gamut are brought into it when converting between ICC profiles.
///
/// Only profiles with perceptual or saturation tables (LUT-based profiles, most CMYK ones) treat the intents
/// differently; matrix/TRC profiles map perceptual and saturation to relative colorimetric.
public enum RenderingIntent: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Compresses the whole gamut so relations between colours are kept (ICC intent 0).
    case perceptual
    /// Keeps in-gamut colours exactly, relative to each medium's white, and clips the rest (ICC intent 1, the
    /// default, as vips uses).
    case relativeColorimetric = "relative"
    /// Favours vivid colours over accuracy, for business graphics (ICC intent 2).
    case saturation
    /// Keeps in-gamut colours exactly without adapting white, for proofing (ICC intent 3).
    case absoluteColorimetric = "absolute"

    /// The ICC intent number (0–3).
    public var iccValue: Int {
        switch self {
        case .perceptual: 0
        case .relativeColorimetric: 1
        case .saturation: 2
        case .absoluteColorimetric: 3
        }
    }

    public var description: String {
        switch self {
        case .perceptual: "perceptual"
        case .relativeColorimetric: "relative colorimetric"
        case .saturation: "saturation"
        case .absoluteColorimetric: "absolute colorimetric"
        }
    }
}
