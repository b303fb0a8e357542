// The one file of LuxRAW that uses FoundationEssentials: `URL` is the type LuxCodecs' file reader takes.
public import FoundationEssentials
public import LuxCodecs

extension RAWDeveloper {
    /// Reads (memory-maps) and prepares a raw file: a DNG, or any camera raw LibRaw reads (NEF, CR2, ARW, RAF …).
    ///
    /// Uncompressed samples are read from the mapped file in place for as long as the developer exists
    /// (``DecodingOptions/allowsMappedPixels``): do not shorten or rewrite the file in place meanwhile; replacing
    /// it by renaming another file over it is safe. To have them copied instead, read the file with
    /// `ImageFile.read(url:options:)` and pass its `rawImage` to ``init(rawImage:)``.
    ///
    /// - Throws: ``RAWError/noPixelData(_:)`` for header-only, stripped or truncated files (which never develop
    ///   to an image of zeros), ``RAWError/decoding(_:)`` for other unreadable files, ``RAWError/notRaw(_:)``
    ///   for other image formats, and the errors of ``init(rawImage:)``.
    /// - Parameter options: How the file is read (default: uncompressed samples lent from the map; set
    ///   ``DecodingOptions/decodesDNGWithLibRaw`` to read DNGs through LibRaw too).
    public init(url: URL, options: DecodingOptions = DecodingOptions(allowsMappedPixels: true)) throws(RAWError) {
        let file = try Self.decode { () throws(CodecError) in try ImageFile.read(url: url, options: options) }
        try self.init(file: file, name: url.lastPathComponent)
    }
}
