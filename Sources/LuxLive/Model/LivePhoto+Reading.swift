public import FoundationEssentials
import LuxCodecs
import LuxPixels

extension LivePhoto {
    /// Reads a pair and checks that it is one Live Photo.
    ///
    /// The identifier, photo time and duration come from the files' metadata only, so this works for movies whose
    /// frames Lux cannot decode (an iPhone's H.264 or HEVC). A movie without a still-image-time sample gets its
    /// midpoint as the photo time.
    ///
    /// - Parameter requiresIdentifier: When `false`, a pair without identifiers (two files with the same base
    ///   name) is accepted and given an empty identifier; mismatching identifiers are always refused.
    /// - Throws: ``LivePhotoError/unreadable(_:_:)``, ``LivePhotoError/missingContentIdentifier(_:)``,
    ///   ``LivePhotoError/identifierMismatch(photo:movie:)``.
    public init(photoURL: URL, movieURL: URL, requiresIdentifier: Bool = true) throws(LivePhotoError) {
        let info: ImageInfo
        do { info = try ImageFile.info(url: photoURL) } catch { throw .unreadable(photoURL, error) }
        let movie: QuickTimeMovie
        do { movie = try QuickTimeMovie(contentsOf: movieURL) } catch { throw .unreadable(movieURL, error) }
        let photoID = info.metadata.livePhotoContentIdentifier
        let movieID = movie.contentIdentifier
        switch (photoID, movieID) {
        case (let p?, let m?) where p.caseInsensitiveCompare(m) != .orderedSame:
            throw .identifierMismatch(photo: p, movie: m)
        case (nil, _) where requiresIdentifier: throw .missingContentIdentifier(photoURL)
        case (_, nil) where requiresIdentifier: throw .missingContentIdentifier(movieURL)
        default: break
        }
        self.init(
            photoURL: photoURL, movieURL: movieURL, contentIdentifier: photoID ?? movieID ?? "",
            photoTime: movie.stillImageTime ?? movie.duration.multiplied(by: 0.5), duration: movie.duration)
    }

    /// Reads the Live Photo whose still is `photoURL`, finding its movie beside it (same base name, extension
    /// `.MOV` or `.mov`).
    ///
    /// - Throws: ``LivePhotoError/noMovie(photo:tried:)`` and the errors of ``init(photoURL:movieURL:requiresIdentifier:)``.
    public init(photoURL: URL) throws(LivePhotoError) {
        guard let movie = Self.partnerURL(of: photoURL) else {
            throw .noMovie(photo: photoURL, tried: Self.partnerCandidates(of: photoURL).map(\.lastPathComponent))
        }
        try self.init(photoURL: photoURL, movieURL: movie)
    }

    /// Reads the Live Photo that `url` belongs to, given its still or its movie: the other file is the one beside
    /// it with the same base name (`.JPG`/`.jpg`/`.jpeg`/`.HEIC`/`.heic` for a movie, `.MOV`/`.mov` for a still).
    ///
    /// - Throws: ``LivePhotoError/noMovie(photo:tried:)`` when the partner is missing, and the errors of
    ///   ``init(photoURL:movieURL:requiresIdentifier:)``.
    public init(pairing url: URL) throws(LivePhotoError) {
        guard Self.isMovie(url) else {
            try self.init(photoURL: url)
            return
        }
        guard let photo = Self.partnerURL(of: url) else {
            throw .noMovie(photo: url, tried: Self.partnerCandidates(of: url).map(\.lastPathComponent))
        }
        try self.init(photoURL: photo, movieURL: url)
    }

    /// The other file of the pair `url` belongs to, if it exists beside it: for a still, the movie with the same
    /// base name (`.MOV`, `.mov`); for a movie (`.mov`, `.qt`), the still (`.JPG`, `.jpg`, `.jpeg`, `.JPEG`, `.HEIC`,
    /// `.heic`).
    ///
    /// Only names are compared; ``init(photoURL:movieURL:requiresIdentifier:)`` checks that the two files carry
    /// the same content identifier.
    public static func partnerURL(of url: URL) -> URL? {
        partnerCandidates(of: url).first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The names ``partnerURL(of:)`` tries, in order.
    static func partnerCandidates(of url: URL) -> [URL] {
        let base = url.deletingPathExtension()
        let extensions = isMovie(url) ? ["JPG", "jpg", "jpeg", "JPEG", "HEIC", "heic"] : ["MOV", "mov"]
        return extensions.map { base.appendingPathExtension($0) }
    }

    /// Whether `url` names a QuickTime movie (by extension).
    public static func isMovie(_ url: URL) -> Bool { ["mov", "qt"].contains(url.pathExtension.lowercased()) }

    /// The Live Photos in a folder: every still (JPEG or HEIC) whose identifier matches a movie's, whatever the files are
    /// called.
    ///
    /// Files that cannot be read are skipped.
    ///
    /// - Complexity: Reads the headers of every JPEG, HEIC and movie in the folder.
    public static func pairs(in directory: URL) throws(LivePhotoError) -> [LivePhoto] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() } catch {
            throw .unreadable(directory, .io(path: directory.path, reason: "\(error)"))
        }
        var movies: [String: (URL, QuickTimeMovie)] = [:]
        for name in names where ["mov", "qt"].contains(URL(fileURLWithPath: name).pathExtension.lowercased()) {
            let url = directory.appendingPathComponent(name)
            if let movie = try? QuickTimeMovie(contentsOf: url), let id = movie.contentIdentifier?.uppercased() {
                movies[id] = (url, movie)
            }
        }
        var out: [LivePhoto] = []
        for name in names where ["jpg", "jpeg", "heic"].contains(URL(fileURLWithPath: name).pathExtension.lowercased())
        {
            let url = directory.appendingPathComponent(name)
            guard let info = try? ImageFile.info(url: url), let id = info.metadata.livePhotoContentIdentifier,
                let (movieURL, movie) = movies[id.uppercased()]
            else { continue }
            out.append(
                LivePhoto(
                    photoURL: url, movieURL: movieURL, contentIdentifier: id,
                    photoTime: movie.stillImageTime ?? movie.duration.multiplied(by: 0.5), duration: movie.duration))
        }
        return out
    }
}
