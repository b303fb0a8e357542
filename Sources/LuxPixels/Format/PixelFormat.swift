/// How pixels are laid out in memory.
///
/// The RGB formats are interleaved, unpremultiplied unless a buffer says otherwise. Bayer formats hold one
/// sensor value per pixel. Y′CbCr formats are bi-planar (luma plane, then an interleaved CbCr plane).
public enum PixelFormat: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 8-bit RGBA (kCIFormatRGBA8), values 0…1.
    case rgba8
    /// 8-bit BGRA, values 0…1.
    case bgra8
    /// 16-bit unsigned RGBA, values 0…1 (16-bit PNG and TIFF).
    case rgba16
    /// IEEE half-float RGBA (kCIFormatRGBAh), the default working format.
    case rgbaHalf
    /// 32-bit float RGBA (kCIFormatRGBAf).
    case rgbaFloat
    /// 8-bit gray.
    case gray8
    /// 16-bit gray.
    case gray16
    /// 32-bit float gray.
    case grayFloat
    /// Bayer mosaic, 14 bits little-endian in 16 (kCVPixelFormatType_14Bayer_*), codes 0…16383.
    case bayer14(CFAPattern)
    /// Bayer mosaic with full 16-bit codes (raw data read from files of any bit depth ≤ 16).
    case bayer16(CFAPattern)
    /// Fujifilm X-Trans mosaic (6×6 colour filter array) with full 16-bit codes.
    case xTrans16(XTransPattern)
    /// 8-bit 4:2:0 Y′CbCr, bi-planar, video range (Y′ 16…235, CbCr 16…240): '420v'.
    case yCbCr420VideoRange
    /// 8-bit 4:2:0 Y′CbCr, bi-planar, full range: '420f'.
    case yCbCr420FullRange
    /// 8-bit 4:4:4 Y′CbCr, bi-planar, video range: '444v'.
    case yCbCr444VideoRange
    /// 8-bit 4:4:4 Y′CbCr, bi-planar, full range: '444f'.
    case yCbCr444FullRange
    /// 10-bit packed wide-gamut RGB (30RGBLEPackedWideGamut, 'w30r'): one little-endian 32-bit word per
    /// pixel, R in bits 20–29, G in 10–19, B in 0–9; code `k` means `(k − 192) / 512`, covering −0.375…1.623.
    case rgb10WideGamutPacked

    /// Every format, with each Bayer layout and the X-Trans layout at phase (0, 0).
    public static let allCases: [PixelFormat] =
        [.rgba8, .bgra8, .rgba16, .rgbaHalf, .rgbaFloat, .gray8, .gray16, .grayFloat]
        + CFAPattern.allCases.map { .bayer14($0) } + CFAPattern.allCases.map { .bayer16($0) }
        + [.xTrans16(XTransPattern())]
        + [.yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange, .yCbCr444FullRange, .rgb10WideGamutPacked]

    /// How each component is stored.
    public enum ComponentType: Hashable, Sendable {
        case uint8, uint16, float16, float32, packed10
    }

    /// The storage type of one component.
    public var componentType: ComponentType {
        switch self {
        case .rgba8, .bgra8, .gray8, .yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange,
            .yCbCr444FullRange:
            .uint8
        case .rgba16, .gray16, .bayer14, .bayer16, .xTrans16: .uint16
        case .rgbaHalf: .float16
        case .rgbaFloat, .grayFloat: .float32
        case .rgb10WideGamutPacked: .packed10
        }
    }

    /// The number of memory planes.
    public var planeCount: Int { isYCbCr ? 2 : 1 }

    /// Bytes per pixel in `plane` (per sample position of that plane: a CbCr pair counts once).
    public func bytesPerPixel(plane: Int = 0) -> Int {
        switch self {
        case .rgba8, .bgra8, .rgb10WideGamutPacked: 4
        case .rgba16, .rgbaHalf: 8
        case .rgbaFloat: 16
        case .gray8: 1
        case .gray16, .bayer14, .bayer16, .xTrans16: 2
        case .grayFloat: 4
        case .yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange, .yCbCr444FullRange: plane == 0 ? 1 : 2
        }
    }

    /// Horizontal and vertical subsampling of `plane` (2 for 4:2:0 chroma, otherwise 1).
    public func subsampling(plane: Int) -> (x: Int, y: Int) {
        switch self {
        case .yCbCr420VideoRange, .yCbCr420FullRange: plane == 0 ? (1, 1) : (2, 2)
        default: (1, 1)
        }
    }

    /// The number of channels a pixel carries (4 for RGBA, 1 for gray and Bayer, 3 for Y′CbCr and packed RGB).
    public var channelCount: Int {
        switch self {
        case .rgba8, .bgra8, .rgba16, .rgbaHalf, .rgbaFloat: 4
        case .gray8, .gray16, .grayFloat, .bayer14, .bayer16, .xTrans16: 1
        case .yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange, .yCbCr444FullRange,
            .rgb10WideGamutPacked:
            3
        }
    }

    /// Whether the format stores an alpha channel.
    public var hasAlpha: Bool { channelCount == 4 }

    /// Whether the format is a Bayer mosaic.
    public var isBayer: Bool { cfaPattern != nil }

    /// Whether the format is a colour-filter-array mosaic (Bayer or X-Trans): one sensor value per pixel, no colour
    /// space.
    public var isMosaic: Bool { isBayer || xTransPattern != nil }

    /// The layout of an X-Trans format.
    public var xTransPattern: XTransPattern? {
        if case .xTrans16(let p) = self { return p }
        return nil
    }

    /// The CFA layout of a Bayer format.
    public var cfaPattern: CFAPattern? {
        switch self {
        case .bayer14(let p), .bayer16(let p): p
        default: nil
        }
    }

    /// Whether the format is Y′CbCr.
    public var isYCbCr: Bool {
        switch self {
        case .yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange, .yCbCr444FullRange: true
        default: false
        }
    }

    /// Whether a Y′CbCr format uses video (studio) range.
    public var isVideoRange: Bool { self == .yCbCr420VideoRange || self == .yCbCr444VideoRange }

    /// Whether the format stores floating-point values.
    public var isFloatingPoint: Bool { componentType == .float16 || componentType == .float32 }

    /// The range of values a component can represent, in normalised units (integer codes divided by their
    /// full-scale code; floats as stored).
    public var valueRange: ClosedRange<Double> {
        switch self {
        case .rgbaHalf: -65504...65504
        case .rgbaFloat, .grayFloat: -Double(Float.greatestFiniteMagnitude)...Double(Float.greatestFiniteMagnitude)
        case .rgb10WideGamutPacked: (-192.0 / 512)...(831.0 / 512)
        default: 0...1
        }
    }

    /// The integer codes an integer format stores (`nil` for floating point).
    public var codeRange: ClosedRange<Int>? {
        switch self {
        case .rgba8, .bgra8, .gray8, .yCbCr420FullRange, .yCbCr444FullRange: 0...255
        case .yCbCr420VideoRange, .yCbCr444VideoRange: 16...240
        case .rgba16, .gray16, .bayer16, .xTrans16: 0...65535
        case .bayer14: 0...16383
        case .rgb10WideGamutPacked: 0...1023
        case .rgbaHalf, .rgbaFloat, .grayFloat: nil
        }
    }

    /// The four-character code Core Video uses for the equivalent format (X-Trans, which Core Video lacks, is "xtr6"
    /// at every phase).
    public var fourCharacterCode: String {
        switch self {
        case .rgba8: "RGBA"
        case .bgra8: "BGRA"
        case .rgba16: "b64a"
        case .rgbaHalf: "RGhA"
        case .rgbaFloat: "RGfA"
        case .gray8: "L008"
        case .gray16: "L016"
        case .grayFloat: "L00f"
        case .bayer14(let p), .bayer16(let p):
            switch p {
            case .grbg: isBayer14 ? "grb4" : "grb6"
            case .rggb: isBayer14 ? "rgg4" : "rgg6"
            case .bggr: isBayer14 ? "bgg4" : "bgg6"
            case .gbrg: isBayer14 ? "gbr4" : "gbr6"
            }
        case .xTrans16: "xtr6"
        case .yCbCr420VideoRange: "420v"
        case .yCbCr420FullRange: "420f"
        case .yCbCr444VideoRange: "444v"
        case .yCbCr444FullRange: "444f"
        case .rgb10WideGamutPacked: "w30r"
        }
    }

    private var isBayer14: Bool {
        if case .bayer14 = self { return true }
        return false
    }

    /// The format with a four-character code (as listed by ``fourCharacterCode``).
    public init?(fourCharacterCode code: String) {
        guard let f = PixelFormat.allCases.first(where: { $0.fourCharacterCode == code }) else { return nil }
        self = f
    }

    public var description: String {
        switch self {
        case .rgba8: "RGBA8"
        case .bgra8: "BGRA8"
        case .rgba16: "RGBA16"
        case .rgbaHalf: "RGBAh"
        case .rgbaFloat: "RGBAf"
        case .gray8: "Gray8"
        case .gray16: "Gray16"
        case .grayFloat: "Grayf"
        case .bayer14(let p): "Bayer14 \(p)"
        case .bayer16(let p): "Bayer16 \(p)"
        case .xTrans16(let p): "XTrans16 \(p.phaseX),\(p.phaseY)"
        default: fourCharacterCode
        }
    }
}
