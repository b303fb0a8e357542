import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Decoding H.264 and HEVC frames through FFmpeg's libraries, checked against the ffmpeg command line's decoding
/// of the same files and against the published Y′CbCr → R′G′B′ equations.
@Suite struct VideoDecodingTests {
    static let appleMovie = "livephoto/iphone6s_livephoto_train.mov"

    /// `ffmpeg -f rawvideo -pix_fmt FORMAT` of every frame of `path`, as 8- or 16-bit codes.
    static func rawFrames(_ path: String, pixelFormat: String, filter: [String] = []) throws -> [UInt16] {
        let out = try ExternalTool.capture(
            "ffmpeg",
            ["-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough"] + filter + [
                "-f", "rawvideo", "-pix_fmt", pixelFormat, "-",
            ])
        if pixelFormat.hasSuffix("le") {
            return out.stdout.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }.map { UInt16(littleEndian: $0) }
        }
        return out.stdout.map { UInt16($0) }
    }

    /// All frames of a movie with their planes.
    static func decode(_ url: URL, options: VideoDecodingOptions = VideoDecodingOptions(keepsPlanes: true)) throws
        -> [DecodedVideoFrame]
    {
        let reader = try VideoFrameReader(movie: try QuickTimeMovie(contentsOf: url), options: options)
        var frames: [DecodedVideoFrame] = []
        while let f = try reader.next() { frames.append(f) }
        return frames
    }

    @Test(
        "the iPhone's H.264 movie: 22 frames at ffprobe's times, Y′CbCr planes equal to ffmpeg's decoding",
        .needs("ffmpeg", "ffprobe"))
    func appleFrames() throws {
        let url = try Fixtures.url(Self.appleMovie)
        let frames = try Self.decode(url)
        #expect(frames.count == 22)
        let probe = try ExternalTool.capture(
            "ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts", "-of", "json", url.path])
        let json = try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any]
        let pts = (json?["frames"] as? [[String: Any]] ?? []).compactMap { $0["pts"] as? Int64 }
        #expect(frames.map { $0.time.converted(toTimescale: 600).value } == pts)
        #expect(frames.map(\.index) == Array(0..<22))
        // The stream is full-range Y′CbCr with the BT.601 (SMPTE 170M) matrix; `yuvj420p` is ffmpeg's decoding
        // without a range conversion.
        let planes = try #require(frames[0].planes)
        #expect(planes.bitDepth == 8 && planes.isFullRange && planes.matrix == .bt601)
        #expect(
            planes.width == 1440 && planes.height == 1080 && planes.chromaWidth == 720 && planes.chromaHeight == 540)
        let theirs = try Self.rawFrames(url.path, pixelFormat: "yuvj420p")
        let frameSize = 1440 * 1080 * 3 / 2
        #expect(theirs.count == 22 * frameSize)
        let mine = frames.flatMap { f in f.planes.map { $0.luma + $0.cb + $0.cr } ?? [] }
        #expect(mine == theirs, "the planes differ from ffmpeg's decoding")
        // ffmpeg's `-pix_fmt yuv420p` converts to the video range; the same conversion of our planes is within one
        // level of it.
        let video = try Self.rawFrames(url.path, pixelFormat: "yuv420p")
        let lumaCount = 1440 * 1080
        var videoWorst = 0
        for (k, code) in (planes.luma + planes.cb + planes.cr).enumerated() {
            let scaled =
                k < lumaCount
                ? 16 + Double(code) * 219 / 255 : 128 + (Double(code) - 128) * 224 / 255
            videoWorst = max(videoWorst, abs(Int(scaled.rounded()) - Int(video[k])))
        }
        #expect(videoWorst <= 1, "video-range planes differ from ffmpeg's by \(videoWorst) levels")
    }

    @Test("RGB follows the BT.601 full-range equations from the decoded planes", .needs("ffmpeg"))
    func appleRGB() throws {
        let url = try Fixtures.url(Self.appleMovie)
        var options = VideoDecodingOptions(keepsPlanes: true)
        options.timeRange = .zero..<MediaTime(value: 1, timescale: 600)
        let frames = try Self.decode(url, options: options)
        #expect(frames.count == 1)
        let frame = try #require(frames.first)
        let planes = try #require(frame.planes)
        #expect(frame.pixels.format == .rgba8 && frame.pixels.colorSpace == .sRGB)
        let rgb = frame.pixels.components(as: UInt8.self)
        // R′ = Y′ + 1.402 (Cr − 128), G′ = Y′ − 0.344 136 (Cb − 128) − 0.714 136 (Cr − 128), B′ = Y′ + 1.772 (Cb − 128)
        // (ITU-T T.871), with the chroma sample of each 2 × 2 block.
        var sum = 0.0
        var count = 0
        for y in stride(from: 1, to: 1080, by: 7) {
            for x in stride(from: 1, to: 1440, by: 5) {
                let l = Double(planes.luma[y * 1440 + x])
                let cb = Double(planes.cb[(y / 2) * 720 + x / 2]) - 128
                let cr = Double(planes.cr[(y / 2) * 720 + x / 2]) - 128
                let expected = [l + 1.402 * cr, l - 0.344_136 * cb - 0.714_136 * cr, l + 1.772 * cb].map {
                    min(255, max(0, $0))
                }
                for c in 0..<3 {
                    sum += abs(Double(rgb[4 * (y * 1440 + x) + c]) - expected[c])
                    count += 1
                }
            }
        }
        // Chroma is interpolated between samples by the converter, not repeated: a small mean difference remains.
        #expect(sum / Double(count) < 1.5, "mean difference \(sum / Double(count))")
    }

    @Test(
        "HEVC 8- and 10-bit 4:2:0 movies made by ffmpeg/libx265 decode to ffmpeg's planes",
        .needs("ffmpeg"), arguments: ["yuv420p", "yuv420p10le"])
    func hevc(pixelFormat: String) throws {
        let dir = try ExternalTool.temporaryFolder("lux-hevc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("hevc.mov")
        try ExternalTool.capture(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "12", "-c:v",
                "libx265",
                "-x265-params", "log-level=error", "-pix_fmt", pixelFormat, "-tag:v", "hvc1", url.path,
            ]
        ).succeeded()
        let frames = try Self.decode(url)
        #expect(frames.count == 12)
        #expect(frames.map { $0.time.seconds } == (0..<12).map { Double($0) / 30 })
        let deep = pixelFormat.hasSuffix("10le")
        #expect(frames[0].pixels.format == (deep ? .rgba16 : .rgba8))
        #expect(frames[0].planes?.bitDepth == (deep ? 10 : 8) && frames[0].planes?.isFullRange == false)
        let theirs = try Self.rawFrames(url.path, pixelFormat: pixelFormat)
        let mine = frames.flatMap { f in f.planes.map { $0.luma + $0.cb + $0.cr } ?? [] }
        #expect(mine.count == theirs.count)
        #expect(mine == theirs)
    }
}
