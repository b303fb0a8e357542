import FuzzSupport
import LuxPixels

@testable import LuxCodecs

/// HEIF/HEIC: Lux's grid-layout parse of the `meta` box (on every input, whatever libheif makes of it), and its
/// wrapper of libheif — the description of every top-level image (thumbnails, auxiliary images, nclx, depth
/// representation, metadata blocks, grid layout), the Exif/XMP/ICC metadata handling, and the decode of the primary
/// and second image, a thumbnail, the depth map and the HDR gain map with orientation; a decoded image is non-empty.
func fuzzHEIF(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    // The grid-layout parse runs whatever libheif thinks of the file: it must throw, never trap or hang.
    let grids = bytes.withUnsafeBytes { raw in (try? HEIFGridParser(raw).layouts()) ?? [:] }
    for grid in grids.values {
        precondition(grid.rows >= 1 && grid.columns >= 1 && grid.tileWidth > 0 && grid.tileHeight > 0)
        precondition(grid.columns * grid.tileWidth >= grid.width && grid.rows * grid.tileHeight >= grid.height)
    }
    guard let info = try? ImageFile.info(data: bytes, limits: Fuzz.options.limits) else { return 0 }
    let images = info.heif?.images.count ?? 0
    if images > 1 { _ = try? ImageFile.info(data: bytes, limits: Fuzz.options.limits, imageIndex: images - 1) }
    let components: [ImageComponent] = [.main, .thumbnail(0), .depth, .hdrGainMap]
    for (index, component) in [(0, ImageComponent.main), (min(1, max(images - 1, 0)), .main)]
        + components.dropFirst().map({ (0, $0) })
    {
        var options = Fuzz.options
        options.imageIndex = index
        options.component = component
        options.appliesOrientation = true
        guard let file = try? HEIF.decode(bytes, options: options) else { continue }
        precondition(file.pixels.width > 0 && file.pixels.height > 0, "a decoded HEIF image is empty")
    }
    return 0
}

@_cdecl("fuzz_heif_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzHEIF) {
        let image = Seeds.gradient(width: 48, height: 32)
        var p3 = Seeds.gradient(width: 40, height: 24)
        p3.colorSpace = .displayP3
        let metadata = ImageMetadata(exif: Seeds.exif, xmp: Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#.utf8))
        let gain = AuxiliaryImage(
            type: HEIFAuxiliaryKind.appleHDRGainMapType,
            pixels: Seeds.gradient(width: 24, height: 16).converted(to: .gray8))
        var ten = EncodingOptions.default
        ten.sampleType = .uint10
        return [
            ("rgb8.heic", try HEIF.encode(image)),
            ("p3-exif-xmp-thumbnail.heic", try HEIF.encode(p3, metadata: metadata, thumbnail: image)),
            ("gainmap.heic", try HEIF.encode(image, auxiliaryImages: [gain])),
            ("ten-bit.heic", try HEIF.encode(image.converted(to: .rgba16), options: ten)),
        ]
    }
}
