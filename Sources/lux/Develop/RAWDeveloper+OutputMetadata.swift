import Lux

extension RAWDeveloper {
    /// The metadata of a file developed from this raw: its Exif, upright, with `image`'s size and Lux named as
    /// the software (`detail`, when given, says which command or module made it).
    func outputMetadata(for image: Image, detail: String? = nil) -> ImageMetadata {
        var metadata = ImageMetadata(exif: properties.exif)
        metadata.exif.orientation = .up
        metadata.exif.pixelXDimension = Int(image.extent.width)
        metadata.exif.pixelYDimension = Int(image.extent.height)
        metadata.exif.software = "Lux (\(detail.map { "\($0), " } ?? "")LuxRAW \(self.version))"
        return metadata
    }
}
