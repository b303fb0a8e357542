public import LuxCodecs
public import LuxColor
public import LuxPixels

/// A photo delivered by ``PhotoCaptureEvent/didFinishProcessingPhoto(_:)`` (AVCapturePhoto): the processed
/// pixels or the RAW mosaic, the preview, the metadata, and which bracket item it is.
///
/// ```swift
/// case .didFinishProcessingPhoto(let photo):
///     let bytes = try photo.fileDataRepresentation()          // JPEG (EXIF + ICC) or DNG (with preview)
///     try Data(bytes).write(to: folder.appending(path: "IMG_\(photo.resolvedSettings.uniqueID).\(photo.fileExtension)"))
/// ```
public struct CapturedPhoto: Sendable, CustomStringConvertible {
    /// The request's resolved settings.
    public var resolvedSettings: ResolvedPhotoSettings
    /// When the (reference) exposure started, on the device clock.
    public var timestamp: MediaTime
    /// Whether this is the RAW photo of the request.
    public var isRawPhoto: Bool
    /// The processed pixels (in the settings' pixel format, or the pixels a compressed photo was encoded from),
    /// tagged with their colour space; `nil` for RAW photos.
    public var pixelBuffer: PixelBuffer?
    /// The Bayer mosaic of a RAW photo; `nil` for processed photos.
    public var rawBuffer: PixelBuffer?
    /// The preview (thumbnail), when the settings asked for one.
    public var previewPixelBuffer: PixelBuffer?
    /// EXIF metadata (exposure, ISO, lens, flash, dimensions, bracket bias).
    public var metadata: EXIF
    /// The bracket item this photo belongs to (`nil` outside brackets).
    public var bracketSettings: BracketedExposure?
    /// The 1-based position of the photo's bracket item (1 outside brackets).
    public var sequenceCount: Int
    /// The 1-based position of this photo among the request's deliveries (up to
    /// ``ResolvedPhotoSettings/expectedPhotoCount``).
    public var photoCount: Int
    /// The processed format (`nil` for RAW photos).
    public var processedFormat: ProcessedPhotoFormat?
    /// What the RAW mosaic needs to be read (levels, colour calibration, noise), for RAW photos.
    public var rawDescription: RAWDescription?
    /// The compressed file for codec formats, made while processing.
    var encodedData: [UInt8]?

    /// The colour space of processed pixels.
    public var colorSpace: ColorSpace? { pixelBuffer?.colorSpace }

    /// The file name extension of ``fileDataRepresentation()``: "jpg", "heic", "tiff" or "dng".
    public var fileExtension: String {
        if isRawPhoto { return "dng" }
        if case .codec(let c)? = processedFormat { return c.fileExtension }
        return "tiff"
    }

    /// The photo as a file: JPEG or HEIC with EXIF and the colour space's ICC profile (Display P3 for wide-colour
    /// photos) for compressed photos (a HEIC has the preview, when requested, as its thumbnail), TIFF with EXIF and ICC for uncompressed ones, and DNG — with colour matrices,
    /// as-shot neutral, noise profile, EXIF and the preview embedded — for RAW photos.
    ///
    /// - Throws: ``CaptureError/processing(_:)`` when encoding fails.
    public func fileDataRepresentation() throws(CaptureError) -> [UInt8] {
        if let encodedData { return encodedData }
        do {
            if isRawPhoto {
                guard let raw = rawBuffer, let description = rawDescription else {
                    throw CaptureError.processing("the RAW photo has no mosaic")
                }
                let image = RAWPacking.rawImage(
                    raw, description: description, exif: metadata, preview: previewPixelBuffer,
                    margin: description.cropMargin)
                return try DNG.encode(image)
            }
            guard var pixels = pixelBuffer else { throw CaptureError.processing("the photo has no pixels") }
            if pixels.format.isYCbCr { pixels = pixels.converted(to: .rgba8) }
            return try ImageFile(pixels: pixels, metadata: ImageMetadata(exif: metadata), format: .tiff).encoded(
                options: EncodingOptions(alpha: .discard))
        } catch let error as CaptureError {
            throw error
        } catch {
            throw .processing("\(error)")
        }
    }

    public var description: String {
        var s = isRawPhoto ? "RAW" : (processedFormat?.description ?? "photo")
        if let b = pixelBuffer ?? rawBuffer { s += " \(b.width)×\(b.height)" }
        if let p = previewPixelBuffer { s += " + preview \(p.width)×\(p.height)" }
        if let bracketSettings { s += " [\(sequenceCount)] \(bracketSettings)" }
        return s
    }
}
