internal import CHEIF
import LuxColor
import LuxPixels

/// HEIF/HEIC reading through libheif (HEVC decoding by libde265) and writing as iOS does (512 × 512 HEVC grid tiles
/// encoded with x265).
///
/// Reading returns the image libheif decodes — any of the file's top-level images (``DecodingOptions/imageIndex``), or
/// a thumbnail, depth map, HDR gain map or other auxiliary image (``DecodingOptions/component``) — with its HEIF
/// transforms (`irot`, `imir`, `clap`) applied exactly once. The Exif orientation of a HEIF file is reported as `.up`:
/// the HEIF transforms are authoritative (ISO/IEC 23008-12), so a reader that also applied the Exif tag would rotate
/// twice. Colour comes from the ICC profile (`prof`, Display P3 on iPhones) or else the `nclx` description; PQ and HLG
/// images decode to extended linear light with the BT.2408 reference white (203 cd/m²) at 1.0, as ``PixelFormat/rgbaFloat``.
///
/// ```swift
/// let photo = try HEIF.decode(bytes)                    // the primary image, upright
/// let depth = try HEIF.decode(bytes, options: .init(component: .depth))
/// let heic = try HEIF.encode(photo.pixels, metadata: photo.metadata, options: .init(quality: 0.6))
/// ```
public enum HEIF {
    /// Decodes a HEIF file held in memory.
    ///
    /// - Throws: ``CodecError`` for damaged, truncated or unsupported data, sizes beyond `options.limits`, and a
    ///   ``DecodingOptions/imageIndex`` or ``DecodingOptions/component`` the file does not have
    ///   (``CodecError/invalidArgument(_:)``).
    public static func decode(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        try withBytes(of: bytes) { raw throws(CodecError) in try decode(raw, options: options) }
    }

    static func decode(_ raw: UnsafeRawBufferPointer, options: DecodingOptions) throws(CodecError) -> ImageFile {
        let options = options.budgeted()
        let selected = try open(raw, options: options)
        let pixels = try selected.image.pixels(
            colorSpace: selected.colorSpace, options: options, what: selected.what)
        return ImageFile(pixels: pixels, metadata: selected.metadata, format: format(raw))
    }

    /// The image of a HEIF file that `options` selects, decoded to planes, with its colour space and metadata.
    static func open(_ raw: UnsafeRawBufferPointer, options: DecodingOptions) throws(CodecError) -> HEIFSelection {
        let context = try HEIFContext(raw, limits: options.limits, threads: options.threads)
        let top = try context.image(at: options.imageIndex)
        let target = try top.component(options.component)
        var metadata = ImageMetadata()
        let space: ColorSpace?
        let transfer: HEIFTransfer
        let gray: Bool
        switch options.component {
        case .main, .thumbnail:
            gray = false
            let nclx = target.nclx ?? top.nclx
            let icc = target.iccProfile ?? top.iccProfile
            (space, transfer) = colorSpace(icc: icc, nclx: nclx)
            if case .main = options.component {
                metadata = top.metadata
            }
            metadata.iccProfile = icc
            // The HEIF transforms are applied by libheif; an Exif orientation must not rotate the result again.
            if metadata.exif.orientation != nil { metadata.exif.orientation = .up }
        case .depth, .hdrGainMap, .auxiliary:
            // Data images: values, not colours.
            gray = true
            space = nil
            transfer = .curve(.linear)
            metadata = target.metadata
        }
        let image = try HEIFDecodedImage(target, gray: gray, transfer: transfer, options: options)
        return HEIFSelection(
            image: image, colorSpace: space, metadata: metadata, what: target.role.name, format: format(raw))
    }

    /// The colour space of decoded values from an ICC profile or an `nclx` description (sRGB, libheif's own fallback,
    /// when there is neither); PQ and HLG descriptions win over a profile, since Lux linearises them itself.
    static func colorSpace(icc: [UInt8]?, nclx: HEIFNCLX?) -> (ColorSpace, HEIFTransfer) {
        if let nclx, nclx.transfer.isHDR { return (nclx.colorSpace, nclx.transfer) }
        if let icc, let space = ColorProfiles.colorSpace(fromProfile: icc) {
            return (space, .curve(space.transferFunction))
        }
        if let nclx { return (nclx.colorSpace, nclx.transfer) }
        return (.sRGB, .curve(.sRGB))
    }

    /// Describes a HEIF file without decoding pixels: the primary image (or the one `options` selects) in the
    /// ``ImageInfo`` fields, and every image in ``ImageInfo/heif``.
    static func info(_ raw: UnsafeRawBufferPointer, limits: DecodingLimits, imageIndex: Int = 0) throws(CodecError)
        -> ImageInfo
    {
        let context = try HEIFContext(raw, limits: limits, threads: 1)
        let ids = context.topLevelImageIDs
        // The grid layout is only described, never needed to decode: a file whose grid boxes Lux cannot read is still
        // described (without it) as long as libheif reads it.
        let grids = (try? HEIFGridParser(raw).layouts()) ?? [:]
        var images: [HEIFImageDescription] = []
        for i in ids.indices {
            var image = try context.image(at: i).describe(index: i)
            image.grid = grids[image.itemID]
            images.append(image)
        }
        let top = try context.image(at: imageIndex)
        let (space, transfer) = colorSpace(icc: top.iccProfile, nclx: top.nclx)
        var metadata = top.metadata
        if metadata.exif.orientation != nil { metadata.exif.orientation = .up }
        let bits = top.bitDepth
        let format: PixelFormat = transfer.isHDR ? .rgbaFloat : bits > 8 ? .rgba16 : .rgba8
        let brands = HEIFContext.brands(raw)
        let description = images[imageIndex]
        let fileFormat = HEIF.format(raw)
        var storage = "\(fileFormat == .avif ? "AV1" : "HEVC") \(bits)-bit"
        if description.storedWidth != description.width || description.storedHeight != description.height {
            storage += ", coded \(description.storedWidth)×\(description.storedHeight)"
        }
        if let grid = description.grid {
            storage += ", grid of \(grid.columns)×\(grid.rows) \(grid.tileWidth)×\(grid.tileHeight) tiles"
        }
        storage += ", \(ids.count) image\(ids.count == 1 ? "" : "s")"
        return ImageInfo(
            format: fileFormat, width: top.width, height: top.height, pixelFormat: format, bitsPerSample: bits,
            samplesPerPixel: top.hasAlpha ? 4 : 3, hasAlpha: top.hasAlpha, colorSpace: space, storage: storage,
            metadata: metadata, raw: nil,
            heif: HEIFContents(mainBrand: brands.main, compatibleBrands: brands.compatible, images: images))
    }

    /// Whether `raw` starts a HEIF file libheif reads (an ISO base media file with a HEIF brand: HEIC, or AVIF).
    static func check(_ raw: UnsafeRawBufferPointer) throws(CodecError) -> Bool {
        guard raw.count >= 12, let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
            Array(raw[4..<8]) == Array("ftyp".utf8)
        else { return false }
        switch heif_check_filetype(base, Int32(clamping: min(raw.count, 1 << 20))) {
        case heif_filetype_yes_supported, heif_filetype_yes_unsupported: return true
        default: return false
        }
    }

    /// The format of a HEIF file: `.avif` for the AVIF brands (AV1 images), `.heic` for the others.
    static func format(_ raw: UnsafeRawBufferPointer) -> ImageFormat {
        ["avif", "avis"].contains(HEIFContext.brands(raw).main) ? .avif : .heic
    }
}

/// The image of a HEIF file a decode selected: its planes, colour space and metadata.
struct HEIFSelection {
    let image: HEIFDecodedImage
    let colorSpace: ColorSpace?
    let metadata: ImageMetadata
    let what: String
    /// `.heic` or `.avif`.
    let format: ImageFormat
}
