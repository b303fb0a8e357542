import Foundation
import LuxCodecs
import LuxFilters
import LuxLive
import LuxPixels
import LuxRender
import LuxTestSupport
import Synchronization
import Testing

/// The four frame processors of the Live Photo editing session, run on a synthetic Live Photo, with the pixels of
/// the saved still and movie checked against the input (and against FFmpeg's decoding of the movie).
@Suite struct SeedExampleTests {
    /// Saves `live` edited by `processor` into a fresh folder.
    static func save(_ live: LivePhoto, _ dir: URL, processor: @escaping LivePhotoEditingContext.FrameProcessor)
        async throws -> LivePhoto
    {
        var context = try LivePhotoEditingContext(livePhoto: live)
        context.frameProcessor = processor
        var output = LivePhotoEditingOutput(directory: dir, baseName: "IMG_E0001")
        output.synchronizesFiles = false
        output.videoCompression.constantRateFactor = 14
        output.photoOptions = EncodingOptions(quality: 0.95, chromaSubsampling: .none)
        return try await context.save(to: output)
    }

    @Test(
        "static square crop: the still and every movie frame are cropped to the same centred square", .needs("ffprobe"))
    func squareCrop() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir)
        let edited = try await Self.save(live, dir) { frame in
            var image = frame.image
            let extent = image.extent
            let size = min(extent.width, extent.height)
            let rect = Rect(x: (extent.width - size) / 2, y: (extent.height - size) / 2, width: size, height: size)
            image = image.cropped(to: rect)
            return image
        }
        let still = try ImageFile.read(url: edited.photoURL).pixels
        #expect(still.width == 300 && still.height == 300)
        let original = try ImageFile.read(url: live.photoURL).pixels
        for (x, y) in [(0, 0), (150, 150), (299, 120)] {
            let d = maxDifference(LiveFixtures.rgb(still, x, y), LiveFixtures.rgb(original, x + 50, y))
            #expect(d < 8, "still (\(x), \(y)): \(d)")
        }
        let frames = try LiveFixtures.frames(edited.movieURL)
        let input = try LiveFixtures.frames(live.movieURL)
        #expect(frames.count == 30)
        #expect(frames.allSatisfy { $0.width == 108 && $0.height == 108 })
        let crop = try input[10].view(x: 18, y: 0, width: 108, height: 108).converted(to: .rgba8)
        #expect(LiveFixtures.meanDifference(frames[10], crop) < 3)
        let (streams, _) = try LiveFixtures.probe(edited.movieURL.path)
        #expect(streams[0]["width"] as? Int == 108 && streams[0]["height"] as? Int == 108)
    }

    @Test("time-based crop: the crop slides with the linear ramp −1 → 0 → +1 through the photo time", .needs("ffmpeg"))
    func animatedCrop() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir)
        let context = try LivePhotoEditingContext(livePhoto: live)
        let tP = context.photoTime.seconds
        let duration = context.duration.seconds
        let edited = try await Self.save(live, dir) { frame in
            var image = frame.image
            let extent = image.extent
            let size = min(extent.width, extent.height)
            let rect = Rect(x: (extent.width - size) / 2, y: (extent.height - size) / 2, width: size, height: size)
            let tF = frame.time.seconds
            // Simple linear ramp from (0, tP, duration) to (−1, 0, +1).
            let dt = tF < tP ? (tF - tP) / tP : (tF - tP) / (duration - tP)
            image = image.cropped(
                to: Rect(x: rect.minX + dt * rect.minX, y: rect.minY + dt * rect.minY, width: size, height: size))
            return image
        }
        #expect(edited.photoTime == context.photoTime)
        // The still (at tP, dt = 0) is the centred square.
        let still = try ImageFile.read(url: edited.photoURL).pixels
        let original = try ImageFile.read(url: live.photoURL).pixels
        #expect(maxDifference(LiveFixtures.rgb(still, 0, 10), LiveFixtures.rgb(original, 50, 10)) < 8)
        // Frame k's left edge sits at x = 18·(1 + dt(k)) of the input frame; red encodes x.
        let frames = try LiveFixtures.frames(edited.movieURL)
        let input = try LiveFixtures.frames(live.movieURL)
        for k in [0, 7, 15, 22, 29] {
            let tF = Double(k) / 30
            let dt = tF < tP ? (tF - tP) / tP : (tF - tP) / (duration - tP)
            let x0 = Int((18 + dt * 18).rounded())
            let expected = try input[k].view(x: x0, y: 0, width: 108, height: 108).converted(to: .rgba8)
            #expect(LiveFixtures.meanDifference(frames[k], expected) < 3, "frame \(k): crop at x = \(x0)")
        }
        // FFmpeg sees the same slide: the first frame's red at column 0 is the input's column 0, the last's is
        // near the input's column 36 (dt = 28/29 · … ≈ +0.93).
        let raw = try ExternalTool.capture(
            "ffmpeg",
            ["-v", "error", "-i", edited.movieURL.path, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let bytes = [UInt8](raw.stdout)
        let expectedCount = 30 * 108 * 108 * 3
        try #require(bytes.count == expectedCount)
        func red(_ frame: Int, _ x: Int, _ y: Int) -> Double { Double(bytes[(frame * 108 * 108 + y * 108 + x) * 3]) }
        #expect(abs(red(0, 2, 54) - LiveFixtures.rgb(input[0], 2, 54).x) < 10)
        let dtLast = (29.0 / 30 - tP) / (duration - tP)
        let xLast = Int((18 + dtLast * 18).rounded())
        #expect(abs(red(29, 2, 54) - LiveFixtures.rgb(input[29], xLast + 2, 54).x) < 10)
    }

    @Test("resolution-dependent line screen: width × renderScale gives the same number of lines on still and frames")
    func lineScreen() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A flat mid-grey scene, so the screen alone makes the pattern.
        let grey: (Int, Int) -> (UInt8, UInt8, UInt8) = { _, _ in (188, 188, 188) }
        let live = try LiveFixtures.pair(
            in: dir, frames: 6, framePicture: { _ in LiveFixtures.picture(width: 144, height: 108, pattern: grey) },
            stillPicture: LiveFixtures.picture(width: 400, height: 300, pattern: grey))
        let scales = Mutex<[LivePhotoFrame.FrameType: Double]>([:])
        let edited = try await Self.save(live, dir) { frame in
            scales.withLock { $0[frame.type] = frame.renderScale }
            var image = frame.image
            // Apply screen effect
            let scale = frame.renderScale
            image = try image.applyingFilter(
                "LineScreen",
                parameters: [
                    "angle": .number(3 * Double.pi / 4), "width": .number(20 * scale),
                    "center": .vector([image.extent.midX, image.extent.midY]),
                ])
            return image
        }
        let seen = scales.withLock { $0 }
        #expect(seen[.photo] == 1)
        #expect(abs((seen[.video] ?? 0) - 0.36) < 1e-9)
        // Reference: the screen formula in Double at every pixel.
        func reference(width w: Int, height h: Int, period: Double, x: Int, y: Int) -> Double {
            let lum = 0.2126 * 0.5 + 0.7152 * 0.5 + 0.0722 * 0.5  // sRGB 188 ≈ linear 0.5
            let a = 3 * Double.pi / 4
            let d = ((Double(x) + 0.5 - Double(w) / 2) * cos(a) + (Double(y) + 0.5 - Double(h) / 2) * sin(a)) / period
            let s = 0.5 + 0.5 * cos(2 * Double.pi * d)
            let v = min(max(0.5 + (lum - s) / 0.3, 0), 1)
            // Back to sRGB 8-bit.
            let e = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
            return 255 * e
        }
        func error(_ b: PixelBuffer, period: Double) -> Double {
            var sum = 0.0
            for y in 0..<b.height {
                for x in 0..<b.width {
                    sum += abs(
                        LiveFixtures.rgb(b, x, y).x
                            - reference(width: b.width, height: b.height, period: period, x: x, y: y))
                }
            }
            return sum / Double(b.width * b.height)
        }
        let still = try ImageFile.read(url: edited.photoURL).pixels
        #expect(error(still, period: 20) < 6)
        let frames = try LiveFixtures.frames(edited.movieURL)
        #expect(error(frames[3], period: 20 * 0.36) < 12)
        // Same number of lines: count dark runs along the middle row of each.
        func lines(_ b: PixelBuffer) -> Int {
            var count = 0
            var dark = false
            for x in 0..<b.width {
                let d = LiveFixtures.rgb(b, x, b.height / 2).x < 128
                if d && !dark { count += 1 }
                dark = d
            }
            return count
        }
        #expect(abs(lines(still) - lines(frames[3])) <= 1)
        #expect(lines(still) >= 12)
    }

    @Test("watermark on the photo only: the still gets the logo added, the movie frames do not")
    func watermark() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir)
        // A 60×40 logo of linear grey 0.3 at (20, 20), added (linear dodge) to the photo.
        let logo = Image(color: Color(gray: 0.3, colorSpace: .extendedLinearSRGB)).cropped(
            to: Rect(x: 20, y: 20, width: 60, height: 40))
        let dodge = ColorKernel(name: "linearDodge", inputCount: 2) { row in
            let p = row.pixels
            let b = row.input(1)
            for i in 0..<row.count {
                p.red[i] += b.red[i]
                p.green[i] += b.green[i]
                p.blue[i] += b.blue[i]
                p.alpha[i] = p.alpha[i] + b.alpha[i] - p.alpha[i] * b.alpha[i]
            }
        }
        let edited = try await Self.save(live, dir) { frame in
            var image = frame.image
            // Add watermark to the photo only
            if frame.type == .photo {
                // Composite logo
                image = dodge.apply(extent: image.extent, inputs: [logo, image])
            }
            return image
        }
        let still = try ImageFile.read(url: edited.photoURL).pixels
        let original = try ImageFile.read(url: live.photoURL).pixels
        #expect(still.width == 400 && still.height == 300)
        // Inside the logo: brighter by the sRGB encoding of (linear(original) + 0.3).
        func srgb(_ v: Double) -> Double { 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055) }
        func linear(_ c: Double) -> Double {
            let v = c / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let inside = LiveFixtures.rgb(original, 50, 40)
        let expected = SIMD3(
            srgb(min(1, linear(inside.x) + 0.3)), srgb(min(1, linear(inside.y) + 0.3)),
            srgb(min(1, linear(inside.z) + 0.3)))
        #expect(maxDifference(LiveFixtures.rgb(still, 50, 40), expected) < 6)
        #expect(maxDifference(LiveFixtures.rgb(still, 200, 200), LiveFixtures.rgb(original, 200, 200)) < 6)
        // The movie frames are the input frames.
        let frames = try LiveFixtures.frames(edited.movieURL)
        let input = try LiveFixtures.frames(live.movieURL)
        #expect(frames.count == input.count)
        for k in [0, 15, 29] { #expect(LiveFixtures.meanDifference(frames[k], input[k]) < 2.5) }
    }
}
