// The one file of LuxRAW that uses FoundationEssentials: `URL` is the type LuxCodecs' file reader takes.
public import FoundationEssentials
import LuxCodecs

extension RAWDeveloper {
    /// Reads (memory-maps) and prepares a DNG or TIFF/EP raw file.
    ///
    /// - Throws: ``RAWError/decoding(_:)`` for unreadable, truncated or header-only files (which never develop
    ///   to an image of zeros), ``RAWError/notRaw(_:)`` for other image formats, and the errors of
    ///   ``init(rawImage:)``.
    public init(url: URL) throws(RAWError) {
        let file: ImageFile
        do { file = try ImageFile.read(url: url) } catch { throw .decoding(error) }
        try self.init(file: file, name: url.lastPathComponent)
    }
}
