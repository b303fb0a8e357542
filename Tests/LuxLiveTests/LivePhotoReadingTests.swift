import Foundation
import LuxCodecs
import LuxLive
import LuxPixels
import LuxTestSupport
import Testing

/// Reading and pairing Live Photos written by Lux and by an iPhone.
@Suite struct LivePhotoReadingTests {
    static let applePhoto = URL(fileURLWithPath: TestData.root + "/livephoto/iphone6s_livephoto_train.jpg")

    @Test(
        "an iPhone pair: identifier, photo time and duration from metadata; its H.264 movie can be rendered",
        .needs("exiftool"))
    func applePair() async throws {
        let live = try LivePhoto(photoURL: Self.applePhoto)
        #expect(live.movieURL.lastPathComponent == "iphone6s_livephoto_train.mov")
        #expect(live.contentIdentifier == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(live.photoTime == MediaTime(value: 288, timescale: 600))
        #expect(live.duration == MediaTime(value: 740, timescale: 600))
        let context = try LivePhotoEditingContext(livePhoto: live)
        #expect(context.photoWidth == 4032 && context.photoHeight == 3024)
        #expect(context.videoWidth == 1440 && context.videoHeight == 1080 && context.videoFrameTimes.count == 22)
        #expect(abs(context.videoRenderScale - 1440.0 / 4032) < 1e-12)
        #expect(context.canRenderMovie && context.movieProblem == nil)
        // exiftool agrees on both identifiers.
        let still = try LiveFixtures.exiftool(Self.applePhoto.path, ["-MakerNotes:all"])
        let movie = try LiveFixtures.exiftool(live.movieURL.path, ["-Keys:ContentIdentifier"])
        let stillID = (still["MediaGroupUUID"] ?? still["ContentIdentifier"]) as? String
        #expect(stillID == live.contentIdentifier && movie["ContentIdentifier"] as? String == live.contentIdentifier)
    }

    @Test("partnerURL finds the other file of a pair by base name, in either direction, and nothing otherwise")
    func partner() throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["A.JPG", "A.mov", "b.jpeg", "b.MOV", "c.jpg", "d.mov", "e.qt", "e.JPEG"] {
            #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data()))
        }
        let url = { (name: String) in dir.appendingPathComponent(name) }
        #expect(LivePhoto.partnerURL(of: url("A.JPG"))?.lastPathComponent == "A.mov")
        #expect(LivePhoto.partnerURL(of: url("A.mov"))?.lastPathComponent == "A.JPG")
        #expect(LivePhoto.partnerURL(of: url("b.jpeg"))?.lastPathComponent == "b.MOV")
        #expect(LivePhoto.partnerURL(of: url("b.MOV"))?.lastPathComponent == "b.jpeg")
        #expect(LivePhoto.partnerURL(of: url("e.qt"))?.lastPathComponent == "e.JPEG")
        #expect(LivePhoto.partnerURL(of: url("c.jpg")) == nil)
        #expect(LivePhoto.partnerURL(of: url("d.mov")) == nil)
        #expect(LivePhoto.partnerURL(of: Self.applePhoto)?.lastPathComponent == "iphone6s_livephoto_train.mov")
    }

    @Test("pairs in a folder are matched by identifier, not by name; strangers are left out")
    func pairsInFolder() throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir, frames: 4)
        try FileManager.default.moveItem(at: live.movieURL, to: dir.appendingPathComponent("renamed.mov"))
        try FileManager.default.copyItem(at: Self.applePhoto, to: dir.appendingPathComponent("lonely.jpg"))
        let found = try LivePhoto.pairs(in: dir)
        #expect(found.count == 1)
        #expect(found.first?.movieURL.lastPathComponent == "renamed.mov")
        #expect(found.first?.contentIdentifier == LiveFixtures.identifier)
        #expect(found.first?.photoTime == MediaTime(value: 1, timescale: 15))
    }

    @Test("a pair written by Lux reads back whole; mismatched or missing identifiers and movies are refused")
    func readBackAndRefusals() throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir, frames: 9, photoTime: MediaTime(value: 1, timescale: 10))
        let read = try LivePhoto(photoURL: live.photoURL)
        #expect(read == live)
        #expect(read.duration == MediaTime(value: 3, timescale: 10))
        let other = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: other) }
        #expect(throws: LivePhotoError.self) {
            _ = try LivePhoto(
                photoURL: live.photoURL, movieURL: Self.applePhoto.deletingPathExtension().appendingPathExtension("mov")
            )
        }
        do {
            _ = try LivePhoto(photoURL: Self.applePhoto, movieURL: live.movieURL)
            Issue.record("identifiers differ")
        } catch {
            guard case .identifierMismatch = error else {
                Issue.record("\(error)")
                return
            }
        }
        let lonely = other.appendingPathComponent("x.jpg")
        try FileManager.default.copyItem(at: live.photoURL, to: lonely)
        #expect(throws: LivePhotoError.self) { _ = try LivePhoto(photoURL: lonely) }
    }
}
