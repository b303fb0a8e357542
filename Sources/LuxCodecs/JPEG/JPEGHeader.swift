/// What a JPEG's marker segments say before the entropy-coded data: frame size and type, components and
/// their sampling, and the metadata segments (Exif, XMP, ICC).
///
/// Parsing is pure Swift over bytes and stops at the first SOS, so it is cheap and safe on hostile input.
public struct JPEGHeader: Hashable, Sendable {
    /// The coding process from the SOF marker.
    public enum Process: String, Hashable, Sendable, Codable {
        case baseline, extendedSequential, progressive, lossless, hierarchical, arithmetic
    }

    /// Sampling factors of one component.
    public struct Sampling: Hashable, Sendable, Codable {
        /// Horizontal sampling factor (1–4).
        public var horizontal: Int
        /// Vertical sampling factor (1–4).
        public var vertical: Int
    }

    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
    /// Sample precision in bits (8 for ordinary JPEGs).
    public var precision: Int
    /// The number of components (1 gray, 3 Y′CbCr/RGB, 4 CMYK/YCCK).
    public var componentCount: Int
    /// Sampling factors of each component.
    public var sampling: [Sampling]
    /// The coding process.
    public var process: Process
    /// The Adobe APP14 colour transform (0 none/CMYK, 1 Y′CbCr, 2 YCCK), when present.
    public var adobeTransform: Int?
    /// Whether a JFIF APP0 segment is present.
    public var hasJFIF: Bool
    /// The Exif TIFF structure (APP1 payload after `Exif\0\0`).
    public var exif: [UInt8]?
    /// The XMP packet (APP1 `http://ns.adobe.com/xap/1.0/`).
    public var xmp: [UInt8]?
    /// The ICC profile reassembled from APP2 `ICC_PROFILE` chunks.
    public var iccProfile: [UInt8]?

    /// The chroma subsampling of a three-component image, when it is one of the usual ones.
    public var chromaSubsampling: ChromaSubsampling? {
        guard componentCount == 3, sampling.count == 3 else { return nil }
        let y = sampling[0]
        let cb = sampling[1]
        let cr = sampling[2]
        guard cb == cr, cb.horizontal > 0, cb.vertical > 0 else { return nil }
        switch (y.horizontal / cb.horizontal, y.vertical / cb.vertical) {
        case (1, 1): return ChromaSubsampling.none
        case (2, 1): return .horizontal
        case (2, 2): return .both
        default: return nil
        }
    }

    /// Whether the components are CMYK or YCCK.
    public var isCMYK: Bool { componentCount == 4 }

    static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let iccSignature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// Parses the marker segments of a JPEG up to the first SOS.
    ///
    /// - Throws: ``CodecError`` naming the marker and offset when the data is not a JPEG, a segment runs past
    ///   the end, or there is no frame header.
    public init(bytes: [UInt8]) throws(CodecError) {
        self = try withBytes(of: bytes) { raw throws(CodecError) in try JPEGHeader(raw) }
    }

    init(_ bytes: UnsafeRawBufferPointer) throws(CodecError) {
        var width = 0
        var height = 0
        var precision = 0
        var comps = 0
        var sampling: [Sampling] = []
        var process: Process?
        var adobe: Int?
        var jfif = false
        var exif: [UInt8]?
        var xmp: [UInt8]?
        var iccChunks: [Int: [UInt8]] = [:]
        var iccTotal = 0
        let end = try JPEGSegments.scan(bytes, what: "JPEG") { segment throws(CodecError) in
            let payload = segment.payload
            let payloadLength = payload.count
            let marker = segment.marker
            let markerOffset = segment.markerOffset
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard process == nil else {
                    throw .malformed(
                        what: "JPEG SOF marker", offset: markerOffset, reason: "more than one frame header")
                }
                guard payloadLength >= 6 else {
                    throw .malformed(what: "JPEG SOF marker", offset: markerOffset, reason: "segment too short")
                }
                precision = Int(payload[0])
                height = Int(payload[1]) << 8 | Int(payload[2])
                width = Int(payload[3]) << 8 | Int(payload[4])
                comps = Int(payload[5])
                guard comps >= 1, comps <= 4, payloadLength >= 6 + 3 * comps else {
                    throw .malformed(what: "JPEG SOF marker", offset: markerOffset, reason: "\(comps) components")
                }
                sampling = (0..<comps).map { i in
                    let s = Int(payload[6 + 3 * i + 1])
                    return Sampling(horizontal: s >> 4, vertical: s & 15)
                }
                switch marker {
                case 0xC0: process = .baseline
                case 0xC1: process = .extendedSequential
                case 0xC2: process = .progressive
                case 0xC3: process = .lossless
                case 0xC5, 0xC6, 0xC7: process = .hierarchical
                default: process = .arithmetic
                }
            case 0xE0:
                if payloadLength >= 5, Array(payload[0..<5]) == Array("JFIF".utf8) + [0] { jfif = true }
            case 0xE1:
                if exif == nil, payloadLength > 6, Array(payload[0..<6]) == Self.exifSignature {
                    exif = Array(payload[6...])
                } else if xmp == nil, payloadLength > Self.xmpSignature.count,
                    Array(payload[0..<Self.xmpSignature.count]) == Self.xmpSignature
                {
                    xmp = Array(payload[Self.xmpSignature.count...])
                }
            case 0xE2:
                if payloadLength > 14, Array(payload[0..<12]) == Self.iccSignature {
                    let seq = Int(payload[12])
                    let total = Int(payload[13])
                    if seq >= 1, total >= 1, seq <= total, iccTotal == 0 || iccTotal == total, iccChunks[seq] == nil {
                        iccTotal = total
                        iccChunks[seq] = Array(payload[14...])
                    }
                }
            case 0xEE:
                if payloadLength >= 12, Array(payload[0..<5]) == Array("Adobe".utf8) { adobe = Int(payload[11]) }
            default:
                break
            }
        }
        let p = end
        guard let process else {
            throw .malformed(what: "JPEG", offset: p, reason: "no SOF frame header before the first scan")
        }
        guard width > 0, height > 0 else {
            throw .unsupported(what: "JPEG frame \(width)×\(height)", reason: "the height is defined by a DNL marker")
        }
        var icc: [UInt8]?
        if iccTotal > 0, iccChunks.count == iccTotal {
            icc = (1...iccTotal).flatMap { iccChunks[$0]! }
        }
        self.width = width
        self.height = height
        self.precision = precision
        self.componentCount = comps
        self.sampling = sampling
        self.process = process
        self.adobeTransform = adobe
        self.hasJFIF = jfif
        self.exif = exif
        self.xmp = xmp
        self.iccProfile = icc
    }
}
