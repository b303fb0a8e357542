import Foundation
import LuxStudio
import LuxTestSupport
import Testing

@Suite struct GalleryFoldersTests {
    /// A capture folder with one file, a second folder, and a secret file beside them.
    func makeFolders() throws -> (base: URL, gallery: GalleryFolders) {
        let base = try ExternalTool.temporaryFolder("lux-studio-gallery")
        let captures = base.appendingPathComponent("captures")
        let more = base.appendingPathComponent("more")
        try FileManager.default.createDirectory(
            at: captures.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: more, withIntermediateDirectories: true)
        try Data("photo".utf8).write(to: captures.appendingPathComponent("IMG_1.jpg"))
        try Data("nested".utf8).write(to: captures.appendingPathComponent("sub/IMG_2.jpg"))
        try Data("more".utf8).write(to: more.appendingPathComponent("a b.png"))
        try Data("secret".utf8).write(to: base.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(
            at: captures.appendingPathComponent("escape.jpg"),
            withDestinationURL: base.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(
            at: captures.appendingPathComponent("inside.jpg"),
            withDestinationURL: captures.appendingPathComponent("IMG_1.jpg"))
        return (base, GalleryFolders(captureFolder: captures, folders: [more]))
    }

    @Test("files inside the folders resolve, percent-encoded or not")
    func insideFiles() throws {
        let (base, gallery) = try makeFolders()
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(try Data(contentsOf: gallery.file(named: "0/IMG_1.jpg")) == Data("photo".utf8))
        #expect(try Data(contentsOf: gallery.file(named: "0/sub/IMG_2.jpg")) == Data("nested".utf8))
        #expect(try Data(contentsOf: gallery.file(named: "1/a%20b.png")) == Data("more".utf8))
        // A symlink that stays inside its folder is served as the file it names.
        #expect(try Data(contentsOf: gallery.file(named: "0/inside.jpg")) == Data("photo".utf8))
    }

    @Test(
        "names that leave the folders are refused",
        arguments: [
            "0/../secret.txt", "0/%2e%2e/secret.txt", "0/%2E%2E/secret.txt", "0/..%2fsecret.txt",
            "0/sub/../../secret.txt",
            "0/escape.jpg", "0//IMG_1.jpg", "0/./IMG_1.jpg", "0/IMG_1.jpg%00.png", "2/IMG_1.jpg", "-1/IMG_1.jpg",
            "x/IMG_1.jpg", "IMG_1.jpg", "0/sub", "0/missing.jpg", "0/..\\secret.txt",
        ])
    func outsideFiles(name: String) throws {
        let (base, gallery) = try makeFolders()
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(throws: StudioError.self) { try gallery.file(named: name) }
    }

    @Test("a still with a movie of the same base name is one Live Photo item; other files are listed by kind")
    func listing() throws {
        let (base, gallery) = try makeFolders()
        defer { try? FileManager.default.removeItem(at: base) }
        let captures = base.appendingPathComponent("captures")
        try Data("still".utf8).write(to: captures.appendingPathComponent("IMG_9.heic"))
        try Data("movie".utf8).write(to: captures.appendingPathComponent("IMG_9.mov"))
        try Data("raw".utf8).write(to: captures.appendingPathComponent("IMG_3.dng"))
        try Data("notes".utf8).write(to: captures.appendingPathComponent("notes.txt"))
        let items = Dictionary(uniqueKeysWithValues: gallery.items().map { ($0.name, $0) })
        #expect(items["0/IMG_9.heic"]?.kind == .livePhoto)
        #expect(items["0/IMG_9.heic"]?.movie == "0/IMG_9.mov")
        #expect(items["0/IMG_9.mov"] == nil)
        #expect(items["0/IMG_3.dng"]?.kind == .raw)
        #expect(items["0/IMG_1.jpg"]?.kind == .photo)
        #expect(items["0/sub/IMG_2.jpg"]?.kind == .photo)
        #expect(items["1/a b.png"]?.bytes == 4)
        #expect(items["0/notes.txt"] == nil)
    }
}
