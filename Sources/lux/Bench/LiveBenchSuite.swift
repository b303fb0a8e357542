import Foundation
import Lux

/// Editing a 3-second Live Photo (12 MP still + 90 frames 1440×1080, Motion-JPEG, PCM audio) with a three-filter
/// chain, against the same chain run over the frames (and the still) with FFmpeg's filters (issue 9's benchmark),
/// plus the playback preview.
enum LiveBenchSuite: BenchSuite {
    static let name = "live"
    static let summary =
        "Live Photo edit (12 MP still + 90 frames 1440×1080, 3 filters) vs ffmpeg filters; playback preview"

    /// The chain Lux applies (the blur radius is in still pixels, scaled by 1440/4032 on the frames).
    static let chain = "ExposureAdjust ev=0.5 | SepiaTone intensity=1 | GaussianBlur radius=4"

    /// The same operations in FFmpeg's filters, for a blur of `sigma` pixels.
    static func ffmpegChain(sigma: Double) -> String {
        "exposure=exposure=0.5,colorchannelmixer=rr=0.393:rg=0.769:rb=0.189:gr=0.349:gg=0.686:gb=0.168:br=0.272:bg=0.534:bb=0.131,"
            + "gblur=sigma=\(sigma)"
    }

    static func cases(in context: BenchContext) throws -> [BenchCase] {
        let still = context.inputs.appendingPathComponent("live-3s/IMG_0001.JPG")
        let movie = context.inputs.appendingPathComponent("live-3s/IMG_0001.MOV")
        if !FileManager.default.fileExists(atPath: still.path) || !FileManager.default.fileExists(atPath: movie.path) {
            try prepare(still: still, movie: movie)
        }
        let out = context.scratch.path
        let videoSigma = 4 * 1440.0 / 4032
        let movieOnly =
            "ffmpeg -v error -y -i \(movie.path) -vf '\(ffmpegChain(sigma: videoSigma))' -c:v mjpeg -q:v 3 -c:a copy \(out)/ff.mov"
        let stillOnly = "ffmpeg -v error -y -i \(still.path) -vf '\(ffmpegChain(sigma: 4))' -q:v 2 \(out)/ff.jpg"
        return [
            BenchCase(
                suite: name, name: "edit: 12 MP still + 90 frames 1440×1080, exposure + sepia + blur, saved",
                lux: ["bench-worker", name, "edit", still.path, out + "/lux"],
                peers: [
                    .init(
                        name: "ffmpeg filters, movie + still", command: ["sh", "-c", movieOnly + " && " + stillOnly]),
                    .init(name: "ffmpeg filters, movie only", command: ["sh", "-c", movieOnly]),
                ],
                megapixels: 12.19 + 90 * 1.5552, goal: "faster than ffmpeg on the same work"),
            BenchCase(
                suite: name, name: "prepareForPlayback 480×360 (same edit)",
                lux: ["bench-worker", name, "preview", still.path, out + "/preview"], peers: [], megapixels: nil,
                goal: "well under a second"),
        ]
    }

    /// A synthetic 3-second Live Photo from the iPhone still: the still itself, and 90 frames panning across a
    /// 1600×1200 reduction of it, with a 3-second tone, photo at 1.5 s.
    static func prepare(still: URL, movie: URL) throws {
        try FileManager.default.createDirectory(
            at: still.deletingLastPathComponent(), withIntermediateDirectories: true)
        let source = try ImageFile.read(url: URL(fileURLWithPath: try BenchData.photo))
        let context = RenderContext()
        let base = try context.createBuffer(
            Image(buffer: source.pixels).applyingFilter(
                "LanczosScaleTransform", parameters: ["scale": .number(1200.0 / 3024)]),
            from: Rect(x: 0, y: 0, width: 1600, height: 1200), format: .rgba8, colorSpace: .sRGB)
        var settings = QuickTimeWriter.Settings(
            video: .init(width: 1440, height: 1080), audio: .init(sampleRate: 44_100, channelCount: 1),
            metadata: [MovieMetadataItem(key: .author, value: "lux bench")])
        settings.synchronizesFile = false
        let writer = try LivePhotoWriter(photoURL: still, movieURL: movie, movie: settings)
        for i in 0..<90 {
            let x = Int((Double(i) / 89 * 150).rounded())
            let y = Int((60 + 50 * sin(Double(i) / 14)).rounded())
            let frame = try base.view(x: x, y: y, width: 1440, height: 1080).converted(to: .rgba8)
            try writer.appendVideoFrame(frame, at: MediaTime(value: Int64(i), timescale: 30))
        }
        var seed: UInt64 = 1
        let tone: [Int16] = (0..<(3 * 44_100)).map { n in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1
            return Int16(6000 * sin(2 * Double.pi * 330 * Double(n) / 44_100) + Double(Int64(seed >> 53) - 512))
        }
        try writer.appendAudio(tone)
        _ = try writer.finish(
            photo: source, photoTime: MediaTime(value: 3, timescale: 2), options: EncodingOptions(quality: 0.92))
    }

    static func work(job: String, arguments: [String]) throws -> Double {
        guard ["edit", "preview"].contains(job), arguments.count == 2 else {
            throw CLIError("usage: bench-worker live edit|preview STILL OUTDIR")
        }
        let folder = URL(fileURLWithPath: arguments[1])
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let live = try LivePhoto(photoURL: URL(fileURLWithPath: arguments[0]))
        let recipe = LivePhotoAdjustments(filterChain: chain)
        let context = try LivePhotoEditingContext(livePhoto: live, adjustments: recipe)
        var writable = LivePhotoEditingOutput(directory: folder, baseName: "IMG_E0001")
        writable.synchronizesFiles = false
        let output = writable
        let start = monotonicSeconds()
        let result = try awaitBenchWork {
            job == "edit"
                ? try await context.save(to: output)
                : try await context.prepareForPlayback(targetSize: Size(width: 480, height: 360), in: folder)
        }
        let inner = monotonicSeconds() - start
        _ = result
        return inner
    }
}
