/// What the TIFF directories of a TIFF-based camera raw (NEF, CR2, ARW, PEF, KDC …) say without LibRaw: whether a
/// TIFF is a camera raw at all, the camera's name, its Exif, and whether its raw data can be in the file.
enum TIFFCameraRaw {
    /// Fewer bytes than this cannot hold a camera's raw image, however well compressed.
    static let minimumRawDataBytes = 4096

    /// Whether a TIFF without a DNGVersion is a camera raw: a Canon CR2, a file with CFA or Linear Raw data in a
    /// directory, or a camera's file whose first directory is a reduced-resolution preview.
    static func isCameraRaw(_ raw: UnsafeRawBufferPointer, _ p: TIFFParser, _ ifd0: TIFFDirectory) -> Bool {
        if isCR2(raw) { return true }
        if let s = try? DNGStructure(raw), s.raw != nil { return true }
        let subfile = ((try? p.integer(ifd0, TIFFTag.newSubfileType)) ?? nil) ?? 0
        return subfile & 1 == 1 && camera(p, ifd0) != nil
    }

    /// Canon CR2: "CR" and major version 2 after the TIFF header.
    static func isCR2(_ raw: UnsafeRawBufferPointer) -> Bool {
        raw.count >= 16 && raw[8] == 0x43 && raw[9] == 0x52 && raw[10] == 2
    }

    /// "Make Model" from IFD0 (the model alone when it starts with the make), `nil` without either.
    static func camera(_ p: TIFFParser, _ ifd0: TIFFDirectory) -> String? {
        let make = ((try? p.string(ifd0, TIFFTag.make)) ?? nil)?.trimming(" \0") ?? ""
        let model = ((try? p.string(ifd0, TIFFTag.model)) ?? nil)?.trimming(" \0") ?? ""
        let camera = model.hasPrefix(make) ? model : [make, model].filter { !$0.isEmpty }.joined(separator: " ")
        return camera.isEmpty ? nil : camera
    }

    /// The parser and first directory of TIFF-based data, `nil` for other data.
    static func firstDirectory(_ raw: UnsafeRawBufferPointer) -> (TIFFParser, TIFFDirectory)? {
        guard TIFFParser.isTIFF(raw), let p = try? TIFFParser(raw),
            let ifd0 = try? p.directory(at: p.firstDirectoryOffset, name: "IFD0")
        else { return nil }
        return (p, ifd0)
    }

    /// The camera named by a TIFF-based file, `nil` for other data.
    static func camera(_ raw: UnsafeRawBufferPointer) -> String? {
        firstDirectory(raw).flatMap { camera($0.0, $0.1) }
    }

    /// The Exif of a TIFF-based file (IFD0 and its Exif and GPS directories), `nil` for other data.
    static func exif(_ raw: UnsafeRawBufferPointer) -> EXIF? {
        firstDirectory(raw).map { EXIF(parser: $0.0, primary: $0.1, keepsUnknownPrimaryFields: false) }
    }

    /// Why a TIFF-based camera raw has no raw data in the file, or `nil` when it may have: a CR2 whose raw directory
    /// (IFD3) is unreadable or points at too few bytes, or a file whose first directory is a preview and whose
    /// SubIFDs lie beyond its end.
    static func missingDataReason(_ raw: UnsafeRawBufferPointer) -> String? {
        guard let (p, ifd0) = firstDirectory(raw) else { return nil }
        if isCR2(raw) {
            // The CR2 header gives the raw directory's offset at byte 12.
            let offset = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
            guard let d = try? p.directory(at: offset, name: "IFD3") else {
                return "the CR2's raw image directory (IFD3 at byte \(offset)) cannot be read from the "
                    + "\(raw.count)-byte file (a stripped or truncated file)"
            }
            let offsets = ((try? p.integers(d, TIFFTag.stripOffsets)) ?? nil) ?? []
            let counts = ((try? p.integers(d, TIFFTag.stripByteCounts)) ?? nil) ?? []
            let bytes = counts.reduce(0, +)
            let beyond = zip(offsets, counts).contains { $0 + $1 > raw.count }
            guard bytes < minimumRawDataBytes || beyond else { return nil }
            return "the CR2's raw image directory (IFD3) points at \(bytes) bytes of data"
                + (beyond ? " past the end of the \(raw.count)-byte file" : "") + " (a stripped or truncated file)"
        }
        let subfile = ((try? p.integer(ifd0, TIFFTag.newSubfileType)) ?? nil) ?? 0
        guard subfile & 1 == 1, camera(p, ifd0) != nil else { return nil }
        let subIFDs = (try? p.childOffsets(ifd0, TIFFTag.subIFDs)) ?? []
        guard let beyond = subIFDs.first(where: { $0 >= raw.count }) else { return nil }
        return "the raw image directory (SubIFD at byte \(beyond)) lies beyond the end of the \(raw.count)-byte file"
    }
}
