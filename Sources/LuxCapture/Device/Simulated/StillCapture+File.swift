import LuxCodecs
import LuxPixels

extension StillCapture {
    /// Whether the still carries a Bayer RAW (a RAW-capable format), rather than only a processed image.
    public var hasBayerRAW: Bool { raw.format.cfaPattern != nil }

    /// The still as a file of its own, for a camera used without a ``PhotoOutput`` (a V4L2 camera).
    ///
    /// With `raw` and a Bayer RAW, a DNG with the frame's black and white levels, the processed image embedded as its
    /// preview, and EXIF; otherwise a JPEG of the processed image with EXIF. Returns the bytes and the file extension
    /// ("dng" or "jpg").
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` for `raw` without a Bayer RAW, ``CaptureError/processing(_:)``
    ///   when encoding fails.
    public func fileDataRepresentation(raw wantsRAW: Bool, cameraModel: String) throws(CaptureError)
        -> (bytes: [UInt8], fileExtension: String)
    {
        let pixels = wantsRAW ? raw : (image ?? raw)
        var exif = PhotoMetadata.exif(
            metadata, dimensions: PixelDimensions(width: pixels.width, height: pixels.height), flashMode: .off,
            flashFired: false, hasFlash: false, bracket: nil, frameCount: 1)
        exif.model = cameraModel
        exif.lensModel = nil
        do {
            if wantsRAW {
                guard hasBayerRAW else { throw CaptureError.unsupported("\(cameraModel) has no RAW (Bayer) format") }
                let image = RAWPacking.rawImage(
                    raw, description: metadata.raw, exif: exif, preview: self.image, cameraModel: cameraModel,
                    margin: metadata.raw.cropMargin)
                return (try DNG.encode(image), "dng")
            }
            guard pixels.format.cfaPattern == nil else {
                throw CaptureError.processing("the still has no processed image")
            }
            let rgb = pixels.format.isYCbCr ? pixels.converted(to: .rgba8) : pixels
            return (try JPEG.encode(rgb, metadata: ImageMetadata(exif: exif)), "jpg")
        } catch let error as CaptureError {
            throw error
        } catch {
            throw .processing("\(error)")
        }
    }
}
