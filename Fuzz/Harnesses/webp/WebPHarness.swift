import FuzzSupport

@testable import LuxCodecs

/// WebP: the RIFF chunk walk (libwebpdemux), the metadata chunks (ICCP, EXIF, XMP), and libwebp's decoders for a
/// still image and for the frames of an animation.
func fuzzWebP(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    _ = try? ImageFile.info(data: bytes, limits: Fuzz.options.limits)
    _ = try? WebP.decode(bytes, options: Fuzz.options)
    var second = Fuzz.options
    second.imageIndex = 1
    _ = try? WebP.decode(bytes, options: second)
    return 0
}

@_cdecl("fuzz_webp_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzWebP) {
        let image = Seeds.gradient(width: 24, height: 16)
        var p3 = Seeds.gradient(width: 24, height: 16, alpha: true)
        p3.colorSpace = .displayP3
        let metadata = ImageMetadata(exif: Seeds.exif, xmp: Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#.utf8))
        var lossless = EncodingOptions()
        lossless.isLossless = true
        let animation = try AnimationEncoder(format: .webp, width: 24, height: 16)
        try animation.append(image, duration: 0.1)
        try animation.append(p3, duration: 0.1)
        return [
            ("lossy.webp", try WebP.encode(image)),
            ("lossless-alpha-p3-exif-xmp.webp", try WebP.encode(p3, metadata: metadata, options: lossless)),
            ("animation.webp", try animation.finish()),
        ]
    }
}
