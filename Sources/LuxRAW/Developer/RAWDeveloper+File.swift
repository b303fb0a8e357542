// The one file of LuxRAW that uses FoundationEssentials: `URL` is the type LuxCodecs' file reader takes.
public import FoundationEssentials
public import LuxCodecs

extension RAWDeveloper {
    /// Reads (memory-maps) and prepares a DNG or TIFF/EP raw file.
    ///
    /// - Parameter options: How the file is decoded. By default uncompressed samples are read from the mapped file
    ///   in place (``DecodingOptions/allowsMappedPixels``), which saves a copy as large as the raw image: do not
    ///   shorten or rewrite the file in place while the developer, or pixels taken from it, exist (replacing it
    ///   by renaming another file over it is safe). Pass `DecodingOptions()` to have them copied instead.
    /// - Throws: ``RAWError/noPixelData(_:)`` for header-only, stripped or truncated files (which never develop
    ///   to an image of zeros), ``RAWError/decoding(_:)`` for other unreadable files, ``RAWError/notRaw(_:)``
    ///   for other image formats, and the errors of ``init(rawImage:)``.
    public init(url: URL, options: DecodingOptions = DecodingOptions(allowsMappedPixels: true)) throws(RAWError) {
        let file = try Self.decode { () throws(CodecError) in try ImageFile.read(url: url, options: options) }
        try self.init(file: file, name: url.lastPathComponent)
    }
}
