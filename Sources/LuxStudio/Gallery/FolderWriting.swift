import Foundation
import Glibc

/// How the studio puts files into the capture folder: written completely under a hidden temporary name first, then
/// given their visible name by a hard link, which fails rather than replace a file, so nothing is ever overwritten
/// and no half-written file is ever listed.
enum FolderWriting {
    /// Links `temporary` into `folder` as `name` or, when taken, the first free `base-2.ext`, `base-3.ext`, ...;
    /// two writers of one name at once both keep their file.
    ///
    /// - Returns: Where the file is now (the temporary name still exists; the caller removes it).
    /// - Throws: ``StudioError/cannotSave(name:reason:)`` when the link fails for another reason than a taken name.
    static func link(_ temporary: URL, into folder: URL, as name: String) throws(StudioError) -> URL {
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        for attempt in 1...1000 {
            let candidate = attempt == 1 ? name : "\(base)-\(attempt)" + (ext.isEmpty ? "" : ".\(ext)")
            if let url = try linkIfFree(temporary, to: folder.appendingPathComponent(candidate)) { return url }
        }
        throw .cannotSave(name: name, reason: "no free name like it in \(folder.path)")
    }

    /// Links `temporary` to `url` unless a file is there already (then `nil`).
    ///
    /// - Throws: ``StudioError/cannotSave(name:reason:)`` for any other failure.
    static func linkIfFree(_ temporary: URL, to url: URL) throws(StudioError) -> URL? {
        if Glibc.link(temporary.path, url.path) == 0 { return url }
        guard errno == EEXIST else {
            throw .cannotSave(name: url.lastPathComponent, reason: String(cString: strerror(errno)))
        }
        return nil
    }

    /// The first of `base`, `base-2`, `base-3` and so on that begins the name of no file of `folder`.
    ///
    /// A capture's files share the stem (`IMG_7.jpg` and `IMG_7.mov`, or `IMG_7_1.dng`), followed by `.` or `_`;
    /// a new studio session so never reuses an earlier one's names.
    static func freeStem(_ base: String, in folder: URL) -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        func taken(_ stem: String) -> Bool {
            names.contains { $0.hasPrefix(stem + ".") || $0.hasPrefix(stem + "_") }
        }
        var stem = base
        var attempt = 1
        while taken(stem) {
            attempt += 1
            stem = "\(base)-\(attempt)"
        }
        return stem
    }
}
