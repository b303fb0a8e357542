import FuzzSupport
import LuxPixels

@testable import LuxCodecs

/// Camera raws through LibRaw: identification, the description, the full decode with the limits of ``Fuzz``, the
/// sensor values and the previews LibRaw finds — every input, whatever its first bytes (DNGs and TIFF-based raws
/// included), goes to LibRaw.
func fuzzCameraRaw(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    _ = try? CameraRaw.properties(bytes, options: Fuzz.options)
    guard let file = try? CameraRaw.decode(bytes, options: Fuzz.options) else { return 0 }
    precondition(file.pixels.width > 0 && file.pixels.height > 0)
    if let raw = file.rawImage {
        let area = raw.properties.activeArea
        precondition(area.right <= raw.pixels.width && area.bottom <= raw.pixels.height, "active area \(area)")
        _ = try? raw.sensorValues()
        for preview in raw.properties.previews.prefix(4) where preview.data != nil {
            _ = try? preview.image(limits: Fuzz.options.limits)
        }
    }
    return 0
}

@_cdecl("fuzz_cameraraw_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzCameraRaw) {
        // DNGs LibRaw reads like any camera raw: uncompressed and lossless-JPEG Bayer mosaics.
        let raw = Seeds.bayer(width: 48, height: 32)
        return [
            (
                "cfa-uncompressed.dng",
                try DNG.encode(raw, options: EncodingOptions(dng: .init(compression: .uncompressed)))
            ),
            ("cfa-lj92.dng", try DNG.encode(raw)),
        ]
    }
}
