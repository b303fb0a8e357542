import FuzzSupport

@testable import LuxCodecs

/// JPEG: our marker walk (APP1 Exif/XMP, APP2 ICC chunks, SOF) and the libjpeg-turbo wrapper, then the
/// orientation from Exif.
func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    _ = try? JPEGHeader(bytes: bytes)
    _ = try? ImageFile.info(data: bytes, limits: Fuzz.options.limits)
    guard var file = try? JPEG.decode(bytes, options: Fuzz.options) else { return 0 }
    file.applyOrientation()
    return 0
}

@_cdecl("fuzz_jpeg_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzJPEG) {
        let image = Seeds.gradient(width: 24, height: 16)
        var p3 = image
        p3.colorSpace = .displayP3
        let metadata = ImageMetadata(exif: Seeds.exif, xmp: Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#.utf8))
        return [
            ("baseline.jpg", try JPEG.encode(image)),
            (
                "progressive-444.jpg",
                try JPEG.encode(image, options: .init(chromaSubsampling: .none, isProgressive: true))
            ),
            ("gray.jpg", try JPEG.encode(image.converted(to: .gray8))),
            (
                "p3-exif-xmp.jpg",
                try JPEG.encode(p3, metadata: metadata, options: .init(chromaSubsampling: .horizontal))
            ),
        ]
    }
}
