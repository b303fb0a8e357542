import Foundation
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Inputs the fuzzers in `Fuzz/` found crashing, hanging or over-allocating, minimised, each with the typed error the
/// fixed parser now reports.
///
/// The files are named `HARNESS-what.ext` and run through the same calls as the harness (`Fuzz/Harnesses/HARNESS`);
/// `Fuzz/run.sh HARNESS repro FILE` replays one under the fuzzer.
@Suite struct FuzzRegressionTests {
    /// The limits the harnesses decode with (Fuzz/Sources/FuzzSupport).
    static let options = DecodingOptions(
        limits: DecodingLimits(maxPixelCount: 4_000_000, maxByteCount: 64 << 20, maxChunkCount: 1 << 16), threads: 1)

    /// Each regression input and a phrase the error must contain (what the parser now says about it).
    static let expectations: [String: String] = [
        // DHT counts of 3 one-bit codes: the lookahead table was indexed past its end.
        "tiff-huffman-oversubscribed.dng": "over-subscribe the code space",
        // A GainMap opcode whose point count × 4 overflowed (see gainMapSizeOverflow); the file itself
        // has no tile data.
        "tiff-gainmap-size-overflow.dng": "lie beyond the end of the 1252-byte file",
        // A video track whose stts runs (2^32 − 1 samples of 2^32 − 1 ticks) overflowed the media duration
        // (see sampleTableDurationOverflow); the atoms come from the iPhone movie with its media data cut off. The
        // runs time more samples than the 22 the size table lists, which is now refused when the movie is read.
        // Their third track (mutated) has no 'mdhd', which is now refused first.
        "quicktime-duration-overflow-1.mov": "track 3 at byte 1926: it has no 'mdhd' atom",
        "quicktime-duration-overflow-2.mov": "track 3 at byte 1926: it has no 'mdhd' atom",
        // A ctts run of 1 811 939 330 samples was counted one by one (minutes in a debug build) for a 22-sample track.
        // Its 'stts' is missing too, which is now refused while the movie is read.
        "quicktime-slow.mov": "its 22 samples have no time-to-sample table",
        // An iTXt chunk holding only the XMP keyword, its NUL and the compression flag: reading on from the
        // method byte formed a range whose lower bound lay past the chunk's end (a trap). The chunk is now
        // skipped and the next one, which claims 2 GB, is what the file fails on.
        "png-itxt-truncated-1.png": "PNG pmet chunk at byte 1017 extends past the end of the data",
        "png-itxt-truncated-2.png": "chunk at byte 1017 extends past the end of the data",
        // An HEVC track whose sample description says 65463×48 while its frames are 64×48: the reader returned frames
        // of another size than the track declares (the movie harness's check).
        "movie-frame-size.mov": "but the track declares",
        // An H.264 track whose stts claims 131 078 samples for the 6 its size table lists, reported as a timeout by
        // the movie fuzzer (on a loaded machine; it decoded in milliseconds here). The disagreement is refused now.
        "movie-slow-sample-table.mov": "it times 131078 samples, but the size table lists 6",
        // An H.264 track whose ctts presents its third frame before its second (pts 2048, 4067072, 2048): the reader
        // handed out frames going back in time (the movie harness's check).
        "movie-time-goes-back.mov": "before frame 2",
        // The next four were the movie fuzzer's timeouts: each moov-level 'keys' atom claims 83 or 134 million entries in
        // 72 bytes, for which FFmpeg's demuxer allocated 0.7–1 GiB and freed it entry by entry (seconds) before
        // refusing the header. FFmpeg's allocations are bounded now (`metaKeyCountIsBounded`). The first three carry
        // other defects too, which Lux's reader refuses first: a video track whose 'stts' was renamed (six sized
        // samples with no times), an edit starting at media time −16 777 176 (only −1, an empty edit, may be
        // negative), tracks whose 'mdhd' atoms were renamed (no media timescale).
        "movie-no-time-table.mov": "have no time-to-sample table",
        "movie-negative-edit.mov": "starts at media time -16777176",
        "movie-no-media-header.mov": "it has no 'mdhd' atom",
        // The fourth has nothing else wrong that Lux's reader checks: FFmpeg's allocation bound refuses it.
        "movie-meta-key-count.mov": "80 MiB FFmpeg may allocate at once",
        // A TIFF naming a Hasselblad camera whose model text overflows a buffer inside LibRaw 0.20's model parsing
        // (parseHassyModel's strcat): glibc's fortified copy aborted the whole process. LibRaw now reads every
        // header first in a child process (lux_libraw_probe), so the abort ends the child and the file is refused.
        "cameraraw-hasselblad-model.tif": "crashed reading its header",
    ]

    static func bytes(_ name: String) throws -> [UInt8] {
        let folder = try #require(Bundle.module.url(forResource: "FuzzRegressions", withExtension: nil))
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// Findings that must now decode (each with its own test against an outside decoder) rather than throw.
    static let decodable: Set<String> = ["audio-14-channels.mov", "gif-frame-off-canvas.gif"]

    @Test("every committed regression input has an expectation")
    func everyFileIsListed() throws {
        let folder = try #require(Bundle.module.url(forResource: "FuzzRegressions", withExtension: nil))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == Set(Self.expectations.keys).union(Self.decodable).sorted())
    }

    @Test("a GainMap claiming 2^31 × 2^30 points is kept opaque instead of overflowing the size check")
    func gainMapSizeOverflow() throws {
        // One opcode (ID 9, DNG 1.3, optional) with the 76 fixed parameter bytes and no gains: area 0…2 × 0…2,
        // 1 plane, pitch 1; points V = 2^31, H = 2^30; spacing/origin 0; 1 map plane. 2^61 gains × 4 bytes
        // overflowed Int before the comparison with the 0 bytes present.
        var params: [UInt8] = []
        for v: UInt32 in [0, 0, 2, 2, 0, 1, 1, 1, 1 << 31, 1 << 30] { params += Self.be32(v) }
        params += [UInt8](repeating: 0, count: 32) + Self.be32(1)
        let list =
            Self.be32(1) + Self.be32(9) + Self.be32(0x0103_0000) + Self.be32(1) + Self.be32(UInt32(params.count))
            + params
        let parsed = try DNGOpcode.parseList(list)
        #expect(parsed.count == 1)
        guard case .other(let id, let kept) = parsed.first?.operation else {
            Issue.record("expected the damaged gain map to be kept opaque, got \(parsed)")
            return
        }
        #expect(id == 9 && kept == params)
    }

    @Test("a sample table of 2^32 − 1 samples of 2^32 − 1 ticks saturates its duration instead of overflowing")
    func sampleTableDurationOverflow() {
        var table = SampleTable()
        table.timeRuns = [SampleTable.TimeRun(count: .max, delta: .max)]
        // (2^32 − 1)^2 = 18 446 744 065 119 617 025 > Int64.max: before, Int64 multiplication trapped.
        #expect(table.mediaDuration == .max)
        table.timeRuns = [SampleTable.TimeRun(count: 1 << 16, delta: 1 << 16), SampleTable.TimeRun(count: 3, delta: 5)]
        #expect(table.mediaDuration == (1 << 32) + 15)
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    /// An AAC track of 14 channels, the movie fuzzer's finding, decodes every channel.
    ///
    /// A planar frame's planes past the eighth were read beyond `AVFrame.data` (a stack overflow under
    /// AddressSanitizer); they come from `extended_data` now, and every channel matches FFmpeg's own decode.
    @Test("a 14-channel AAC track decodes every channel as ffmpeg does", .needs("ffmpeg"))
    func audioPastEightChannels() throws {
        let folder = try #require(Bundle.module.url(forResource: "FuzzRegressions", withExtension: nil))
        let url = folder.appendingPathComponent("audio-14-channels.mov")
        let movie = try QuickTimeMovie(data: Data(contentsOf: url), limits: Self.options.limits)
        let track = try #require(movie.tracks.first { $0.kind == .audio })
        let audio = try movie.audioSamples(of: track)
        #expect(audio.channelCount == 14)
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let reference = dir + "/audio.s16"
        let ffmpeg = try ExternalTool.run(
            "ffmpeg", ["-v", "quiet", "-i", url.path, "-map", "0:a", "-f", "s16le", "-acodec", "pcm_s16le", reference])
        #expect(ffmpeg.status == 0)
        let expected = try Data(contentsOf: URL(fileURLWithPath: reference)).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
        let count = min(expected.count, audio.samples.count)
        #expect(count >= 14 * 512, "\(audio.samples.count) samples from Lux, \(expected.count) from ffmpeg")
        let worst = zip(audio.samples.prefix(count), expected.prefix(count)).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest difference from ffmpeg's decode: \(worst)")
    }

    /// A frame placed 34048 rows below a 16-row screen and disposed to the background, the gif fuzzer's finding.
    ///
    /// Clearing its (empty) area formed the range 34048..<16 and trapped; every frame now decodes as ImageMagick
    /// coalesces it.
    @Test("a GIF frame placed off the canvas decodes frame by frame as ImageMagick coalesces it", .needs("convert"))
    func gifFrameOffCanvas() throws {
        let folder = try #require(Bundle.module.url(forResource: "FuzzRegressions", withExtension: nil))
        let url = folder.appendingPathComponent("gif-frame-off-canvas.gif")
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let coalesced = try ExternalTool.capture("convert", [url.path, "-coalesce", dir + "/frame-%d.ppm"])
        try #require(coalesced.status == 0, "convert: \(coalesced.errorText)")
        for i in 0..<3 {
            let file = try ImageFile.read(url: url, options: DecodingOptions(imageIndex: i))
            let reference = try NetPBM.readPPM(dir + "/frame-\(i).ppm")
            #expect(WebPTests.meanDifference(file.pixels, reference) == 0, "frame \(i)")
        }
    }

    /// FFmpeg's demuxer alone, without Lux's own reader in front, refuses every movie whose 'keys' atom claims millions of
    /// entries with the allocation bound, at once.
    ///
    /// Before the bound, FFmpeg allocated the claimed table (8 bytes an entry: 671 MiB to 1 GiB here) and freed it entry
    /// by entry: seconds and a gigabyte for a 9 KB file, which its interrupt callback cannot stop.
    @Test(
        "FFmpeg's demuxer refuses a 'keys' atom claiming millions of entries with its allocation bound",
        arguments: [
            "movie-no-time-table.mov", "movie-negative-edit.mov", "movie-no-media-header.mov",
            "movie-meta-key-count.mov",
        ])
    func metaKeyCountIsBounded(_ name: String) throws {
        let data = Data(try Self.bytes(name))
        let error = #expect(throws: CodecError.self) { _ = try MediaInput(data: data, name: name, timeLimit: nil) }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains(name) && message.contains("80 MiB FFmpeg may allocate at once"), "\(message)")
    }

    @Test("fuzzer findings now throw a typed error naming the problem", arguments: expectations.keys.sorted())
    func regression(_ name: String) throws {
        let bytes = try Self.bytes(name)
        let harness = name.prefix { $0 != "-" }
        var message: String?
        do {
            switch harness {
            case "tiff", "jpeg", "png":
                _ = try? ImageFile.info(data: bytes, limits: Self.options.limits)
                _ = try ImageFile.read(data: bytes, options: Self.options)
            case "exif":
                _ = try EXIF(tiffBytes: bytes)
            case "dngopcode":
                _ = try DNGOpcode.parseList(bytes)
            case "ljpeg":
                try withBytes(of: bytes) { raw throws(CodecError) in
                    let header = try LosslessJPEGHeader(raw, what: "fuzz")
                    try LosslessJPEGDecoder.decode(raw, header: header, what: "fuzz") { _, _ in }
                }
            case "quicktime":
                // The harness's calls; the first error is the one expected.
                let movie = try QuickTimeMovie(data: Data(bytes), limits: Self.options.limits)
                for track in movie.tracks {
                    let samples = try movie.samples(of: track)
                    switch track.kind {
                    case .video: if let s = samples.first { _ = try movie.decodeVideoFrame(s, of: track, reducedBy: 8) }
                    case .timedMetadata: _ = try movie.timedMetadata(in: track)
                    case .audio: _ = try movie.audioSamples(of: track)
                    case .other: if let s = samples.first { _ = try movie.sampleData(s) }
                    }
                }
            case "movie":
                // The movie harness's calls: every frame of every video track and the sound through FFmpeg.
                let movie = try QuickTimeMovie(data: Data(bytes), limits: Self.options.limits)
                for track in movie.tracks {
                    switch track.kind {
                    case .video:
                        let reader = try VideoFrameReader(
                            movie: movie, track: track, options: VideoDecodingOptions(limits: Self.options.limits))
                        while try reader.next() != nil {}
                    case .audio: _ = try movie.audioSamples(of: track)
                    case .timedMetadata, .other: continue
                    }
                }
            case "cameraraw":
                _ = try CameraRaw.properties(bytes, options: Self.options)
            default:
                Issue.record("unknown harness \(harness)")
            }
        } catch {
            message = "\(error)"
        }
        let expected = try #require(Self.expectations[name])
        #expect(message?.contains(expected) == true, "\(name): \(message ?? "decoded without an error")")
    }
}
