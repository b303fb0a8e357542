import Foundation

/// One entry of the gallery: a photo, a RAW file, or a Live Photo (a still and a movie of the same base name).
public struct GalleryItem: Codable, Hashable, Sendable {
    /// What an item is.
    public enum Kind: String, Codable, Hashable, Sendable {
        /// A processed image (JPEG, HEIC, PNG, TIFF, WebP, ...).
        case photo
        /// A DNG or camera raw.
        case raw
        /// A still and its movie, shown as one item that plays.
        case livePhoto
    }

    /// The gallery name of the still (or the only file): `<folder index>/<path>`.
    public var name: String
    /// The item's kind.
    public var kind: Kind
    /// The gallery name of a Live Photo's movie.
    public var movie: String?
    /// The still's size in bytes.
    public var bytes: Int
    /// When the still was last modified, in seconds since 1970.
    public var modified: Double

    /// Extensions of the images the gallery lists (lowercased).
    static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "heic", "heif", "avif", "png", "tif", "tiff", "webp", "gif",
    ]
    /// Extensions of RAW files (lowercased).
    static let rawExtensions: Set<String> = ["dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2", "pef", "srw"]
}

extension GalleryFolders {
    /// The most files one listing looks at, so a huge folder cannot stall the server.
    static let listingLimit = 5000

    /// The gallery's items, newest first: the images and RAW files of every folder (sub-folders included, hidden
    /// files skipped), a still paired with a `.mov` of the same base name as one Live Photo.
    public func items() -> [GalleryItem] {
        var items: [GalleryItem] = []
        var seen = 0
        for (index, root) in roots.enumerated() {
            guard
                let walker = FileManager.default.enumerator(
                    at: root,
                    includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey],
                    options: [.skipsHiddenFiles])
            else { continue }
            var files: [URL] = []
            while let url = walker.nextObject() as? URL, seen < Self.listingLimit {
                seen += 1
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { files.append(url) }
            }
            let movies = Dictionary(
                files.filter { $0.pathExtension.lowercased() == "mov" }.map { ($0.deletingPathExtension(), $0) },
                uniquingKeysWith: { first, _ in first })
            for url in files {
                let ext = url.pathExtension.lowercased()
                let kind: GalleryItem.Kind
                if GalleryItem.rawExtensions.contains(ext) {
                    kind = .raw
                } else if GalleryItem.imageExtensions.contains(ext) {
                    kind = movies[url.deletingPathExtension()] == nil ? .photo : .livePhoto
                } else {
                    continue
                }
                // A symlink out of the folder is not listed (and would not be served).
                guard let name = name(of: url, inFolder: index), (try? file(named: name)) != nil else { continue }
                let values = try? url.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey])
                let movie = movies[url.deletingPathExtension()].flatMap { self.name(of: $0, inFolder: index) }
                items.append(
                    GalleryItem(
                        name: name, kind: kind, movie: movie, bytes: values?.fileSize ?? 0,
                        modified: values?.contentModificationDate?.timeIntervalSince1970 ?? 0))
            }
        }
        return items.sorted { ($0.modified, $0.name) > ($1.modified, $1.name) }
    }
}
