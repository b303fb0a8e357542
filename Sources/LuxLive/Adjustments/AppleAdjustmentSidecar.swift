import Foundation
public import FoundationEssentials

/// The adjustment sidecar Apple's Photos keeps beside a photo it edited (`IMG_0001.AAE`, an XML property list): who
/// made the edit, when, and the edit's data in Photos' own format.
///
/// Lux reads it to report that a photo was edited in Photos; it does not apply Photos' edits (their data is Apple's
/// private format) and it never writes or replaces such a file — Lux's own sidecars have the extension
/// ``LivePhotoEditRecord/fileExtension``.
///
/// ```swift
/// if let url = AppleAdjustmentSidecar.url(besidePhoto: live.photoURL) {
///     let sidecar = try AppleAdjustmentSidecar(contentsOf: url)
///     print("edited in Photos by \(sidecar.editorBundleID ?? "?") on \(sidecar.timestamp.map { "\($0)" } ?? "?")")
/// }
/// ```
public struct AppleAdjustmentSidecar: Hashable, Sendable {
    /// The sidecar file.
    public var url: URL
    /// The edit's data with its format (`com.apple.photo`, version `1.4`, …).
    public var adjustmentData: AdjustmentData
    /// The app that made the edit (`com.apple.mobileslideshow` for Photos on an iPhone), if recorded.
    public var editorBundleID: String?
    /// When the edit was made, if recorded.
    public var timestamp: Date?
    /// The version of the photo the edit was made on (0: the original), if recorded.
    public var baseVersion: Int?

    /// The extension of Apple's sidecars.
    public static let fileExtension = "AAE"

    /// Reads a sidecar.
    ///
    /// - Throws: ``LivePhotoError/adjustments(_:)`` when the file is not a property list with Apple's keys.
    public init(contentsOf url: URL) throws(LivePhotoError) {
        let plist: [String: Any]
        do {
            let data = try Data(contentsOf: url)
            guard let p = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                throw LivePhotoError.adjustments("\(url.lastPathComponent) is not a property-list dictionary")
            }
            plist = p
        } catch let e as LivePhotoError {
            throw e
        } catch {
            throw .adjustments("cannot read \(url.lastPathComponent): \(error)")
        }
        guard let format = plist["adjustmentFormatIdentifier"] as? String else {
            throw .adjustments("\(url.lastPathComponent) has no adjustmentFormatIdentifier: not an adjustment sidecar")
        }
        self.url = url
        adjustmentData = AdjustmentData(
            formatIdentifier: format, formatVersion: "\(plist["adjustmentFormatVersion"] ?? "")",
            data: (plist["adjustmentData"] as? Data).map { [UInt8]($0) } ?? [])
        editorBundleID = plist["adjustmentEditorBundleID"] as? String
        timestamp = plist["adjustmentTimestamp"] as? Date
        baseVersion = (plist["adjustmentBaseVersion"] as? NSNumber)?.intValue
    }

    /// The sidecar Photos keeps for the photo at `photoURL`, if one exists beside it: the photo's name with the
    /// extension `.AAE` (or `.aae`), or, for `IMG_0001`, `IMG_O0001.AAE` (the sidecar of an original Photos edited).
    public static func url(besidePhoto photoURL: URL) -> URL? {
        let folder = photoURL.deletingLastPathComponent()
        let base = photoURL.deletingPathExtension().lastPathComponent
        var names = [base]
        if let underscore = base.firstIndex(of: "_"), base[base.index(after: underscore)...].allSatisfy(\.isNumber) {
            names.append(base[...underscore] + "O" + base[base.index(after: underscore)...])
        }
        for name in names {
            for ext in [fileExtension, fileExtension.lowercased()] {
                let url = folder.appendingPathComponent(name).appendingPathExtension(ext)
                if FileManager.default.fileExists(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// Whether `url` names an Apple sidecar (by extension, in any case).
    public static func isSidecarName(_ url: URL) -> Bool {
        url.pathExtension.caseInsensitiveCompare(fileExtension) == .orderedSame
    }
}
