import FoundationEssentials
import FuzzSupport
import Glibc
import LuxCodecs
import LuxColor
import LuxPixels

/// The FFmpeg-backed reader path: every frame of a movie's video track through ``VideoFrameReader`` (libavformat
/// demuxing Lux's sample table, libavcodec decoding H.264, HEVC and whatever else it knows, swscale converting to
/// RGB, the Y′CbCr planes kept) and its sound through ``QuickTimeMovie/audioSamples(of:)`` (AAC by libavcodec).
///
/// A decode is bounded by a time limit below libFuzzer's 1 s timeout, so an input that makes FFmpeg spin is reported
/// as ``CodecError/limitExceeded(what:value:limit:)`` rather than a hang; one that still hangs is a finding.
func fuzzMovie(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    guard let movie = try? QuickTimeMovie(data: Data(bytes), limits: Fuzz.options.limits) else { return 0 }
    for track in movie.tracks {
        switch track.kind {
        case .video:
            let options = VideoDecodingOptions(
                limits: Fuzz.options.limits, threads: 1, keepsPlanes: true, timeLimit: .milliseconds(400))
            guard let reader = try? VideoFrameReader(movie: movie, track: track, options: options) else { continue }
            var previous: MediaTime?
            while let frame = try? reader.next() {
                // Frames come in presentation order, each the track's size.
                if let previous, frame.time < previous { fatalError("frame \(frame.index) goes back in time") }
                if frame.pixels.width != track.width || frame.pixels.height != track.height {
                    fatalError("frame \(frame.index) is \(frame.pixels.width)×\(frame.pixels.height), not the track's")
                }
                previous = frame.time
            }
        case .audio:
            _ = try? movie.audioSamples(of: track)
        case .timedMetadata, .other:
            continue
        }
    }
    return 0
}

@_cdecl("fuzz_movie_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzMovie) { try MovieSeeds.all() }
}

/// Small movies QuickTimeWriter writes with FFmpeg's encoders: H.264 and HEVC frames (key frames, reordered
/// B-frames), AAC sound, a still-image time and the content identifier, in both layouts.
enum MovieSeeds {
    static func all() throws -> [(String, [UInt8])] {
        let folder = URL(fileURLWithPath: "/tmp/lux-fuzz-movie-seeds-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var seeds: [(String, [UInt8])] = []
        let layouts: [(String, VideoCodec, Bool, Bool)] = [
            ("h264", .h264, false, false), ("h264-aac", .h264, true, true), ("hevc-aac", .hevc, true, false),
        ]
        for (name, codec, audio, fastStart) in layouts {
            let url = folder.appendingPathComponent(name + ".mov")
            let video = QuickTimeWriter.VideoSettings(
                width: 64, height: 48, codec: codec,
                compression: VideoCompression(preset: .ultrafast, constantRateFactor: 40, keyFrameInterval: 4))
            let writer = try QuickTimeWriter(
                writingTo: url,
                settings: .init(
                    video: video, audio: audio ? .init(sampleRate: 8000, channelCount: 1) : nil,
                    metadata: [MovieMetadataItem(key: .contentIdentifier, value: .string("0A1B-2C3D"))],
                    fastStart: fastStart, synchronizesFile: false))
            for i in 0..<6 {
                // A square moving across the picture, so that later frames predict from earlier ones.
                var rgba = [Float](repeating: 0.3, count: 64 * 48 * 4)
                for y in 8..<24 { for x in (8 * i)..<(8 * i + 16) { rgba[(y * 64 + x) * 4 + (x + y) % 3] = 0.9 } }
                let frame = PixelBuffer(width: 64, height: 48, format: .rgbaFloat, components: rgba, colorSpace: .sRGB)
                try writer.appendVideoFrame(frame.converted(to: .rgba8), at: MediaTime(value: Int64(i), timescale: 30))
            }
            if audio {
                try writer.appendAudio((0..<1600).map { Int16(truncatingIfNeeded: ($0 * 997) % 4000 - 2000) })
            }
            try writer.setStillImageTime(MediaTime(value: 2, timescale: 30))
            try writer.finish()
            seeds.append((name + ".mov", Array(try Data(contentsOf: url))))
        }
        return seeds
    }
}
