public import FoundationEssentials
public import LuxCodecs
public import LuxColor
import LuxFilters
public import LuxPixels
import LuxRender

/// A small upright copy of an image file, made by reading as few pixels as the size allows (the
/// `vipsthumbnail` role).
///
/// Shrink-on-load picks the cheapest source that still has at least the thumbnail's pixels: a HEIC's stored
/// thumbnail or a DNG's embedded JPEG preview when it is large enough, a JPEG (or JPEG preview) reduced by 2, 4 or 8
/// in libjpeg's DCT domain (keeping at least twice the thumbnail's size), otherwise the whole image. An exact
/// Lanczos-3 step, computed on the source's encoded values as vips and Pillow do, then gives the final size, the
/// orientation is applied once, and the pixels are colour-matched into the output colour space.
///
/// ```swift
/// let thumbnail = try Thumbnail(contentsOf: URL(fileURLWithPath: "IMG_0001.jpg"), fitting: (160, 160))
/// try ImageFile.write(thumbnail.pixels, metadata: thumbnail.metadata, to: URL(fileURLWithPath: "small.jpg"))
/// ```
public struct Thumbnail: Sendable {
    /// Which pixels of the file a thumbnail was computed from.
    public enum Source: Hashable, Sendable {
        /// The JPEG's (or the DNG's JPEG preview's) pixels reduced by 1, 2, 4 or 8 while decoding.
        case jpeg(reducedBy: Int)
        /// A DNG's or raw file's embedded JPEG preview of this size (stored orientation), itself reduced while
        /// decoding by the given factor.
        case embeddedPreview(width: Int, height: Int, reducedBy: Int)
        /// A HEIC's stored thumbnail of this size.
        case heifThumbnail(width: Int, height: Int)
        /// The whole image, decoded in full.
        case fullImage
    }

    /// The thumbnail: `.rgba8`, upright, in the output colour space.
    public var pixels: PixelBuffer
    /// The file's metadata, with orientation 1 and no ICC profile (the pixels' colour space describes them).
    public var metadata: ImageMetadata
    /// What the thumbnail was computed from.
    public var source: Source

    /// Makes the thumbnail of the image file at `url` that fits inside `box` (aspect ratio kept, never enlarged;
    /// the size ``Image/sizeToFit(width:height:inside:)`` gives for the upright image).
    ///
    /// A raw file is read through its embedded JPEG previews only: when none is at least the thumbnail's size, the
    /// initializer throws ``CodecError/missingPixelData(what:reason:)`` and the raw has to be developed instead.
    ///
    /// - Parameters:
    ///   - colorSpace: The output colour space (default: the file's).
    ///   - threads: Decoding and rendering threads (default: the machine's cores).
    /// - Throws: ``CodecError`` when the file cannot be read or decoded, ``RenderError`` when the resize fails.
    public init(
        contentsOf url: URL, fitting box: (width: Int, height: Int), colorSpace: ColorSpace? = nil,
        threads: Int? = nil
    ) throws {
        guard box.width > 0, box.height > 0 else {
            throw CodecError.invalidArgument("a thumbnail box must be at least 1 × 1, not \(box.width) × \(box.height)")
        }
        let info = try ImageFile.info(url: url)
        let orientation = info.metadata.orientation
        let upright: (width: Int, height: Int) =
            orientation.swapsDimensions ? (info.height, info.width) : (info.width, info.height)
        let size = Image.sizeToFit(width: upright.width, height: upright.height, inside: box)
        let stored: (width: Int, height: Int) = orientation.swapsDimensions ? (size.height, size.width) : size
        let options = DecodingOptions(appliesOrientation: true, threads: threads)

        var file: ImageFile
        switch info.format {
        case .jpeg:
            let bytes = try Self.bytes(of: url, range: nil)
            let factor = Self.reduction(from: (info.width, info.height), to: stored)
            file = try JPEG.decode(bytes, reducedBy: factor, options: options)
            source = .jpeg(reducedBy: factor)
        case .heic:
            let thumbnails = info.heif?.images.first?.thumbnails ?? []
            // libheif reports the thumbnails' sizes after their own rotation, like the image's.
            let fitting = thumbnails.enumerated().filter {
                $0.element.width >= size.width && $0.element.height >= size.height
            }
            if let (index, chosen) = fitting.min(by: { $0.element.width < $1.element.width }) {
                var thumbnailOptions = options
                thumbnailOptions.component = .thumbnail(index)
                file = try ImageFile.read(url: url, options: thumbnailOptions)
                file.metadata = info.metadata
                source = .heifThumbnail(width: chosen.width, height: chosen.height)
            } else {
                file = try ImageFile.read(url: url, options: options)
                source = .fullImage
            }
        case .dng, .cameraRaw:
            let previews = (info.raw?.previews ?? []).filter {
                $0.encoding == .jpeg && $0.byteRanges.count == 1 && $0.width >= stored.width
                    && $0.height >= stored.height
            }
            guard let preview = previews.min(by: { $0.width * $0.height < $1.width * $1.height }) else {
                throw CodecError.missingPixelData(
                    what: "a \(size.width) × \(size.height) thumbnail of \(url.lastPathComponent)",
                    reason: "the raw file has no embedded JPEG preview that large; develop it instead")
            }
            let bytes = try Self.bytes(of: url, range: preview.byteRanges[0])
            let factor = Self.reduction(from: (preview.width, preview.height), to: stored)
            file = try JPEG.decode(bytes, reducedBy: factor)
            file.metadata.exif = info.metadata.exif
            file.applyOrientation()
            source = .embeddedPreview(width: preview.width, height: preview.height, reducedBy: factor)
        default:
            file = try ImageFile.read(url: url, options: options)
            source = .fullImage
        }
        let inputSpace = file.pixels.colorSpace ?? .sRGB
        let output = colorSpace ?? inputSpace
        // Resampling on the encoded values (as vips and Pillow do); a gray input is resampled in linear light.
        let working: ColorSpace = inputSpace.primaries != nil ? inputSpace : .extendedLinearSRGB
        let context = RenderContext(
            options: RenderOptions(workingColorSpace: working, cacheIntermediates: false, threadCount: threads))
        let image = Image(buffer: file.pixels, colorSpace: inputSpace).resized(to: size)
        pixels = try context.createBuffer(image, format: .rgba8, colorSpace: output)
        metadata = file.metadata
        metadata.orientation = .up
        metadata.iccProfile = nil
    }

    /// The largest libjpeg reduction (1, 2, 4 or 8) of a `full`-sized JPEG that leaves at least a factor of 2 for
    /// the Lanczos step to `target` (as vipsthumbnail and Pillow's `thumbnail` do): the DCT-domain reduction alone
    /// is not a clean low-pass filter.
    static func reduction(from full: (width: Int, height: Int), to target: (width: Int, height: Int)) -> Int {
        [8, 4, 2].first { d in
            (full.width + d - 1) / d >= 2 * target.width && (full.height + d - 1) / d >= 2 * target.height
        } ?? 1
    }

    /// The bytes of the file at `url`, or of `range` within it.
    static func bytes(of url: URL, range: EmbeddedPreview.ByteRange?) throws(CodecError) -> [UInt8] {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw .io(path: url.path, reason: "\(error)")
        }
        guard let range else { return [UInt8](data) }
        guard range.offset >= 0, range.length >= 0, range.offset + range.length <= data.count else {
            throw .truncated(what: "embedded preview of \(url.lastPathComponent)", offset: data.count)
        }
        return [UInt8](data[range.offset..<range.offset + range.length])
    }
}
