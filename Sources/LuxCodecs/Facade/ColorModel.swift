/// The colour model of a file's stored samples, which ``ImageInfo/colorModel`` reports.
public enum ColorModel: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// One luminance sample per pixel (plus alpha).
    case gray
    /// Red, green and blue samples (plus alpha), including palettes of RGB colours.
    case rgb
    /// Cyan, magenta, yellow and black ink (stored as Y′CbCrK by YCCK JPEGs); decoded to sRGB.
    case cmyk
    /// Raw sensor data: a colour filter mosaic or linear camera samples (DNG and camera raws).
    case raw

    public var description: String {
        switch self {
        case .gray: "gray"
        case .rgb: "RGB"
        case .cmyk: "CMYK"
        case .raw: "raw sensor data"
        }
    }
}
