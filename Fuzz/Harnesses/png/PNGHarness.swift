import FuzzSupport

@testable import LuxCodecs

/// PNG: our chunk walk (IHDR, iCCP, eXIf, iTXt XMP, gAMA/cHRM/sRGB/cICP) and the libpng wrapper, then
/// the orientation from Exif.
func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    _ = try? PNGHeader(bytes: bytes)
    _ = try? ImageFile.info(data: bytes, limits: Fuzz.options.limits)
    guard var file = try? PNG.decode(bytes, options: Fuzz.options) else { return 0 }
    file.applyOrientation()
    return 0
}

@_cdecl("fuzz_png_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzPNG) {
        let image = Seeds.gradient(width: 24, height: 16)
        var p3 = Seeds.gradient(width: 24, height: 16, alpha: true)
        p3.colorSpace = .displayP3
        let metadata = ImageMetadata(exif: Seeds.exif, xmp: Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#.utf8))
        return [
            ("rgb8.png", try PNG.encode(image)),
            ("rgba16-p3-exif-xmp.png", try PNG.encode(p3.converted(to: .rgba16), metadata: metadata)),
            ("gray8.png", try PNG.encode(image.converted(to: .gray8))),
            ("gray16.png", try PNG.encode(image.converted(to: .gray16))),
        ]
    }
}
