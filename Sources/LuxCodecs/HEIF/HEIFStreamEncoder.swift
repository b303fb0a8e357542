import LuxColor
import LuxPixels

/// A HEIC encoder fed band by band (``ImageStreamEncoder``'s HEIC backend).
///
/// Bands are colour-matched into the output space, kept a tile row at a time and encoded as 512 × 512 HEVC grid
/// tiles; a thumbnail (long side 320, as iOS stores) is reduced from the same bands. ``finish()`` adds the thumbnail,
/// auxiliary images, ICC profile, Exif (orientation 1: the pixels are written upright) and XMP, and lays out the
/// file.
final class HEIFStreamEncoder {
    let width: Int
    let height: Int
    let bitDepth: Int
    /// The colour space of the file (its ICC profile describes it).
    let space: ColorSpace
    let metadata: ImageMetadata
    let options: EncodingOptions
    /// A thumbnail to store instead of the one reduced from the image.
    var thumbnail: PixelBuffer?
    /// Auxiliary images to store (HDR gain map, depth).
    var auxiliaryImages: [AuxiliaryImage] = []
    private var counter: BandCounter
    private let grid: HEIFGridEncoder
    private var reduction: ThumbnailReduction?

    /// The long side of the thumbnails iOS stores.
    static let thumbnailSide = 320

    var rowsWritten: Int { counter.rowsWritten }

    init(
        width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace?, metadata: ImageMetadata,
        options: EncodingOptions
    ) throws(CodecError) {
        guard !pixelFormat.isBayer else {
            throw .invalidArgument("a Bayer mosaic cannot be written as HEIC; develop it first (or write a DNG)")
        }
        // 256 × 256 tiles of 512: the grid's limit (its row and column counts are bytes).
        let limit = 256 * HEIFGridEncoder.tileSide
        guard (1...limit).contains(width), (1...limit).contains(height) else {
            throw .invalidArgument("HEIC images are 1…\(limit) pixels wide and high, not \(width)×\(height)")
        }
        switch options.sampleType {
        case .automatic:
            bitDepth = [.uint8, .packed10].contains(pixelFormat.componentType) ? 8 : 10
        case .uint8: bitDepth = 8
        case .uint10: bitDepth = 10
        default:
            throw .invalidArgument(
                "HEIC stores 8- or 10-bit samples, not \(options.sampleType.rawValue) (use sampleType .uint8 or .uint10)"
            )
        }
        self.width = width
        self.height = height
        self.metadata = metadata
        self.options = options
        space = Self.outputSpace(for: colorSpace, options: options)
        counter = BandCounter(width: width, height: height, name: "HEIC")
        grid = HEIFGridEncoder(
            width: width, height: height, settings: Self.settings(space: space, bitDepth: bitDepth, options: options),
            sampleFormat: bitDepth > 8 ? .rgba16 : .rgba8, threads: options.threads)
        if options.embedsThumbnail ?? true, max(width, height) > Self.thumbnailSide {
            let r = ThumbnailReduction(width: width, height: height, side: Self.thumbnailSide)
            // x265 codes pictures of at least one 64 × 64 CTU: a thumbnail of a very long strip is left out.
            if min(r.thumbWidth, r.thumbHeight) >= 64 { reduction = r }
        }
    }

    /// The space a HEIC of pixels in `space` is written in: the requested one (sRGB when optimising for sharing),
    /// with the sRGB curve instead of a linear or extended one; RGB for gray input.
    static func outputSpace(for space: ColorSpace?, options: EncodingOptions) -> ColorSpace {
        var target = options.colorSpace ?? space ?? .sRGB
        if options.optimizesColorForSharing { target = .sRGB }
        if target.model == .gray { target = .sRGB }
        return ColorProfiles.integerEncodingSpace(for: target)
    }

    /// x265's settings for `space`: rate factor 50 × (1 − quality) — libheif's mapping, so quality q matches
    /// `heif-enc -q 100q` — x265's "slow" preset (libheif's default), and the colour description for the VUI.
    static func settings(space: ColorSpace, bitDepth: Int, options: EncodingOptions, monochrome: Bool = false)
        -> HEVCPicture.Settings
    {
        let quality = min(max(options.quality, 0), 1)
        let primaries =
            space.primaries.map { p in
                p == .rec709 ? 1 : p == .p3 ? 12 : p == .rec2020 ? 9 : 2
            } ?? 2
        let transfer =
            space.transferFunction == .sRGB
            ? 13 : space.transferFunction == .rec709 ? 1 : space.transferFunction.isLinear ? 8 : 2
        return HEVCPicture.Settings(
            bitDepth: bitDepth, monochrome: monochrome, rateFactor: 50 * (1 - quality), preset: "slow",
            primaries: monochrome ? 2 : primaries, transfer: monochrome ? 2 : transfer, matrix: monochrome ? 2 : 6)
    }

    /// Encodes the next band (any RGB(A) or gray format; its colour space defaults to the stream's).
    func append(_ band: PixelBuffer, colorSpace: ColorSpace?) throws(CodecError) {
        try counter.check(band)
        var source = band
        if source.colorSpace == nil { source.colorSpace = colorSpace }
        let prepared = try prepare(source)
        reduction?.add(prepared)
        try grid.append(prepared)
        counter.advance(by: band.height)
    }

    /// The band in the file's space and sample format (`.rgba8`, or `.rgba16` for 10 bits).
    private func prepare(_ band: PixelBuffer) throws(CodecError) -> PixelBuffer {
        let wanted: PixelFormat = bitDepth > 8 ? .rgba16 : .rgba8
        var buffer = band
        if let source = buffer.colorSpace, !source.isColorimetricallyEqual(to: space) || source.isExtendedRange {
            let working =
                buffer.format.isFloatingPoint ? buffer : buffer.converted(to: .rgbaFloat, threads: options.threads)
            do { buffer = try working.matchingColors(to: space, threads: options.threads) } catch {
                throw .invalidArgument("cannot convert the pixels to \(space.name): \(error)")
            }
        }
        if buffer.format != wanted { buffer = buffer.converted(to: wanted, threads: options.threads) }
        return buffer
    }

    /// Completes the file and returns its bytes.
    func finish() throws(CodecError) -> [UInt8] {
        try counter.finish()
        var file = HEIFContainer(
            brands: bitDepth > 8 ? ("heix", ["mif1", "heix"]) : ("heic", ["mif1", "heic"]), primary: 0)
        let icc = ColorProfiles.profileToEmbed(for: space, original: metadata.iccProfile, options: options)
        let primary = addGrid(grid, to: &file, icc: icc)
        file.primary = primary
        if let thumb = try thumbnailPicture() {
            let id = file.nextID
            let settings = Self.settings(space: space, bitDepth: bitDepth, options: options)
            var properties = [
                (file.property(try thumb.picture.configurationBox(settings: settings)), true),
                (file.property(HEIFContainer.ispe(width: thumb.width, height: thumb.height)), false),
                (file.property(HEIFContainer.pixi(bitDepth: bitDepth, channels: 3)), false),
            ]
            if let icc { properties.append((file.property(HEIFContainer.iccColor(icc)), false)) }
            file.items.append(.init(id: id, type: "hvc1", data: thumb.picture.data, properties: properties))
            file.references.append(("thmb", id, [primary]))
        }
        for auxiliary in auxiliaryImages { try add(auxiliary, to: &file, primary: primary) }
        addMetadata(metadata, to: &file, describing: primary, exif: true)
        return file.bytes()
    }

    /// Adds the grid item and its tiles; returns the grid's item ID.
    private func addGrid(_ grid: HEIFGridEncoder, to file: inout HEIFContainer, icc: [UInt8]?) -> UInt16 {
        let gridID = file.nextID
        let channels = grid.settings.monochrome ? 1 : 3
        var gridProperties = [
            (file.property(HEIFContainer.ispe(width: grid.width, height: grid.height)), false),
            (file.property(HEIFContainer.pixi(bitDepth: grid.settings.bitDepth, channels: channels)), false),
        ]
        if let icc { gridProperties.append((file.property(HEIFContainer.iccColor(icc)), false)) }
        file.items.append(
            .init(
                id: gridID, type: "grid",
                data: HEIFContainer.gridDescriptor(
                    rows: grid.rows, columns: grid.columns, width: grid.width, height: grid.height),
                properties: gridProperties))
        let tileSize = file.property(HEIFContainer.ispe(width: grid.tileWidth, height: grid.tileHeight))
        var tileIDs: [UInt16] = []
        for tile in grid.tiles {
            let id = file.nextID
            // Every tile of one grid shares the encoder settings, so their configurations are identical boxes.
            let configuration = (try? tile.configurationBox(settings: grid.settings)) ?? []
            file.items.append(
                .init(
                    id: id, type: "hvc1", hidden: true, data: tile.data,
                    properties: [(file.property(configuration), true), (tileSize, false)]))
            tileIDs.append(id)
        }
        file.references.append(("dimg", gridID, tileIDs))
        return gridID
    }

    /// Encodes `auxiliary` as a 4:0:0 picture with its `auxC` type, referenced (`auxl`) to the primary image: one
    /// hidden `hvc1` item as iPhones store gain maps and depth (libheif 1.15 decodes a monochrome grid only as RGB);
    /// a grid only when the image is too small or too large for one x265 picture.
    private func add(_ auxiliary: AuxiliaryImage, to file: inout HEIFContainer, primary: UInt16) throws(CodecError) {
        let pixels = auxiliary.pixels
        let sixteen = pixels.format.componentType != .uint8
        let gray: PixelFormat = sixteen ? .gray16 : .gray8
        let samples = pixels.format == gray ? pixels : pixels.converted(to: gray, threads: options.threads)
        let settings = Self.settings(
            space: .linearGray, bitDepth: sixteen ? 10 : 8, options: options, monochrome: true)
        let single = (64...8192).contains(samples.width) && (64...8192).contains(samples.height)
        let encoder = HEIFGridEncoder(
            width: samples.width, height: samples.height, settings: settings, sampleFormat: gray,
            threads: options.threads, single: single)
        try encoder.append(samples)
        let id: UInt16
        if single, let picture = encoder.tiles.first {
            id = file.nextID
            let properties = [
                (file.property(try picture.configurationBox(settings: settings)), true),
                (file.property(HEIFContainer.ispe(width: samples.width, height: samples.height)), false),
                (file.property(HEIFContainer.pixi(bitDepth: settings.bitDepth, channels: 1)), false),
            ]
            file.items.append(.init(id: id, type: "hvc1", hidden: true, data: picture.data, properties: properties))
        } else {
            id = addGrid(encoder, to: &file, icc: nil)
        }
        if let i = file.items.firstIndex(where: { $0.id == id }) {
            file.items[i].properties.append((file.property(HEIFContainer.auxiliaryType(auxiliary.type)), true))
        }
        file.references.append(("auxl", id, [primary]))
        addMetadata(auxiliary.metadata, to: &file, describing: id, exif: false)
    }

    /// Adds Exif (orientation 1, sizes of this image) and XMP items describing item `id`.
    private func addMetadata(_ metadata: ImageMetadata, to file: inout HEIFContainer, describing id: UInt16, exif: Bool)
    {
        if exif, !metadata.exif.isEmpty {
            var e = metadata.exif.completedForImage(
                width: width, height: height, isWideGamut: !space.isColorimetricallyEqual(to: .sRGB), isYCbCr: true)
            e.orientation = .up
            // Apple's layout: the offset 6 skips an "Exif\0\0" prefix before the TIFF header.
            let data: [UInt8] = [0, 0, 0, 6] + Array("Exif".utf8) + [0, 0] + e.tiffBytes(bigEndian: true)
            let itemID = file.nextID
            file.items.append(.init(id: itemID, type: "Exif", hidden: true, data: data))
            file.references.append(("cdsc", itemID, [id]))
        }
        if let xmp = metadata.xmp {
            let itemID = file.nextID
            file.items.append(
                .init(id: itemID, type: "mime", hidden: true, contentType: "application/rdf+xml", data: xmp))
            file.references.append(("cdsc", itemID, [id]))
        }
    }

    /// The thumbnail picture: the one given (reduced to fit 320 pixels if larger) or the one reduced from the bands.
    private func thumbnailPicture() throws(CodecError) -> (picture: HEVCPicture, width: Int, height: Int)? {
        let pixels: PixelBuffer
        if let given = thumbnail {
            var source = given
            if source.colorSpace == nil { source.colorSpace = space }
            let prepared = try prepare(source)
            var r = ThumbnailReduction(width: prepared.width, height: prepared.height, side: Self.thumbnailSide)
            r.add(prepared)
            pixels = r.result(format: prepared.format)
        } else if let reduction {
            pixels = reduction.result(format: bitDepth > 8 ? .rgba16 : .rgba8)
        } else {
            return nil
        }
        guard min(pixels.width, pixels.height) >= 64 else { return nil }
        let encoder = HEIFGridEncoder(
            width: pixels.width, height: pixels.height,
            settings: Self.settings(space: space, bitDepth: bitDepth, options: options),
            sampleFormat: pixels.format, threads: 1, single: true)
        try encoder.append(pixels)
        guard let picture = encoder.tiles.first else { return nil }
        return (picture, pixels.width, pixels.height)
    }
}
