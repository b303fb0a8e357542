import Foundation
import LuxCodecs
import LuxFusion
import LuxLive
import LuxPixels
import LuxRender
import LuxTestSupport
import Synchronization
import Testing

/// The real iPhone 6s Live Photo (a 12 MP JPEG and an H.264 movie of 22 frames) edited end to end, checked with
/// ffprobe, ffmpeg and exiftool; and an HEVC Live Photo made from it by ffmpeg/libx265.
@Suite struct ApplePairEditingTests {
    static let photo = URL(fileURLWithPath: TestData.root + "/livephoto/iphone6s_livephoto_train.jpg")

    @Test(
        "sepia over the still and every frame: H.264 + AAC, 22 frames, a new identifier in both files, PSNR ≥ 35 dB",
        .needs("ffmpeg", "ffprobe", "exiftool"))
    func sepia() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = try LivePhoto(photoURL: Self.photo)
        let recipe = LivePhotoAdjustments(filterChain: "SepiaTone intensity=1")
        var context = try LivePhotoEditingContext(livePhoto: original, adjustments: recipe)
        let sepia = try #require(context.frameProcessor)
        // The images Lux renders for three frames, kept to compare with what ffmpeg decodes from the movie.
        let rendered = Mutex<[Int: Image]>([:])
        let watched: [Int64: Int] = [0: 0, 280: 7, 721: 21]  // frame time (1/600 s) → frame number
        let seen = Mutex<[LivePhotoFrame.FrameType: Int]>([:])
        context.frameProcessor = { frame in
            let image = try sepia(frame)
            seen.withLock { $0[frame.type, default: 0] += 1 }
            if frame.type == .video, let k = watched[frame.time.converted(toTimescale: 600).value] {
                rendered.withLock { $0[k] = image }
            }
            return image
        }
        var output = LivePhotoEditingOutput(
            directory: dir, baseName: "IMG_E0001", adjustmentData: try recipe.adjustmentData())
        output.synchronizesFiles = false
        let edited = try await context.save(to: output)
        #expect(seen.withLock { $0 } == [.photo: 1, .video: 22])
        #expect(edited.contentIdentifier != original.contentIdentifier)
        #expect(edited.photoTime == original.photoTime && edited.duration == original.duration)

        let (streams, format) = try LiveFixtures.probe(edited.movieURL.path)
        #expect(streams.map { $0["codec_tag_string"] as? String ?? "?" } == ["avc1", "mp4a", "mebx"])
        #expect(streams[0]["width"] as? Int == 1440 && streams[0]["height"] as? Int == 1080)
        #expect(abs((Int(streams[0]["nb_frames"] as? String ?? "") ?? 0) - 22) <= 1)
        #expect(abs((Double(format["duration"] as? String ?? "") ?? 0) - original.duration.seconds) <= 0.05)
        #expect(abs((Double(streams[1]["duration"] as? String ?? "") ?? 0) - original.duration.seconds) <= 0.05)
        let tags = format["tags"] as? [String: Any] ?? [:]
        #expect(tags["com.apple.quicktime.content.identifier"] as? String == edited.contentIdentifier)
        #expect(tags["com.apple.quicktime.model"] as? String == "iPhone 6s")
        let stillTags = try LiveFixtures.exiftool(edited.photoURL.path)
        #expect((stillTags["MediaGroupUUID"] ?? stillTags["ContentIdentifier"]) as? String == edited.contentIdentifier)
        #expect(stillTags["ImageWidth"] as? Int == 4032 && stillTags["ImageHeight"] as? Int == 3024)
        let movieTags = try LiveFixtures.exiftool(edited.movieURL.path, ["-ee"])
        #expect(movieTags["ContentIdentifier"] as? String == edited.contentIdentifier)
        #expect((movieTags["StillImageTime"] as? NSNumber)?.intValue == -1)

        // ffmpeg's decoding of the edited movie against the frames Lux rendered.
        let decoded = try ExternalTool.capture(
            "ffmpeg",
            [
                "-v", "error", "-i", edited.movieURL.path, "-map", "0:v", "-fps_mode", "passthrough", "-f", "rawvideo",
                "-pix_fmt", "rgb24", "-",
            ]
        ).succeeded()
        let size = 1440 * 1080 * 3
        let bytes = [UInt8](decoded.stdout)
        #expect(bytes.count == 22 * size)
        let renderer = RenderContext()
        for (k, image) in rendered.withLock({ $0 }).sorted(by: { $0.key < $1.key }) where bytes.count >= (k + 1) * size
        {
            let mine = try await renderer.createBuffer(
                image, from: Rect(width: 1440, height: 1080), format: .rgba8, colorSpace: .sRGB)
            // RGB without alpha through buffer pointers: a small array per pixel took seconds in a debug build.
            let rgba = mine.components(as: UInt8.self)
            let reference = rgba.withUnsafeBufferPointer { source in
                [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
                    for i in 0..<(size / 3) {
                        out[3 * i] = source[4 * i]
                        out[3 * i + 1] = source[4 * i + 1]
                        out[3 * i + 2] = source[4 * i + 2]
                    }
                    initialized = size
                }
            }
            let value = psnr(Array(bytes[(k * size)..<((k + 1) * size)]), reference, peak: 255)
            #expect(value >= 35, "frame \(k): \(value) dB")
        }
        #expect(rendered.withLock { $0.count } == 3)
    }

    @Test("the seed's four frame processors run over the still and all 22 frames of the iPhone movie")
    func seedProcessors() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LivePhoto(photoURL: Self.photo)
        let duration = live.duration.seconds
        let tP = live.photoTime.seconds
        @Sendable func square(_ e: Rect) -> Rect {
            let side = min(e.width, e.height)
            return Rect(x: (e.width - side) / 2, y: (e.height - side) / 2, width: side, height: side)
        }
        let processors: [String: LivePhotoEditingContext.FrameProcessor] = [
            "square crop": { frame in frame.image.cropped(to: square(frame.image.extent)) },
            "animated crop": { frame in
                let r = square(frame.image.extent)
                let t = frame.time.seconds
                let dt = t < tP ? (t - tP) / tP : (t - tP) / (duration - tP)
                return frame.image.cropped(
                    to: Rect(x: r.minX + dt * r.minX, y: r.minY + dt * r.minY, width: r.width, height: r.height))
            },
            "line screen": { frame in
                try frame.image.applyingFilter(
                    "LineScreen",
                    parameters: [
                        "angle": .number(3 * Double.pi / 4), "width": .number(20 * frame.renderScale),
                        "center": .vector([frame.image.extent.midX, frame.image.extent.midY]),
                    ])
            },
            "watermark on the photo": { frame in
                guard frame.type == .photo else { return frame.image }
                let logo = Image(color: Color(gray: 0.3, colorSpace: .extendedLinearSRGB)).cropped(
                    to: Rect(x: 20, y: 20, width: 60, height: 40))
                return logo.composited(over: frame.image)
            },
        ]
        for (name, processor) in processors {
            var context = try LivePhotoEditingContext(livePhoto: live)
            let counts = Mutex<[LivePhotoFrame.FrameType: Int]>([:])
            context.frameProcessor = { frame in
                counts.withLock { $0[frame.type, default: 0] += 1 }
                return try processor(frame)
            }
            let preview = try await context.prepareForPlayback(
                targetSize: Size(width: 480, height: 360), in: dir.appendingPathComponent(name))
            #expect(counts.withLock { $0 } == [.photo: 1, .video: 22], "\(name)")
            let movie = try QuickTimeMovie(contentsOf: preview.movieURL)
            #expect(movie.videoTrack?.sampleCount == 22 && movie.videoTrack?.codec == "avc1", "\(name)")
            let still = try ImageFile.info(url: preview.photoURL)
            let squared = name.hasSuffix("crop")
            #expect(squared ? still.width == still.height : still.width == 480, "\(name)")
        }
    }

    @Test(
        "auto-trim and stabilisation measure the iPhone's 22 decoded H.264 frames; the stabilised preview plays",
        .tags(.long), .longRunning, .needs("ffprobe"))
    func motion() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LivePhoto(photoURL: Self.photo)
        var recipe = LivePhotoAdjustments(audioVolume: 1)
        recipe.autoTrim = LivePhotoAutoTrimmer()
        recipe.stabilization = LivePhotoStabilizer()
        let measured = try LivePhotoEditingContext(livePhoto: live, adjustments: recipe)
        #expect(measured.videoFrameTransforms?.count == 22)
        #expect(measured.timeRange.contains(live.photoTime))
        // Whatever is cut, the half second each side of the still (the trimmer's margin) is kept.
        #expect(measured.timeRange.lowerBound.seconds <= max(0, live.photoTime.seconds - 0.5) + 1e-9)
        #expect(
            measured.timeRange.upperBound.seconds >= min(live.duration.seconds, live.photoTime.seconds + 0.5) - 1e-9)
        let stabilised = try await measured.prepareForPlayback(
            targetSize: Size(width: 240, height: 180), in: dir.appendingPathComponent("stabilised"))
        let (streams, _) = try LiveFixtures.probe(stabilised.movieURL.path)
        #expect(streams.first?["codec_tag_string"] as? String == "avc1")
    }

    @Test(
        "a trim of the iPhone's decoded H.264 movie keeps the frames, sound and photo time inside it", .needs("ffprobe")
    )
    func trim() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LivePhoto(photoURL: Self.photo)
        // A trim to 0.2…1.0 s: ffprobe lists the frames starting at 0.2, 0.267, … 0.933 s (12), and the photo time
        // 0.48 s becomes 0.28 s.
        var trimmed = try LivePhotoEditingContext(livePhoto: live)
        trimmed.timeRange = MediaTime(value: 1, timescale: 5)..<MediaTime(value: 1, timescale: 1)
        let preview = try await trimmed.prepareForPlayback(
            targetSize: Size(width: 240, height: 180), in: dir.appendingPathComponent("trimmed"))
        #expect(abs(preview.photoTime.seconds - 0.28) < 0.002)
        let (streams, format) = try LiveFixtures.probe(preview.movieURL.path)
        #expect(abs((Int(streams.first?["nb_frames"] as? String ?? "") ?? 0) - 12) <= 1)
        #expect(abs((Double(format["duration"] as? String ?? "") ?? 0) - 0.8) <= 0.05)
        #expect(streams.dropFirst().first?["codec_tag_string"] as? String == "mp4a")
    }

    @Test(
        "an HEVC 10-bit Live Photo (made by ffmpeg/libx265) is edited; H.264 by default, HEVC on request",
        .needs("ffmpeg", "ffprobe"))
    func hevc() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let movieURL = dir.appendingPathComponent("IMG_0002.MOV")
        let photoURL = dir.appendingPathComponent("IMG_0002.JPG")
        try FileManager.default.copyItem(at: Self.photo, to: photoURL)
        try ExternalTool.capture(
            "ffmpeg",
            [
                "-v", "error", "-i", Self.photo.deletingPathExtension().appendingPathExtension("mov").path, "-map",
                "0:v", "-map", "0:a", "-frames:v", "8", "-vf", "scale=480:360", "-c:v", "libx265", "-x265-params",
                "log-level=error", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1", "-c:a", "aac", "-movflags",
                "use_metadata_tags", "-metadata",
                "com.apple.quicktime.content.identifier=" + "E905E6C6-C747-4805-942F-9904A0281F02",
                movieURL.path,
            ]
        ).succeeded()
        let live = try LivePhoto(photoURL: photoURL, movieURL: movieURL)
        var context = try LivePhotoEditingContext(livePhoto: live)
        #expect(context.canRenderMovie && context.videoFrameTimes.count == 8)
        context.frameProcessor = { frame in try frame.image.applyingFilter("SepiaTone", parameters: [:]) }
        for codec in [VideoCodec.h264, .hevc] {
            var output = LivePhotoEditingOutput(directory: dir, baseName: "IMG_E0002-\(codec.rawValue)")
            output.videoCodec = codec
            output.synchronizesFiles = false
            let edited = try await context.save(to: output)
            let (streams, _) = try LiveFixtures.probe(edited.movieURL.path)
            #expect(streams.first?["codec_tag_string"] as? String == codec.fourCC)
            #expect(streams.first?["nb_frames"] as? String == "8")
            #expect(streams.first?["width"] as? Int == 480 && streams.first?["height"] as? Int == 360)
        }
    }
}
