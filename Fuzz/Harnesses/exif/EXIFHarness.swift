import FuzzSupport

@testable import LuxCodecs

/// Exif blocks (a TIFF structure: IFD0, Exif, GPS and interoperability IFDs) and the Apple maker note;
/// whatever reads must write back to bytes that read again.
func fuzzEXIF(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    _ = AppleMakerNote(bytes: bytes)
    guard let exif = try? EXIF(tiffBytes: bytes) else { return 0 }
    if let note = exif.makerNote { _ = AppleMakerNote(bytes: note) }
    for bigEndian in [false, true] {
        let written = exif.tiffBytes(bigEndian: bigEndian)
        guard (try? EXIF(tiffBytes: written)) != nil else { fatalError("written Exif does not read back") }
    }
    return 0
}

@_cdecl("fuzz_exif_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzEXIF) {
        var small = EXIF()
        small.orientation = .left
        return [
            ("camera-le.exif", Seeds.exif.tiffBytes(bigEndian: false)),
            ("camera-be.exif", Seeds.exif.tiffBytes(bigEndian: true)),
            ("orientation.exif", small.tiffBytes()),
            ("apple-makernote.bin", Seeds.exif.makerNote ?? []),
        ]
    }
}
