import FoundationEssentials
import FuzzSupport
import Glibc
import LuxCodecs
import LuxColor
import LuxPixels

/// QuickTime: the atom walk (`ftyp`, `moov`, tracks, sample tables, edit lists, `meta` keys and items),
/// the presentation timeline of every track, timed metadata, PCM audio and the first Motion-JPEG frame.
func fuzzQuickTime(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    guard let movie = try? QuickTimeMovie(data: Data(bytes), limits: Fuzz.options.limits) else { return 0 }
    _ = movie.contentIdentifier
    _ = movie.stillImageTime
    _ = movie.videoTrack?.description
    for track in movie.tracks {
        _ = track.nominalFrameRate
        guard let samples = try? movie.samples(of: track) else { continue }
        _ = try? movie.sample(of: track, at: movie.duration)
        switch track.kind {
        case .video:
            if let first = samples.first {
                _ = try? movie.decodeVideoFrame(first, of: track, reducedBy: 8, options: Fuzz.options)
            }
        case .timedMetadata:
            _ = try? movie.timedMetadata(in: track)
        case .audio:
            _ = try? movie.audioSamples(of: track)
        case .other:
            if let first = samples.first { _ = try? movie.sampleData(first) }
        }
    }
    return 0
}

@_cdecl("fuzz_quicktime_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzQuickTime) { try QuickTimeSeeds.all() }
}

/// Small movies QuickTimeWriter writes: Motion-JPEG with PCM audio, timed metadata, a still-image time and
/// movie-level metadata, in two layouts.
enum QuickTimeSeeds {
    static func all() throws -> [(String, [UInt8])] {
        let folder = URL(fileURLWithPath: "/tmp/lux-fuzz-quicktime-seeds-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var seeds: [(String, [UInt8])] = []
        let layouts = [("mjpeg", false, false, false), ("mjpeg-pcm", true, false, true), ("live", true, true, false)]
        for (name, audio, live, fastStart) in layouts {
            let url = folder.appendingPathComponent(name + ".mov")
            let video = QuickTimeWriter.VideoSettings(width: 16, height: 8, codec: .motionJPEG, quality: 0.3)
            let writer = try QuickTimeWriter(
                writingTo: url,
                settings: .init(
                    video: video, audio: audio ? .init(sampleRate: 8000, channelCount: 1, codec: .pcm) : nil,
                    metadata: live ? [MovieMetadataItem(key: .contentIdentifier, value: .string("0A1B-2C3D"))] : [],
                    fastStart: fastStart, synchronizesFile: false))
            let frame = Seeds.gradient(width: 16, height: 8)
            for i in 0..<3 { try writer.appendVideoFrame(frame, at: MediaTime(value: Int64(i), timescale: 30)) }
            if audio { try writer.appendAudio([Int16](repeating: 1000, count: 800)) }
            if live { try writer.setStillImageTime(MediaTime(value: 1, timescale: 30)) }
            try writer.finish()
            seeds.append((name + ".mov", Array(try Data(contentsOf: url))))
        }
        return seeds
    }
}
