/// What a PNG's chunks say besides the pixels: size and sample layout, colour information (iCCP, sRGB,
/// gAMA, cHRM, cICP), Exif (eXIf) and XMP (iTXt `XML:com.adobe.xmp`).
///
/// Parsing is pure Swift over bytes; it skips IDAT payloads, so it is cheap.
public struct PNGHeader: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bits per sample (1, 2, 4, 8 or 16).
    public var bitDepth: Int
    /// 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA.
    public var colorType: Int
    /// Whether the image is Adam7-interlaced.
    public var isInterlaced: Bool
    /// Whether a tRNS chunk adds transparency.
    public var hasTransparencyChunk: Bool
    /// The decompressed iCCP profile.
    public var iccProfile: [UInt8]?
    /// The iCCP profile name.
    public var iccProfileName: String?
    /// The sRGB chunk's rendering intent, when present.
    public var sRGBIntent: Int?
    /// gAMA as a number (such as 0.45455).
    public var gamma: Double?
    /// cHRM: white x, y, red x, y, green x, y, blue x, y.
    public var chromaticities: [Double]?
    /// cICP: colour primaries, transfer characteristics, matrix, full-range flag.
    public var cicp: [UInt8]?
    /// The eXIf chunk (a TIFF structure).
    public var exif: [UInt8]?
    /// The XMP packet.
    public var xmp: [UInt8]?

    /// Whether the decoded image has an alpha channel.
    public var hasAlpha: Bool { colorType == 4 || colorType == 6 || hasTransparencyChunk }
    /// Whether the image is grayscale.
    public var isGray: Bool { colorType == 0 || colorType == 4 }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Parses the chunks of a PNG.
    ///
    /// - Throws: ``CodecError`` naming the chunk and offset when the data is not a PNG or a chunk runs
    ///   past the end.
    public init(bytes: [UInt8]) throws(CodecError) {
        self = try withBytes(of: bytes) { raw throws(CodecError) in try PNGHeader(raw) }
    }

    /// The most bytes one compressed iCCP or iTXt chunk may inflate to.
    static let defaultInflateLimit = 64 << 20

    /// Parses the chunks; compressed iCCP and XMP iTXt chunks inflate to at most `inflateLimit` bytes each (a
    /// larger one is dropped).
    init(_ bytes: UnsafeRawBufferPointer, inflateLimit: Int = defaultInflateLimit) throws(CodecError) {
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.signature else {
            throw .malformed(what: "PNG signature", offset: 0, reason: "the data does not start with the PNG signature")
        }
        let r = ByteReader(bytes, bigEndian: true)
        var p = 8
        var sawHeader = false
        var sawData = false
        width = 0
        height = 0
        bitDepth = 0
        colorType = 0
        isInterlaced = false
        hasTransparencyChunk = false
        while true {
            let length = Int(try r.u32(p, "PNG chunk length"))
            let typeBytes = try r.slice(p + 4, 4, "PNG chunk type")
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= 0x7FFF_FFFF else {
                throw .malformed(what: "PNG \(type) chunk", offset: p, reason: "length \(length) exceeds 2³¹−1")
            }
            try r.check(p + 8, length + 4, "PNG \(type) chunk")
            let start = p + 8
            let data = { () throws(CodecError) -> [UInt8] in try r.slice(start, length, "PNG \(type) chunk") }
            let at = p
            p += 12 + length
            if !sawHeader, type != "IHDR" {
                throw .malformed(what: "PNG \(type) chunk", offset: at, reason: "the first chunk must be IHDR")
            }
            switch type {
            case "IHDR":
                let d = try data()
                guard d.count == 13 else {
                    throw .malformed(what: "PNG IHDR chunk", offset: at, reason: "length \(d.count) ≠ 13")
                }
                width = Int(d[0]) << 24 | Int(d[1]) << 16 | Int(d[2]) << 8 | Int(d[3])
                height = Int(d[4]) << 24 | Int(d[5]) << 16 | Int(d[6]) << 8 | Int(d[7])
                bitDepth = Int(d[8])
                colorType = Int(d[9])
                isInterlaced = d[12] == 1
                let valid: [Int: [Int]] = [
                    0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
                ]
                guard valid[colorType]?.contains(bitDepth) == true else {
                    throw .malformed(
                        what: "PNG IHDR chunk", offset: at,
                        reason: "colour type \(colorType) with bit depth \(bitDepth)")
                }
                guard width > 0, height > 0 else {
                    throw .malformed(what: "PNG IHDR chunk", offset: at, reason: "empty image \(width)×\(height)")
                }
                sawHeader = true
            case "IDAT": sawData = true
            case "IEND":
                guard sawData else {
                    throw .missingPixelData(what: "PNG", reason: "IEND at byte \(at) before any IDAT chunk")
                }
                return
            case "tRNS": hasTransparencyChunk = true
            case "gAMA":
                let d = try data()
                if d.count == 4 {
                    let g = Int(d[0]) << 24 | Int(d[1]) << 16 | Int(d[2]) << 8 | Int(d[3])
                    if g > 0 { gamma = Double(g) / 100_000 }
                }
            case "cHRM":
                let d = try data()
                if d.count == 32 {
                    var values: [Double] = []
                    for i in 0..<8 {
                        let b0 = Int(d[4 * i]) << 24
                        let b1 = Int(d[4 * i + 1]) << 16
                        let b2 = Int(d[4 * i + 2]) << 8
                        let b3 = Int(d[4 * i + 3])
                        values.append(Double(b0 | b1 | b2 | b3) / 100_000)
                    }
                    chromaticities = values
                }
            case "sRGB":
                let d = try data()
                if d.count == 1 { sRGBIntent = Int(d[0]) }
            case "cICP":
                let d = try data()
                if d.count == 4 { cicp = d }
            case "iCCP":
                let d = try data()
                if iccProfile == nil, let nul = d.firstIndex(of: 0), nul >= 1, nul + 2 <= d.count, d[nul + 1] == 0 {
                    iccProfileName = String(decoding: d[0..<nul], as: UTF8.self)
                    iccProfile = try? TIFFDecompression.inflate(
                        Array(d[(nul + 2)...]), limit: inflateLimit, what: "PNG iCCP chunk")
                }
            case "eXIf":
                if exif == nil { exif = try data() }
            case "iTXt":
                let d = try data()
                let key = Array("XML:com.adobe.xmp".utf8)
                // The keyword, its NUL, the compression flag and method must all be there before the rest is read.
                if xmp == nil, d.count >= key.count + 3, Array(d[0..<key.count]) == key, d[key.count] == 0 {
                    // keyword NUL, compression flag, method, language NUL, translated keyword NUL, text
                    var q = key.count + 1
                    let compressed = d[q] == 1
                    q += 2
                    guard let l1 = d[q...].firstIndex(of: 0) else { break }
                    guard let l2 = d[(l1 + 1)...].firstIndex(of: 0) else { break }
                    let text = Array(d[(l2 + 1)...])
                    xmp =
                        compressed
                        ? try? TIFFDecompression.inflate(text, limit: inflateLimit, what: "PNG iTXt chunk") : text
                }
            default:
                break
            }
        }
    }
}
