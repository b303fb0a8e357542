import Foundation
import LuxCodecs
import LuxLive
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// A Live Photo whose movie cannot be decoded: a typed error naming the movie, nothing half-written, and the still
/// editable alone.
@Suite struct DamagedMovieEditingTests {
    /// The real iPhone pair copied into a fresh folder, its movie's bytes passed through `damage`.
    static func pair(damage: ([UInt8]) throws -> [UInt8]) throws -> (folder: URL, photo: URL, movie: URL) {
        let dir = try LiveFixtures.folder()
        let photo = dir.appendingPathComponent("IMG_0001.JPG")
        let movie = dir.appendingPathComponent("IMG_0001.MOV")
        try FileManager.default.copyItem(at: ApplePairEditingTests.photo, to: photo)
        let original = [UInt8](
            try Data(contentsOf: ApplePairEditingTests.photo.deletingPathExtension().appendingPathExtension("mov")))
        try Data(try damage(original)).write(to: movie)
        return (dir, photo, movie)
    }

    /// The offset and size of the top-level atom `type` (the iPhone's movie: `ftyp`, `wide`, `mdat`, `moov`).
    static func atom(_ type: String, in bytes: [UInt8]) throws -> (offset: Int, size: Int) {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == type { return (offset, size) }
            try #require(size >= 8)
            offset += size
        }
        try #require(Bool(false), "no \(type) atom")
        return (0, 0)
    }

    @Test("frames of noise: saving throws naming the movie and writes nothing; the still is then saved alone")
    func noisyFrames() async throws {
        let (dir, photo, movie) = try Self.pair { bytes in
            let mdat = try Self.atom("mdat", in: bytes)
            var noisy = bytes
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            for i in (mdat.offset + 8)..<(mdat.offset + mdat.size) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                noisy[i] = UInt8(truncatingIfNeeded: state >> 33)
            }
            return noisy
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LivePhoto(pairing: photo)  // the structure reads: the damage shows only when decoding
        let recipe = LivePhotoAdjustments(filterChain: "SepiaTone intensity=1")
        let context = try LivePhotoEditingContext(livePhoto: live, adjustments: recipe)
        #expect(context.movieProblem == nil)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let output = LivePhotoEditingOutput(
            directory: out, baseName: "IMG_E0001", adjustmentData: try recipe.adjustmentData())
        do {
            _ = try await context.save(to: output)
            Issue.record("a movie of noise was saved")
        } catch {
            guard case .unreadable(let url, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(url == movie)
            #expect(error.description.contains("IMG_0001.MOV"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
        let still = try await context.saveStill(to: output)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["IMG_E0001.JPG"])
        #expect(try ImageFile.info(url: still).width == 4032)
    }

    @Test(
        "a movie cut short: the context reports it, the movie's renders throw, the still alone is edited and unpaired",
        .needs("exiftool"))
    func truncated() async throws {
        let (dir, photo, movie) = try Self.pair { Array($0.prefix($0.count / 2)) }  // the header (at the end) is lost
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: LivePhotoError.self) { _ = try LivePhoto(pairing: photo) }
        let live = LivePhoto(
            photoURL: photo, movieURL: movie, contentIdentifier: "", photoTime: .zero, duration: .zero)
        var context = try LivePhotoEditingContext(livePhoto: live)
        context.frameProcessor = { frame in try frame.image.applyingFilter("SepiaTone", parameters: [:]) }
        guard case .unreadable(let url, _) = context.movieProblem else {
            Issue.record("no movie problem: \(String(describing: context.movieProblem))")
            return
        }
        #expect(url == movie && !context.canRenderMovie)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let output = LivePhotoEditingOutput(directory: out, baseName: "IMG_E0001")
        await #expect(throws: LivePhotoError.self) { _ = try await context.save(to: output) }
        await #expect(throws: LivePhotoError.self) {
            _ = try await context.prepareForPlayback(targetSize: Size(width: 480, height: 360), in: out)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
        let still = try await context.saveStill(to: output)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["IMG_E0001.JPG"])
        let tags = try LiveFixtures.exiftool(still.path)
        #expect(tags["ContentIdentifier"] == nil && tags["MediaGroupUUID"] == nil, "still paired: \(tags)")
        #expect(tags["Make"] as? String == "Apple" && tags["ImageWidth"] as? Int == 4032)
        let original = try LiveFixtures.exiftool(photo.path)
        #expect(original["MediaGroupUUID"] as? String == "E905E6C6-C747-4805-942F-9904A0281F02")
    }
}
