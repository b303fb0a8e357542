#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The maker note Apple cameras write (Exif 0x927C), holding the Live Photo content identifier.
///
/// Layout (FORMATS.md §6.2): `Apple iOS\0`, version 0x0001, `MM`, then a big-endian IFD at byte 14
/// whose value offsets are relative to the start of the maker note, so it can be moved freely.
public struct AppleMakerNote: Hashable, Sendable, Codable {
    /// Maker note version (tag 0x0001); iOS 18 writes 15.
    public var version: Int32
    /// The Live Photo asset identifier (tag 0x0011), an uppercase UUID string shared with the movie.
    public var contentIdentifier: String?
    /// Other tags, kept as read.
    public var otherFields: [UInt16: TIFFValue]

    static let signature: [UInt8] = Array("Apple iOS".utf8) + [0]
    static let contentIdentifierTag: UInt16 = 0x0011

    /// Creates a maker note.
    public init(contentIdentifier: String?, version: Int32 = 15, otherFields: [UInt16: TIFFValue] = [:]) {
        self.contentIdentifier = contentIdentifier
        self.version = version
        self.otherFields = otherFields
    }

    /// Parses maker-note bytes; `nil` when they are not an Apple maker note or cannot be read.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 16, Array(bytes[0..<10]) == Self.signature else { return nil }
        let bigEndian = bytes[12] == 0x4D
        guard bigEndian || bytes[12] == 0x49 else { return nil }
        let parsed: AppleMakerNote? = try? withBytes(of: bytes) { raw throws(CodecError) in
            // Reuse the TIFF directory reader: offsets are relative to the maker note start, which is
            // exactly the buffer we pass.
            let r = ByteReader(raw, bigEndian: bigEndian)
            let count = Int(try r.u16(14, "Apple maker note"))
            try r.check(16, count * 12, "Apple maker note")
            var fields: [UInt16: TIFFValue] = [:]
            let parser = TIFFParser(reader: r)
            for i in 0..<count {
                let e = 16 + 12 * i
                let tag = r.u16Unchecked(e)
                guard let type = TIFFFieldType(rawValue: r.u16Unchecked(e + 2)), type.size <= 8 else { continue }
                let n = Int(r.u32Unchecked(e + 4))
                let size = n * type.size
                let valueOffset = size <= 4 ? e + 8 : Int(r.u32Unchecked(e + 8))
                let entry = TIFFEntry(tag: tag, type: type, count: n, valueOffset: valueOffset, entryOffset: e)
                if let v = try? parser.value(entry) { fields[tag] = v }
            }
            var note = AppleMakerNote(contentIdentifier: nil, version: 0, otherFields: [:])
            if case .ascii(let s)? = fields.removeValue(forKey: Self.contentIdentifierTag) {
                note.contentIdentifier = s
            }
            if let v = fields.removeValue(forKey: 1)?.integers?.first { note.version = Int32(clamping: v) }
            note.otherFields = fields
            return note
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// The maker-note bytes (big-endian, relocatable).
    public func encoded() -> [UInt8] {
        var fields = otherFields
        fields[1] = .signedLongs([version])
        if let id = contentIdentifier { fields[Self.contentIdentifierTag] = .ascii(id) }
        let tags = fields.keys.sorted()
        var w = ByteWriter(bigEndian: true)
        w.append(Self.signature)
        w.u16(1)
        w.append(Array("MM".utf8))
        w.u16(UInt16(tags.count))
        var valueArea = 14 + 2 + 12 * tags.count + 4
        var values: [UInt8] = []
        for tag in tags {
            let v = fields[tag]!
            let data = v.encoded(bigEndian: true)
            w.u16(tag)
            w.u16(v.fieldType.rawValue)
            w.u32(UInt32(v.count))
            if data.count <= 4 {
                w.append(data + [UInt8](repeating: 0, count: 4 - data.count))
            } else {
                w.u32(UInt32(valueArea))
                values += data
                if data.count % 2 == 1 { values.append(0) }
                valueArea += data.count + data.count % 2
            }
        }
        w.u32(0)
        w.append(values)
        return w.bytes
    }
}

extension TIFFParser {
    /// A parser over headerless bytes (maker notes), used only for reading values.
    init(reader: ByteReader) {
        self.reader = reader
        self.isBigTIFF = false
        self.firstDirectoryOffset = 0
        self.context = "maker note"
    }
}

extension AppleMakerNote {
    /// The HDR headroom of the photo's gain map: how much brighter than SDR white (a linear factor ≥ 1) the gain map's
    /// maximum makes a pixel; `nil` unless the maker note holds both tag 33 and tag 48.
    ///
    /// Apple's "Applying Apple HDR effect to your photos" counts the gain map valid only when the maker note holds
    /// both tags as numbers (and the gain map's XMP has `HDRGainMapVersion`); developers who built files for Photos
    /// found it ignores a gain map without both. So a photo without tag 48 (an iPhone 13 Pro photo from iOS 16.2 has
    /// only tag 33) has no documented headroom, and Lux does not guess one: apply its gain map with an explicit
    /// headroom. Apple's formula: stops = −20·m48 + 1.8 (m33 < 1, m48 ≤ 0.01), −0.101·m48 + 1.601 (m33 < 1),
    /// −70·m48 + 3 (m48 ≤ 0.01), −0.303·m48 + 2.303 otherwise; headroom = 2^max(stops, 0).
    public var hdrHeadroom: Double? {
        guard let m33 = otherFields[33]?.doubles?.first, let m48 = otherFields[48]?.doubles?.first else { return nil }
        let stops: Double =
            m33 < 1
            ? (m48 <= 0.01 ? -20 * m48 + 1.8 : -0.101 * m48 + 1.601)
            : (m48 <= 0.01 ? -70 * m48 + 3 : -0.303 * m48 + 2.303)
        return pow(2, max(stops, 0))
    }
}
