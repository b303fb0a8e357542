import FuzzSupport
import LuxColor
import LuxPixels

@testable import LuxCodecs

/// TIFF and DNG (and TIFF/EP camera raws): header information, full decode with the limits of ``Fuzz``,
/// the sensor values and the embedded previews of a raw file.
func fuzzTIFF(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    _ = try? ImageFile.info(data: bytes, limits: Fuzz.options.limits)
    guard let file = try? ImageFile.read(data: bytes, options: Fuzz.options) else { return 0 }
    precondition(file.pixels.width > 0 && file.pixels.height > 0)
    if let raw = file.rawImage {
        _ = try? raw.sensorValues()
        for preview in raw.properties.previews.prefix(4) where preview.data != nil {
            _ = try? preview.image(limits: Fuzz.options.limits)
        }
    }
    return 0
}

@_cdecl("fuzz_tiff_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzTIFF) {
        let rgb = Seeds.gradient(width: 40, height: 24)
        var seeds: [(String, [UInt8])] = [
            ("rgb8-strips.tiff", try TIFF.encode(rgb)),
            (
                "rgba16-deflate-tiles.tiff",
                try TIFF.encode(
                    Seeds.gradient(width: 40, height: 24, alpha: true).converted(to: .rgba16),
                    options: EncodingOptions(tiffCompression: .deflate, tiffTileSize: 16))
            ),
            (
                "float-deflate.tiff",
                try TIFF.encode(rgb.converted(to: .rgbaFloat), options: EncodingOptions(tiffCompression: .deflate))
            ),
            ("half.tiff", try TIFF.encode(rgb.converted(to: .rgbaHalf))),
            ("gray8.tiff", try TIFF.encode(rgb.converted(to: .gray8))),
            (
                "gray16-deflate.tiff",
                try TIFF.encode(rgb.converted(to: .gray16), options: EncodingOptions(tiffCompression: .deflate))
            ),
        ]
        var raw = Seeds.bayer(width: 48, height: 32)
        raw.properties.opcodeList1 = [DNGOpcode(.other(id: 4, parameters: [0, 0, 0, 0, 0, 0, 0, 0]))]
        raw.properties.opcodeList2 = Seeds.opcodes
        raw.properties.opcodeList3 = Seeds.opcodes
        raw.properties.exif = Seeds.exif
        seeds.append(("cfa-lj92-tiles.dng", try DNG.encode(raw, options: EncodingOptions(dng: .init(tileSize: 16)))))
        seeds.append(
            (
                "cfa-uncompressed.dng",
                try DNG.encode(raw, options: EncodingOptions(dng: .init(compression: .uncompressed, thumbnailSize: 8)))
            ))
        var withPreview = Seeds.bayer(width: 32, height: 32)
        withPreview.renderedPreview = Seeds.gradient(width: 16, height: 16)
        seeds.append(
            (
                "cfa-preview.dng",
                try DNG.encode(withPreview, options: EncodingOptions(dng: .init(generatesThumbnail: false)))
            ))
        var linear = Seeds.gradient(width: 24, height: 16).converted(to: .rgba16)
        linear.colorSpace = .sRGB
        seeds.append(("linear.dng", try ImageFile(pixels: linear).encoded(as: .dng)))
        return seeds
    }
}
