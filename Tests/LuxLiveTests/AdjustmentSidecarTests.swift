import Foundation
import LuxLive
import LuxTestSupport
import Testing

/// Lux's own sidecar never takes Apple's `.AAE` name; an `.AAE` that Photos left is read and never replaced.
@Suite struct AdjustmentSidecarTests {
    /// An adjustment sidecar as Photos on an iPhone writes one (the keys and value types of Apple's plist; the edit's
    /// data is opaque bytes).
    static let applePlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>adjustmentBaseVersion</key>
            <integer>0</integer>
            <key>adjustmentData</key>
            <data>AQIDBAUGBwg=</data>
            <key>adjustmentEditorBundleID</key>
            <string>com.apple.mobileslideshow</string>
            <key>adjustmentFormatIdentifier</key>
            <string>com.apple.photo</string>
            <key>adjustmentFormatVersion</key>
            <string>1.4</string>
            <key>adjustmentTimestamp</key>
            <date>2021-04-10T10:50:00Z</date>
        </dict>
        </plist>
        """

    /// The real iPhone pair copied into a fresh folder as IMG_0001.JPG/.MOV with Photos' IMG_0001.AAE beside it.
    static func applePair() throws -> (folder: URL, live: LivePhoto, sidecar: URL) {
        let dir = try LiveFixtures.folder()
        let photo = dir.appendingPathComponent("IMG_0001.JPG")
        try FileManager.default.copyItem(at: ApplePairEditingTests.photo, to: photo)
        try FileManager.default.copyItem(
            at: ApplePairEditingTests.photo.deletingPathExtension().appendingPathExtension("mov"),
            to: dir.appendingPathComponent("IMG_0001.MOV"))
        let sidecar = dir.appendingPathComponent("IMG_0001.AAE")
        try Data(applePlist.utf8).write(to: sidecar)
        return (dir, try LivePhoto(pairing: photo), sidecar)
    }

    @Test("Photos' .AAE beside an iPhone photo is found and read: format, version, editor, time, data")
    func readsApple() throws {
        let (dir, live, sidecar) = try Self.applePair()
        defer { try? FileManager.default.removeItem(at: dir) }
        let found = try #require(AppleAdjustmentSidecar.url(besidePhoto: live.photoURL))
        #expect(found.lastPathComponent == "IMG_0001.AAE")
        let apple = try AppleAdjustmentSidecar(contentsOf: found)
        #expect(apple.adjustmentData.formatIdentifier == "com.apple.photo")
        #expect(apple.adjustmentData.formatVersion == "1.4")
        #expect(apple.adjustmentData.data == [1, 2, 3, 4, 5, 6, 7, 8])  // base64 AQIDBAUGBwg=
        #expect(apple.editorBundleID == "com.apple.mobileslideshow")
        #expect(apple.baseVersion == 0)
        #expect(apple.timestamp == Date(timeIntervalSince1970: 1_618_051_800))  // 2021-04-10T10:50:00Z
        // Photos' sidecar of an edited original: IMG_O0001.AAE.
        try FileManager.default.moveItem(at: sidecar, to: dir.appendingPathComponent("IMG_O0001.AAE"))
        #expect(AppleAdjustmentSidecar.url(besidePhoto: live.photoURL)?.lastPathComponent == "IMG_O0001.AAE")
        // Lux does not take Photos' edit for one of its own.
        #expect(throws: LivePhotoError.self) {
            _ = try LivePhotoEditRecord(contentsOf: dir.appendingPathComponent("IMG_O0001.AAE"))
        }
        // A file that is not a property list with Apple's keys is refused.
        let junk = dir.appendingPathComponent("IMG_0002.AAE")
        try Data("not a plist".utf8).write(to: junk)
        #expect(throws: LivePhotoError.self) { _ = try AppleAdjustmentSidecar(contentsOf: junk) }
    }

    @Test("Lux's sidecar is .luxedit; an edit never writes or replaces an .AAE, even when asked to", .needs("ffmpeg"))
    func neverWritesAAE() async throws {
        let (dir, live, sidecar) = try Self.applePair()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Data(contentsOf: sidecar)
        let recipe = LivePhotoAdjustments(filterChain: "SepiaTone intensity=1")
        let context = try LivePhotoEditingContext(livePhoto: live, adjustments: recipe)
        var output = LivePhotoEditingOutput(
            directory: dir, baseName: "IMG_E0001", adjustmentData: try recipe.adjustmentData())
        #expect(output.adjustmentDataURL.lastPathComponent == "IMG_E0001.luxedit")
        // Asked to write the sidecar under Photos' name (the original's): refused before anything is written.
        output.adjustmentDataURL = sidecar
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        await #expect(throws: LivePhotoError.self) { _ = try await context.save(to: output) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == names)
        #expect(try Data(contentsOf: sidecar) == before)
        // The record's writer refuses the name too, in any case.
        let record = try LivePhotoEditRecord(
            adjustmentData: recipe.adjustmentData(), original: live, edited: live)
        for name in ["IMG_0001.AAE", "IMG_0001.aae"] {
            #expect(throws: LivePhotoError.self) { try record.write(to: dir.appendingPathComponent(name)) }
        }
        #expect(try Data(contentsOf: sidecar) == before)
    }
}
