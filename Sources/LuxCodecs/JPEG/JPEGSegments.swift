/// One marker segment of a JPEG stream.
struct JPEGSegment {
    /// The marker code (the byte after FF).
    let marker: UInt8
    /// Where the FF of the marker is.
    let markerOffset: Int
    /// Where the payload (after the two length bytes) starts.
    let payloadOffset: Int
    /// The payload.
    let payload: UnsafeRawBufferPointer
}

/// Walks the marker segments of a JPEG stream from SOI up to and including the first SOS, checking every
/// length against the data (shared by the JPEG header reader and the lossless-JPEG decoder).
enum JPEGSegments {
    /// Calls `body` for each segment that has a length; returns the offset just after the SOS segment, where
    /// the entropy-coded data starts.
    ///
    /// - Throws: ``CodecError`` when the stream does not start with SOI, a marker is malformed, a segment runs
    ///   past the end, or EOI comes before any scan.
    @discardableResult
    static func scan(
        _ bytes: UnsafeRawBufferPointer, what: String, _ body: (JPEGSegment) throws(CodecError) -> Void
    ) throws(CodecError) -> Int {
        let r = ByteReader(bytes, bigEndian: true)
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw .malformed(what: "\(what) SOI marker", offset: 0, reason: "the data does not start with FF D8")
        }
        var p = 2
        while true {
            guard p < bytes.count else { throw .truncated(what: "\(what) marker", offset: p) }
            guard bytes[p] == 0xFF else {
                throw .malformed(what: "\(what) marker", offset: p, reason: "expected FF, found \(hex(bytes[p]))")
            }
            while p < bytes.count, bytes[p] == 0xFF { p += 1 }  // fill bytes
            guard p < bytes.count else { throw .truncated(what: "\(what) marker", offset: p) }
            let marker = bytes[p]
            let at = p - 1
            p += 1
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length
            if marker == 0xD9 { throw .missingPixelData(what: what, reason: "EOI at byte \(at) before any scan") }
            let name = "\(what) marker FF\(hex(marker))"
            let length = Int(try r.u16(p, "\(name) length"))
            guard length >= 2 else { throw .malformed(what: name, offset: at, reason: "segment length \(length) < 2") }
            try r.check(p + 2, length - 2, "\(name) segment")
            let segment = JPEGSegment(
                marker: marker, markerOffset: at, payloadOffset: p + 2,
                payload: UnsafeRawBufferPointer(rebasing: bytes[(p + 2)..<(p + length)]))
            p += length
            try body(segment)
            if marker == 0xDA { return p }
        }
    }
}

func hex(_ v: UInt8) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return s.count == 1 ? "0" + s : s
}
