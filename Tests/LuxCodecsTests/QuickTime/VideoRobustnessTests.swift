import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Damaged and hostile H.264/HEVC movies: every failure is a typed error naming the file, never a crash or a hang.
@Suite struct VideoRobustnessTests {
    /// A fast-start (header first) H.264 movie of 12 frames, as bytes.
    static func movie(codec: VideoCodec = .h264, in dir: URL) throws -> [UInt8] {
        let url = dir.appendingPathComponent("source.mov")
        try MovieFixtures.write(to: url, frames: 12, fastStart: true, codec: codec, audioCodec: .aac)
        return [UInt8](try Data(contentsOf: url))
    }

    /// Decodes every frame of `bytes` saved as `name` in `dir`.
    static func decodeAll(_ bytes: [UInt8], name: String, in dir: URL, options: VideoDecodingOptions = .init()) throws
        -> Int
    {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        let reader = try VideoFrameReader(movie: try QuickTimeMovie(contentsOf: url), options: options)
        var count = 0
        while try reader.next() != nil { count += 1 }
        return count
    }

    /// The offset of the first `fourCC` atom type in `bytes`.
    static func find(_ fourCC: String, in bytes: [UInt8]) throws -> Int {
        let tag = Array(fourCC.utf8)
        return try #require((4..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == tag })
    }

    /// Expects `body` to throw a ``CodecError`` whose description names `file`.
    static func expectError(naming file: String, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error for \(file)")
        } catch let error as CodecError {
            #expect(error.description.contains(file), "\(error)")
        } catch {
            Issue.record("not a CodecError: \(error)")
        }
    }

    @Test("a movie cut short (its sample table points past the end) fails when opened, naming the file")
    func truncated() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Self.movie(in: dir)
        for fraction in [0.5, 0.9] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            Self.expectError(naming: "cut.mov") { _ = try Self.decodeAll(cut, name: "cut.mov", in: dir) }
        }
        // An iPhone-style movie (header last) cut short has no header at all.
        let apple = [UInt8](try Data(contentsOf: try Fixtures.url("livephoto/iphone6s_livephoto_train.mov")))
        Self.expectError(naming: "apple-cut.mov") {
            _ = try Self.decodeAll(Array(apple.prefix(apple.count / 2)), name: "apple-cut.mov", in: dir)
        }
    }

    @Test(
        "damaged frames, a missing codec configuration and a codec FFmpeg lacks give typed errors",
        arguments: [VideoCodec.h264, .hevc])
    func damaged(codec: VideoCodec) throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Self.movie(codec: codec, in: dir)
        #expect(try Self.decodeAll(bytes, name: "good.mov", in: dir) == 12)
        // The pictures' data overwritten with noise.
        var noisy = bytes
        let mdat = try Self.find("mdat", in: bytes) + 4
        var g = RobustnessTests.Generator(state: 7)
        for i in (mdat + 16)..<(bytes.count) { noisy[i] = UInt8(truncatingIfNeeded: g.next()) }
        Self.expectError(naming: "noisy.mov") { _ = try Self.decodeAll(noisy, name: "noisy.mov", in: dir) }
        // No decoder configuration ('avcC'/'hvcC' renamed).
        var unconfigured = bytes
        let config = try Self.find(codec == .h264 ? "avcC" : "hvcC", in: bytes)
        unconfigured.replaceSubrange(config..<(config + 4), with: Array("xxxx".utf8))
        Self.expectError(naming: "unconfigured.mov") {
            _ = try Self.decodeAll(unconfigured, name: "unconfigured.mov", in: dir)
        }
        // A codec FFmpeg has no decoder for.
        var unknown = bytes
        let entry = try Self.find(codec.fourCC, in: bytes)
        unknown.replaceSubrange(entry..<(entry + 4), with: Array("zzzz".utf8))
        let url = dir.appendingPathComponent("unknown.mov")
        try Data(unknown).write(to: url)
        let movie = try QuickTimeMovie(contentsOf: url)
        #expect(movie.videoTrack?.canDecodeFrames == false)
        Self.expectError(naming: "unknown.mov") { _ = try VideoFrameReader(movie: movie) }
    }

    @Test("a time table claiming more samples than the size table lists is refused when the movie is read")
    func sampleFlood() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = try Self.movie(in: dir)
        // The video track's 'stts' (the first) times its 12 frames; its first run gains 131 066 more.
        let stts = try Self.find("stts", in: bytes)
        func u32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let runs = (0..<u32(stts + 8)).map { u32(stts + 12 + 8 * $0) }
        #expect(runs.reduce(0, +) == 12)
        let count = runs[0] + 131_066
        bytes.replaceSubrange((stts + 12)..<(stts + 16), with: (0..<4).map { UInt8(count >> (24 - 8 * $0) & 0xFF) })
        let url = dir.appendingPathComponent("flood.mov")
        try Data(bytes).write(to: url)
        #expect {
            _ = try QuickTimeMovie(contentsOf: url)
        } throws: { error in
            guard let error = error as? CodecError, case .malformed = error else { return false }
            return error.description.contains("flood.mov")
                && error.description.contains("it times 131078 samples, but the size table lists 12")
        }
    }

    @Test("a time limit stops a decode with limitExceeded")
    func timeLimit() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Self.movie(in: dir)
        do {
            _ = try Self.decodeAll(bytes, name: "slow.mov", in: dir, options: VideoDecodingOptions(timeLimit: .zero))
            Issue.record("the time limit was ignored")
        } catch let error as CodecError {
            guard case .limitExceeded(let what, _, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(what.contains("slow.mov"))
        }
    }

    @Test("bit-flipped H.264 and HEVC movies never crash, hang or over-allocate", arguments: [VideoCodec.h264, .hevc])
    func mutations(codec: VideoCodec) throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = try Self.movie(codec: codec, in: dir)
        let limits = DecodingLimits(maxPixelCount: 1_000_000, maxByteCount: 64 << 20, maxChunkCount: 100_000)
        var g = RobustnessTests.Generator(state: codec == .h264 ? 11 : 12)
        for _ in 0..<60 {
            var b = original
            for _ in 0..<(1 + g.below(6)) {
                let i = g.below(original.count)
                b[i] = UInt8(truncatingIfNeeded: g.next())
            }
            guard let movie = try? QuickTimeMovie(data: Data(b), limits: limits) else { continue }
            let options = VideoDecodingOptions(limits: limits, keepsPlanes: true, timeLimit: .seconds(10))
            if let reader = try? VideoFrameReader(movie: movie, options: options) {
                while (try? reader.next()) != nil {}
            }
            _ = try? movie.audioSamples()
        }
    }
}
