import Foundation
import LuxCodecs
import LuxLive
import LuxPixels
import LuxTestSupport
import Testing

/// The recipe's time-based crop (``LivePhotoCropMotion/slide``) and logo watermark, checked on the saved still and on
/// FFmpeg's decoding of the saved movie against the synthetic scene's formula (red = 20 + 215 · x ÷ width).
@Suite struct RecipeCropAndWatermarkTests {
    /// Saves `live` under `recipe` into `dir`.
    static func save(_ live: LivePhoto, _ dir: URL, _ recipe: LivePhotoAdjustments) async throws -> LivePhoto {
        let context = try LivePhotoEditingContext(livePhoto: live, adjustments: recipe)
        var output = LivePhotoEditingOutput(
            directory: dir, baseName: "IMG_E0001", adjustmentData: try recipe.adjustmentData())
        output.synchronizesFiles = false
        output.videoCompression.constantRateFactor = 14
        output.photoOptions = EncodingOptions(quality: 0.95, chromaSubsampling: .none)
        return try await context.save(to: output)
    }

    static func rgb(_ frame: [UInt8], width: Int, _ x: Int, _ y: Int) -> SIMD3<Double> {
        let o = (y * width + x) * 3
        return SIMD3(Double(frame[o]), Double(frame[o + 1]), Double(frame[o + 2]))
    }

    /// The scene's red at column `x` of a picture `width` wide.
    static func sceneRed(_ x: Double, width: Double) -> Double { 20 + 215 * x / width }

    @Test(
        "sliding square: frame k's square starts at x = 18 · (1 + dt(k)), dt ramping −1 → 0 → +1; the still is centred",
        .needs("ffmpeg", "ffprobe"))
    func slidingSquare() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir)
        let edited = try await Self.save(live, dir, LivePhotoAdjustments(aspectRatio: 1, cropMotion: .slide))
        // The still (at the photo time, dt = 0) is the centred 300 × 300 square of the 400 × 300 still.
        let still = try ImageFile.read(url: edited.photoURL).pixels
        #expect(still.width == 300 && still.height == 300)
        #expect(abs(LiveFixtures.rgb(still, 2, 150).x - Self.sceneRed(52, width: 400)) < 6)
        let (streams, format) = try LiveFixtures.probe(edited.movieURL.path)
        #expect(streams[0]["width"] as? Int == 108 && streams[0]["height"] as? Int == 108)
        #expect(abs((Double(format["duration"] as? String ?? "") ?? 0) - 1) < 0.05)
        // The photo is at 0.5 s of 1 s: dt = (t − 0.5) ÷ 0.5, so the square's left edge moves 0 → 18 → 36.
        let frames = try ExternalTool.ffmpegRGBFrames(edited.movieURL, width: 108, height: 108)
        try #require(frames.count == 30)
        for k in [0, 8, 15, 22, 29] {
            let dt = (Double(k) / 30 - 0.5) / 0.5
            let x0 = (18 * (1 + dt)).rounded()
            let red = Self.rgb(frames[k], width: 108, 4, 54).x
            #expect(abs(red - Self.sceneRed(x0 + 4, width: 144)) < 6, "frame \(k): left edge expected at \(x0)")
        }
        // The recipe is kept: re-read from the sidecar, it still slides.
        let record = try LivePhotoEditRecord(contentsOf: dir.appendingPathComponent("IMG_E0001.luxedit"))
        #expect(try LivePhotoAdjustments(adjustmentData: record.adjustmentData).cropMotion == .slide)
    }

    @Test("the ramp: −1 at the start, 0 at the still, +1 at the end, linear on each side")
    func ramp() {
        let pivot = MediaTime(value: 1, timescale: 2)
        let duration = MediaTime(value: 2, timescale: 1)
        #expect(LivePhotoCropMotion.ramp(at: .zero, pivot: pivot, duration: duration) == -1)
        #expect(
            LivePhotoCropMotion.ramp(at: MediaTime(value: 1, timescale: 4), pivot: pivot, duration: duration) == -0.5)
        #expect(LivePhotoCropMotion.ramp(at: pivot, pivot: pivot, duration: duration) == 0)
        #expect(
            LivePhotoCropMotion.ramp(at: MediaTime(value: 5, timescale: 4), pivot: pivot, duration: duration) == 0.5)
        #expect(LivePhotoCropMotion.ramp(at: duration, pivot: pivot, duration: duration) == 1)
    }

    @Test(
        "watermark: a half-opaque logo (made by ImageMagick) lands bottom right at 25 % of the width, on the still and on every frame; its transparent half shows the scene",
        .needs("ffmpeg", "convert"))
    func watermark() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir)
        // 40 × 20: the left half opaque magenta, the right half transparent.
        let logo = dir.appendingPathComponent("logo.png")
        try ExternalTool.capture(
            "convert",
            ["-size", "40x20", "xc:none", "-fill", "#ff00ff", "-draw", "rectangle 0,0 19,19", "PNG32:" + logo.path]
        ).succeeded()
        var recipe = LivePhotoAdjustments()
        recipe.watermark = LivePhotoWatermark(imageData: try Data(contentsOf: logo), width: 0.25, margin: 0.03)
        let edited = try await Self.save(live, dir, recipe)
        // Still 400 × 300: the logo is 100 × 50 at x 288…388, y 238…288; magenta on x 288…338.
        let still = try ImageFile.read(url: edited.photoURL).pixels
        #expect(still.width == 400 && still.height == 300)
        let magenta = SIMD3<Double>(255, 0, 255)
        #expect(maxDifference(LiveFixtures.rgb(still, 310, 262), magenta) < 10)
        #expect(abs(LiveFixtures.rgb(still, 370, 262).x - Self.sceneRed(370, width: 400)) < 8)
        #expect(abs(LiveFixtures.rgb(still, 280, 262).x - Self.sceneRed(280, width: 400)) < 8)
        // Frames 144 × 108: the logo is 36 × 18 at x 103.7…139.7, y 85.7…103.7; magenta on x 103.7…121.7.
        let frames = try ExternalTool.ffmpegRGBFrames(edited.movieURL, width: 144, height: 108)
        try #require(frames.count == 30)
        for k in [0, 15, 29] {
            #expect(maxDifference(Self.rgb(frames[k], width: 144, 112, 95), magenta) < 30, "frame \(k)")
            #expect(abs(Self.rgb(frames[k], width: 144, 132, 95).x - Self.sceneRed(132, width: 144)) < 10)
        }
    }

    @Test("a watermark that is not an image, or a width of 0, is refused when the recipe is applied")
    func badWatermark() throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir, frames: 2)
        var recipe = LivePhotoAdjustments()
        recipe.watermark = LivePhotoWatermark(imageData: Data("not a PNG".utf8))
        #expect(throws: LivePhotoError.self) { try LivePhotoEditingContext(livePhoto: live, adjustments: recipe) }
        recipe.watermark = LivePhotoWatermark(imageData: try Data(contentsOf: live.photoURL), width: 0)
        #expect(throws: LivePhotoError.self) { try LivePhotoEditingContext(livePhoto: live, adjustments: recipe) }
    }
}
