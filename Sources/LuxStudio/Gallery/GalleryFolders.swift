public import Foundation
import Glibc

/// The folders the gallery shows (the capture folder first, then `--folder`s) and the only files the studio
/// serves from disk.
///
/// A file is named by its folder's index and its path inside that folder, e.g. `0/IMG_1.jpg`. A name is refused
/// when, after percent-decoding, a component is empty, `.` or `..`, or holds a NUL; or when the file it resolves
/// to (symlinks followed) lies outside its folder's resolved path.
public struct GalleryFolders: Sendable {
    /// The folders, resolved (symlinks followed), the capture folder first.
    public let roots: [URL]

    /// Creates the list; each folder is resolved once, so a symlinked folder is served as the folder it names.
    public init(captureFolder: URL, folders: [URL]) {
        roots = ([captureFolder] + folders).map { URL(fileURLWithPath: Self.resolvedPath($0.path) ?? $0.path) }
    }

    /// The file a gallery name refers to, checked to lie inside its folder.
    ///
    /// - Parameter name: `<folder index>/<path>`, percent-encoded or not.
    /// - Throws: ``StudioError/outsideGallery(_:)`` for any name that does not resolve to an existing regular file
    ///   inside its folder.
    public func file(named name: String) throws(StudioError) -> URL {
        guard let decoded = name.removingPercentEncoding, !decoded.contains("\0") else {
            throw .outsideGallery(name)
        }
        var components = decoded.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard components.count >= 2, let index = Int(components.removeFirst()), roots.indices.contains(index),
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\\") })
        else { throw .outsideGallery(decoded) }
        let root = roots[index]
        let candidate = components.reduce(root) { $0.appendingPathComponent($1) }
        guard let resolved = Self.resolvedPath(candidate.path), resolved.hasPrefix(root.path + "/") else {
            throw .outsideGallery(decoded)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue
        else { throw .outsideGallery(decoded) }
        return URL(fileURLWithPath: resolved)
    }

    /// Whether `url` (symlinks followed) is an existing file inside one of the folders.
    public func contains(_ url: URL) -> Bool {
        guard let resolved = Self.resolvedPath(url.path) else { return false }
        return roots.contains { resolved.hasPrefix($0.path + "/") }
    }

    /// The gallery name of a file inside folder `index` (its path relative to the folder).
    public func name(of url: URL, inFolder index: Int) -> String? {
        let path = url.standardizedFileURL.path
        let root = roots[index].path + "/"
        guard path.hasPrefix(root) else { return nil }
        return "\(index)/" + path.dropFirst(root.count)
    }

    /// `realpath(3)`: the absolute path with every symlink, `.` and `..` resolved, or `nil` if it does not exist.
    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
