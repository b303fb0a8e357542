public import FoundationEssentials
public import LuxCodecs
public import LuxRender

extension Image {
    /// An image whose pixels are read from a file when a render needs them (the `CIImage(contentsOf:)` role).
    ///
    /// TIFF strips and tiles are read on demand, so a filter chain over a large TIFF runs in bounded memory; other
    /// formats are decoded whole on first use. The pixels are colour-matched from the file's profile into the
    /// working space.
    ///
    /// ```swift
    /// let photo = try Image(contentsOf: URL(fileURLWithPath: "scan.tif"))
    /// try RenderContext().write(photo.applyingGaussianBlur(sigma: 2), to: URL(fileURLWithPath: "soft.tif"))
    /// ```
    ///
    /// - Throws: ``CodecError`` when the file cannot be opened or its header is damaged (damaged pixel data
    ///   surfaces when the render reads it).
    public init(contentsOf url: URL, options: DecodingOptions = .default) throws(CodecError) {
        self.init(reading: try ImageRegionReader(url: url, options: options), url: url)
    }

    /// An image whose pixels `reader` provides on demand (use this form to look at the file's metadata,
    /// format and colour space through the reader as well).
    public init(reading reader: ImageRegionReader, url: URL) {
        self.init(provider: RegionReaderProvider(reader: reader, url: url))
    }
}
