import Foundation
import Hummingbird
import LuxCodecs

/// Saves a file a browser sends (dropped on the gallery or POSTed) into the capture folder, safely.
///
/// The body is streamed into a hidden temporary file, never past ``StudioConfiguration/maxUploadBytes``. The file is
/// kept only when its content is what its name says: an image or RAW file Lux reads (its headers are parsed; a JPEG
/// named `.png` is refused) or a QuickTime movie (`.mov`, a Live Photo's other half). It then gets its name, or the
/// first free `name-2.ext`, `name-3.ext`, ... when that is taken (``FolderWriting/link(_:into:as:)``), so nothing is
/// ever overwritten and no half-written file is ever visible.
struct GalleryUpload: Sendable {
    /// The folder files are saved into.
    let folder: URL
    /// The most bytes a file may have.
    let limit: Int

    /// Extensions an upload may have (lowercased): what the gallery lists, and Live Photo movies.
    static let acceptedExtensions = GalleryItem.imageExtensions.union(GalleryItem.rawExtensions).union(["mov"])

    /// Streams `body` into the folder under `name` (or the first free variant of it) and returns where it went.
    ///
    /// - Throws: ``StudioError/invalidUploadName(_:)`` for a name that is not a plain visible file name with an
    ///   accepted extension, ``StudioError/uploadTooLarge(name:limit:)`` past the limit,
    ///   ``StudioError/unsupportedUpload(name:reason:)`` for content that is not what the name says, and
    ///   ``StudioError/cannotSave(name:reason:)`` when the file cannot be written.
    func save<Body: AsyncSequence>(_ body: Body, named name: String) async throws(StudioError) -> URL
    where Body.Element == ByteBuffer {
        try Self.check(name)
        let temporary = folder.appendingPathComponent(".upload-\(UUID().uuidString).partial")
        defer { try? FileManager.default.removeItem(at: temporary) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw StudioError.cannotSave(name: name, reason: "cannot create a file in \(folder.path)")
            }
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            var written = 0
            for try await buffer in body {
                written += buffer.readableBytes
                guard written <= limit else { throw StudioError.uploadTooLarge(name: name, limit: limit) }
                try handle.write(contentsOf: buffer.readableBytesView)
            }
            try handle.synchronize()
        } catch let error as StudioError {
            throw error
        } catch {
            throw .cannotSave(name: name, reason: "\(error)")
        }
        try Self.checkContent(of: temporary, name: name)
        return try FolderWriting.link(temporary, into: folder, as: name)
    }

    /// Refuses names that are not one visible file name with an accepted extension.
    static func check(_ name: String) throws(StudioError) {
        let ext = (name as NSString).pathExtension.lowercased()
        guard !name.isEmpty, name.utf8.count <= 200, !name.hasPrefix("."), !name.contains("/"),
            !name.contains("\\"), !name.contains("\0"), !name.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { throw .invalidUploadName(name) }
        guard acceptedExtensions.contains(ext) else { throw .invalidUploadName(name) }
    }

    /// Parses the file's headers and compares the format found with the one its name's extension stands for.
    static func checkContent(of url: URL, name: String) throws(StudioError) {
        let ext = (name as NSString).pathExtension.lowercased()
        if ext == "mov" {
            do { _ = try QuickTimeMovie(contentsOf: url) } catch {
                throw .unsupportedUpload(name: name, reason: "not a QuickTime movie Lux reads: \(error)")
            }
            return
        }
        let found: ImageFormat
        do { found = try ImageFile.info(url: url).format } catch {
            throw .unsupportedUpload(name: name, reason: "not an image Lux reads: \(error)")
        }
        let matches =
            if let named = ImageFormat(fileExtension: ext) {
                found == named
            } else {
                // The makers' raw formats: LibRaw's reading, or a TIFF container some of them are.
                [.cameraRaw, .dng, .tiff].contains(found)
            }
        guard matches else {
            throw .unsupportedUpload(name: name, reason: "the content is \(found.description), not a .\(ext) file")
        }
    }
}
