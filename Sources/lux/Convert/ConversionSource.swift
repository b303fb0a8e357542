import Foundation
import Lux

/// What `lux convert` reads from one input: the picture as a lazy image (upright), its metadata and colour space,
/// and for a HEIC its HDR description and HDR gain map.
struct ConversionSource {
    /// The picture, its pixels read strip by strip when the render needs them.
    var image: Image
    var metadata: ImageMetadata
    /// The colour space of the input's values.
    var colorSpace: ColorSpace
    /// Whether the input has more than 8 bits per sample (deeper outputs by default).
    var isDeep: Bool
    /// Whether the input stores no alpha (its outputs then have none either).
    var isOpaque = true
    /// The brightest value of a PQ or HLG input (linear light, 203 cd/m² = 1.0); `nil` for SDR inputs.
    var hdrPeak: Double?
    /// The HEIC's HDR gain map (gray, with its XMP), when it was loaded.
    var hdrGainMap: ImageFile?
    /// Whether the input stores a thumbnail (a HEIC's), so the output gets one too.
    var hasThumbnail = false
    /// The reader whose regions ``image`` still is, unchanged (`nil` once the picture is resized or re-rendered, and
    /// for raws): an encoder may take its rows directly.
    var reader: ImageRegionReader?

    /// Opens `url`: a raw is developed (or its largest preview decoded), anything else read through an
    /// ``ImageRegionReader``; a HEIC's gain map is loaded when it will be kept in a HEIC output or applied.
    init(
        url: URL, imageIndex: Int, raw: RawInputArgument, gainMap: GainMapArgument, writesHEIC: Bool,
        intent: RenderingIntent = .relativeColorimetric
    ) throws {
        if BatchPlan.rawExtensions.contains(url.pathExtension.lowercased()) {
            self = try raw == .develop ? Self.developed(url) : Self.preview(url)
            return
        }
        var options = DecodingOptions(appliesOrientation: true, imageIndex: imageIndex)
        options.renderingIntent = intent
        let reader = try ImageRegionReader(url: url, options: options)
        image = Image(reading: reader, url: url)
        self.reader = reader
        metadata = reader.metadata
        colorSpace = reader.colorSpace ?? .sRGB
        isDeep = ![PixelFormat.rgba8, .bgra8, .gray8].contains(reader.pixelFormat)
        isOpaque = reader.isOpaque
        guard reader.format == .heic else { return }
        let description = try ImageFile.info(url: url).heif?.images[imageIndex]
        hdrPeak = description?.nclx?.nominalPeak
        hasThumbnail = !(description?.thumbnails.isEmpty ?? true)
        let hasGainMap = description?.auxiliaryImages.contains { $0.kind == .hdrGainMap } ?? false
        if hasGainMap, gainMap == .apply || (gainMap == .keep && writesHEIC) {
            hdrGainMap = try ImageFile.read(
                url: url, options: DecodingOptions(imageIndex: imageIndex, component: .hdrGainMap))
        }
    }

    private init(image: Image, metadata: ImageMetadata, colorSpace: ColorSpace, isDeep: Bool) {
        self.image = image
        self.metadata = metadata
        self.colorSpace = colorSpace
        self.isDeep = isDeep
    }

    /// A raw developed with LuxRAW's defaults (scene white balance, noise reduction and lens corrections from the file).
    private static func developed(_ url: URL) throws -> ConversionSource {
        let developer = try RAWDeveloper(url: url)
        let image = try developer.outputImage
        return ConversionSource(
            image: image, metadata: developer.outputMetadata(for: image), colorSpace: .sRGB, isDeep: true)
    }

    /// A raw's largest embedded JPEG preview, with the raw's Exif.
    private static func preview(_ url: URL) throws -> ConversionSource {
        let info = try ImageFile.info(url: url)
        let previews = (info.raw?.previews ?? []).filter { $0.encoding == .jpeg && $0.byteRanges.count == 1 }
        guard let largest = previews.max(by: { $0.width * $0.height < $1.width * $1.height }) else {
            throw CLIError("\(url.path): the raw file has no embedded JPEG preview; convert it with --raw develop")
        }
        let range = largest.byteRanges[0]
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(range.offset))
        let bytes = [UInt8](try handle.read(upToCount: range.length) ?? Data())
        var preview = try JPEG.decode(bytes)
        preview.metadata.exif = info.metadata.exif
        preview.applyOrientation()
        let space = preview.pixels.colorSpace ?? .sRGB
        return ConversionSource(
            image: Image(buffer: preview.pixels), metadata: preview.metadata, colorSpace: space, isDeep: false)
    }

    /// The gain map to store with a HEIC output (scaled like the image).
    var keptGainMap: AuxiliaryImage? {
        hdrGainMap.map { AuxiliaryImage(type: HEIFAuxiliaryKind.appleHDRGainMapType, file: $0) }
    }

    /// Replaces the picture with its HDR rendition (extended linear light of the same primaries), brightened up to
    /// `headroom` (default: the maker note's, from Apple's tags 33 and 48).
    mutating func applyGainMap(headroom given: Double?) throws {
        guard let gainMap = hdrGainMap else { return }
        guard let headroom = given ?? metadata.exif.appleMakerNote?.hdrHeadroom else {
            throw CLIError(
                "the photo's maker note lacks Apple's HDR tags 33 and 48 (Apple counts the gain map valid only with both): give the headroom with --hdr-headroom"
            )
        }
        image = image.applyingHDRGainMap(gainMap.pixels, headroom: headroom)
        colorSpace = colorSpace.linearized().withExtendedRange(true, name: "Extended Linear " + colorSpace.name)
        hdrPeak = headroom
        hdrGainMap = nil
        reader = nil
    }

    /// Scales the picture (and a kept gain map by the same factors) to fit inside `box`.
    mutating func resize(toFit box: (width: Int, height: Int)) {
        let before = image.extent
        image = image.resizedToFit(box)
        if image.extent.size != before.size { reader = nil }
        guard var gainMap = hdrGainMap, image.extent.size != before.size else { return }
        let scale = (x: image.extent.width / before.width, y: image.extent.height / before.height)
        let size = (
            width: max(1, Int((Double(gainMap.pixels.width) * scale.x).rounded())),
            height: max(1, Int((Double(gainMap.pixels.height) * scale.y).rounded()))
        )
        let gray = Image(buffer: gainMap.pixels.converted(to: .rgba8), colorSpace: nil)
        let scaled = gray.resizedToFit(size)
        if let rendered = try? RenderContext(options: RenderOptions(workingColorSpace: nil)).createBuffer(
            scaled, format: .rgba8, colorSpace: nil)
        {
            gainMap.pixels = rendered.converted(to: .gray8)
            hdrGainMap = gainMap
        }
    }
}
