public import LuxCodecs
public import LuxRender

extension RAWDeveloper {
    /// The metadata for a file developed from this raw: its Exif, upright, with the developed size and Lux named as
    /// the software.
    ///
    /// The raw's Exif (camera, lens, exposure, dates) is kept. The orientation becomes *up*, because
    /// ``outputImage`` is already oriented; PixelXDimension and PixelYDimension become `image`'s size (the raw's
    /// stored size is not the developed one); Software names Lux and the pipeline version, for example
    /// `Lux (lux hdr, LuxRAW v1)`.
    ///
    /// ```swift
    /// let image = try developer.outputImage
    /// try RenderContext(options: RAWDeveloper.renderOptions()).write(
    ///     image, to: folder.appending(path: "developed.jpg"), metadata: developer.outputMetadata(for: image))
    /// ```
    ///
    /// - Parameters:
    ///   - image: The developed image (usually ``outputImage``); its extent gives the pixel dimensions.
    ///   - detail: The tool or step that made the file, named in Software before the pipeline version (`nil`:
    ///     none).
    public func outputMetadata(for image: Image, detail: String? = nil) -> ImageMetadata {
        var metadata = ImageMetadata(exif: properties.exif)
        metadata.exif.orientation = .up
        metadata.exif.pixelXDimension = Int(image.extent.width)
        metadata.exif.pixelYDimension = Int(image.extent.height)
        metadata.exif.software = "Lux (\(detail.map { "\($0), " } ?? "")LuxRAW \(adjustments.version))"
        return metadata
    }
}
