import Foundation
public import FoundationEssentials
import LuxPixels

/// What Lux's adjustment sidecar (`IMG_E0001.luxedit`, an XML property list with the keys Apple's Photos uses)
/// records about an edit: the adjustment data, the original pair and the edited pair.
///
/// ```swift
/// let record = try LivePhotoEditRecord(contentsOf: URL(fileURLWithPath: "IMG_E0001.luxedit"))
/// let recipe = try LivePhotoAdjustments(adjustmentData: record.adjustmentData)   // re-apply it…
/// let original = try record.revert()                                            // …or go back
/// ```
///
/// Apple's keys (`adjustmentFormatIdentifier`, `adjustmentFormatVersion`, `adjustmentData`,
/// `adjustmentBaseVersion`, `adjustmentEditorBundleID`, `adjustmentTimestamp`) are written as Photos writes them;
/// the file names of both pairs are kept under `luxOriginal…` and `luxEdited…` keys, relative to the sidecar's
/// folder when they are inside it. The file never takes Apple's `.AAE` name, so it cannot be mistaken for (or
/// replace) the sidecar Photos keeps beside an iPhone's files (see ``AppleAdjustmentSidecar``).
public struct LivePhotoEditRecord: Hashable, Sendable {
    /// The edit's recipe.
    public var adjustmentData: AdjustmentData
    /// The unedited Live Photo.
    public var original: LivePhoto
    /// The edited Live Photo.
    public var edited: LivePhoto
    /// When the edit was saved.
    public var timestamp: Date

    /// The bundle identifier written as the editor.
    public static let editorIdentifier = "org.lux.live"

    /// The extension of Lux's sidecars (`IMG_E0001.luxedit`): never Apple's `.AAE`, so a Lux sidecar beside an
    /// iPhone's files is not mistaken for Photos' own, and Photos' is never overwritten.
    public static let fileExtension = "luxedit"

    /// Creates a record.
    public init(adjustmentData: AdjustmentData, original: LivePhoto, edited: LivePhoto, timestamp: Date = Date()) {
        self.adjustmentData = adjustmentData
        self.original = original
        self.edited = edited
        self.timestamp = timestamp
    }

    /// Reads a sidecar.
    ///
    /// - Throws: ``LivePhotoError/adjustments(_:)`` when the file is not a sidecar Lux wrote (an Apple `.AAE` is
    ///   named as one: Lux does not re-apply Photos' edits).
    public init(contentsOf url: URL) throws(LivePhotoError) {
        if AppleAdjustmentSidecar.isSidecarName(url), let apple = try? AppleAdjustmentSidecar(contentsOf: url) {
            throw .adjustments(
                "\(url.lastPathComponent) is Apple Photos' sidecar (\(apple.adjustmentData.formatIdentifier) "
                    + "\(apple.adjustmentData.formatVersion)); Lux re-applies and reverts its own .\(Self.fileExtension) "
                    + "sidecars only")
        }
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
        func string(_ key: String) throws(LivePhotoError) -> String {
            guard let s = plist[key] as? String else { throw .adjustments("\(url.lastPathComponent) has no \(key)") }
            return s
        }
        func number(_ key: String) -> Double? { (plist[key] as? NSNumber)?.doubleValue }
        let folder = url.deletingLastPathComponent()
        func file(_ key: String) throws(LivePhotoError) -> URL {
            let path = try string(key)
            return path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
        }
        func time(_ key: String) -> MediaTime { MediaTime(seconds: number(key) ?? 0, preferredTimescale: 600) }
        guard let data = plist["adjustmentData"] as? Data else {
            throw .adjustments("\(url.lastPathComponent) has no adjustmentData")
        }
        adjustmentData = AdjustmentData(
            formatIdentifier: try string("adjustmentFormatIdentifier"),
            formatVersion: try string("adjustmentFormatVersion"), data: [UInt8](data))
        original = LivePhoto(
            photoURL: try file("luxOriginalPhoto"), movieURL: try file("luxOriginalMovie"),
            contentIdentifier: (plist["luxOriginalContentIdentifier"] as? String) ?? "",
            photoTime: time("luxOriginalPhotoTime"), duration: time("luxOriginalDuration"))
        edited = LivePhoto(
            photoURL: try file("luxEditedPhoto"), movieURL: try file("luxEditedMovie"),
            contentIdentifier: (plist["luxEditedContentIdentifier"] as? String) ?? "",
            photoTime: time("luxEditedPhotoTime"), duration: time("luxEditedDuration"))
        timestamp = plist["adjustmentTimestamp"] as? Date ?? Date(timeIntervalSince1970: 0)
    }

    /// Writes the sidecar atomically.
    ///
    /// - Throws: ``LivePhotoError/write(_:_:)``, also for a name with Apple's `.AAE` extension (never written, so a
    ///   Photos sidecar is never replaced).
    public func write(to url: URL) throws(LivePhotoError) {
        guard !AppleAdjustmentSidecar.isSidecarName(url) else {
            throw .write(
                url,
                .invalidArgument(
                    "\(url.lastPathComponent): .AAE is Apple Photos' sidecar name; Lux writes .\(Self.fileExtension)"))
        }
        let folder = url.deletingLastPathComponent().standardizedFileURL.path
        func path(_ file: URL) -> String {
            let p = file.standardizedFileURL.path
            return p.hasPrefix(folder + "/") ? String(p.dropFirst(folder.count + 1)) : p
        }
        let plist: [String: Any] = [
            "adjustmentBaseVersion": 0,
            "adjustmentData": Data(adjustmentData.data),
            "adjustmentEditorBundleID": Self.editorIdentifier,
            "adjustmentFormatIdentifier": adjustmentData.formatIdentifier,
            "adjustmentFormatVersion": adjustmentData.formatVersion,
            "adjustmentTimestamp": timestamp,
            "luxOriginalPhoto": path(original.photoURL),
            "luxOriginalMovie": path(original.movieURL),
            "luxOriginalContentIdentifier": original.contentIdentifier,
            "luxOriginalPhotoTime": original.photoTime.seconds,
            "luxOriginalDuration": original.duration.seconds,
            "luxEditedPhoto": path(edited.photoURL),
            "luxEditedMovie": path(edited.movieURL),
            "luxEditedContentIdentifier": edited.contentIdentifier,
            "luxEditedPhotoTime": edited.photoTime.seconds,
            "luxEditedDuration": edited.duration.seconds,
        ]
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            try data.write(to: url, options: .atomic)
        } catch {
            throw .write(url, .io(path: url.path, reason: "\(error)"))
        }
    }

    /// Reverts the edit: removes the edited still, movie and `sidecar` (when given), and returns the original
    /// Live Photo, read again from its files.
    ///
    /// - Throws: ``LivePhotoError`` when the original can no longer be read (nothing is removed then).
    public func revert(removingSidecar sidecar: URL? = nil) throws(LivePhotoError) -> LivePhoto {
        let restored = try LivePhoto(
            photoURL: original.photoURL, movieURL: original.movieURL, requiresIdentifier: false)
        for file in [edited.photoURL, edited.movieURL] + (sidecar.map { [$0] } ?? [])
        where file.standardizedFileURL != restored.photoURL.standardizedFileURL
            && file.standardizedFileURL != restored.movieURL.standardizedFileURL
        {
            try? FileManager.default.removeItem(at: file)
        }
        return restored
    }
}
