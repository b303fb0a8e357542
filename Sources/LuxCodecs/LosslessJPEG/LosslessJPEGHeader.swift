/// The header of a lossless (SOF3) JPEG stream as DNG uses it: frame size, components, Huffman tables,
/// predictor and where the entropy-coded data starts.
struct LosslessJPEGHeader {
    struct Component {
        var id: UInt8
        var horizontal: Int
        var vertical: Int
        var table: Int = 0
    }

    var precision: Int = 0
    /// Frame width (samples per component per row).
    var width: Int = 0
    /// Frame height.
    var height: Int = 0
    var components: [Component] = []
    /// Predictor selection value Ss (1–7).
    var predictor: Int = 0
    /// Point transform Pt.
    var pointTransform: Int = 0
    /// Restart interval in MCUs (0 = none).
    var restartInterval: Int = 0
    var tables: [HuffmanDecodingTable?] = [nil, nil, nil, nil]
    /// Offset of the first entropy-coded byte.
    var dataOffset: Int = 0

    /// Parses markers up to and including SOS.
    init(_ bytes: UnsafeRawBufferPointer, what: String) throws(CodecError) {
        var sawFrame = false
        let scanOffset = try JPEGSegments.scan(bytes, what: what) { segment throws(CodecError) in
            let marker = segment.marker
            let at = segment.markerOffset
            let seg = Array(segment.payload)
            let segOffset = segment.payloadOffset
            switch marker {
            case 0xC3:
                guard seg.count >= 6 else {
                    throw .malformed(what: "\(what) SOF3", offset: at, reason: "segment too short")
                }
                precision = Int(seg[0])
                height = Int(seg[1]) << 8 | Int(seg[2])
                width = Int(seg[3]) << 8 | Int(seg[4])
                let n = Int(seg[5])
                guard (2...16).contains(precision) else {
                    throw .malformed(
                        what: "\(what) SOF3", offset: at, reason: "sample precision \(precision) is outside 2…16")
                }
                guard (1...4).contains(n), seg.count >= 6 + 3 * n else {
                    throw .malformed(what: "\(what) SOF3", offset: at, reason: "\(n) components")
                }
                components = []
                for i in 0..<n {
                    let sampling = seg[7 + 3 * i]
                    components.append(
                        Component(id: seg[6 + 3 * i], horizontal: Int(sampling >> 4), vertical: Int(sampling & 15)))
                }
                guard components.allSatisfy({ $0.horizontal == 1 && $0.vertical == 1 }) else {
                    throw .unsupported(what: "\(what) SOF3", reason: "subsampled lossless JPEG components")
                }
                sawFrame = true
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                throw .unsupported(
                    what: "\(what) frame type FF\(hex(marker))", reason: "raw tiles must be lossless JPEG (SOF3)")
            case 0xC4:
                var q = 0
                while q < seg.count {
                    let tc = Int(seg[q] >> 4)
                    let th = Int(seg[q] & 15)
                    guard q + 17 <= seg.count, th < 4 else {
                        throw .malformed(what: "\(what) DHT", offset: segOffset + q, reason: "bad table header")
                    }
                    let counts = Array(seg[(q + 1)..<(q + 17)])
                    let n = counts.reduce(0) { $0 + Int($1) }
                    guard q + 17 + n <= seg.count else { throw .truncated(what: "\(what) DHT", offset: segOffset + q) }
                    if tc == 0 {
                        tables[th] = try HuffmanDecodingTable(
                            counts: counts, symbols: Array(seg[(q + 17)..<(q + 17 + n)]), what: "\(what) DHT",
                            offset: segOffset + q)
                    }
                    q += 17 + n
                }
            case 0xDD:
                guard seg.count >= 2 else {
                    throw .malformed(what: "\(what) DRI", offset: at, reason: "segment too short")
                }
                restartInterval = Int(seg[0]) << 8 | Int(seg[1])
            case 0xDA:
                guard sawFrame else {
                    throw .malformed(what: "\(what) SOS", offset: at, reason: "scan before the SOF3 frame header")
                }
                guard seg.count >= 1 else {
                    throw .malformed(what: "\(what) SOS", offset: at, reason: "segment too short")
                }
                let ns = Int(seg[0])
                guard ns == components.count, seg.count >= 1 + 2 * ns + 3 else {
                    throw .unsupported(
                        what: "\(what) SOS", reason: "the scan must interleave all \(components.count) components")
                }
                for i in 0..<ns {
                    let cid = seg[1 + 2 * i]
                    let td = Int(seg[2 + 2 * i] >> 4)
                    guard let k = components.firstIndex(where: { $0.id == cid }), td < 4, tables[td] != nil else {
                        throw .malformed(
                            what: "\(what) SOS", offset: at, reason: "component \(cid) has no Huffman table")
                    }
                    components[k].table = td
                }
                predictor = Int(seg[1 + 2 * ns])
                pointTransform = Int(seg[3 + 2 * ns] & 15)
                guard (1...7).contains(predictor) else {
                    throw .malformed(what: "\(what) SOS", offset: at, reason: "predictor \(predictor) is outside 1…7")
                }
                guard pointTransform < precision else {
                    throw .malformed(what: "\(what) SOS", offset: at, reason: "point transform \(pointTransform)")
                }
                guard width > 0, height > 0 else {
                    throw .malformed(what: "\(what) SOF3", offset: at, reason: "empty frame \(width)×\(height)")
                }
            default:
                break
            }
        }
        dataOffset = scanOffset
    }
}
