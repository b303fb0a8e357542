import Foundation
import Hummingbird
import HummingbirdTesting
import LuxCodecs
import LuxPixels
import LuxStudio
import LuxTestSupport
import Testing

/// The Live Photo editor's time-based crop, watermarks (bundled and uploaded) and motion tools through the routes,
/// checked with ffprobe (size, duration) and FFmpeg's decoding of the saved movie.
@Suite struct LiveEffectRouteTests {
    /// A studio over a capture folder holding ``TestLivePhoto`` with gradient frames (red = column).
    func makeStudio() throws -> (studio: Studio, folder: URL) {
        let folder = try ExternalTool.temporaryFolder("lux-studio-live-effects")
        try TestLivePhoto.write(in: folder, gradient: true)
        return (try Studio(configuration: StudioConfiguration(captureFolder: folder)), folder)
    }

    static func rgb(_ frame: [UInt8], width: Int, _ x: Int, _ y: Int) -> SIMD3<Int> {
        let o = (y * width + x) * 3
        return SIMD3(Int(frame[o]), Int(frame[o + 1]), Int(frame[o + 2]))
    }

    static func rgb(_ still: PixelBuffer, _ x: Int, _ y: Int) -> SIMD3<Int> {
        let c = still.converted(to: .rgba8).components(as: UInt8.self)
        let o = 4 * (y * still.width + x)
        return SIMD3(Int(c[o]), Int(c[o + 1]), Int(c[o + 2]))
    }

    /// The bundled logo's yellow (255, 200, 0), allowing for compression.
    static func isLogoYellow(_ c: SIMD3<Int>) -> Bool { c.x > 200 && c.y > 150 && c.z < 80 }

    @Test(
        "time-based crop + the bundled logo: a 120 × 120 movie of 1 s whose square slides 0 → 20 → 39 px, the logo bottom right on the still and the frames",
        .needs("ffprobe", "ffmpeg"))
    func slidingSquareWithBundledLogo() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.router) { client in
            let (status, answer, text) = try await LiveRouteTests.post(
                client, "live-save", #"{"square": true, "slideCrop": true, "watermark": {"width": 0.4}}"#)
            #expect(status == .ok, "\(text)")
            #expect(answer["movie"] as? String == "0/IMG_0001_edit.MOV")
        }
        let movie = folder.appendingPathComponent("IMG_0001_edit.MOV")
        let probe = try LiveRouteTests.probe(movie)
        let video = (probe["streams"] as? [[String: Any]] ?? []).first { $0["codec_type"] as? String == "video" }
        #expect(video?["width"] as? Int == 120 && video?["height"] as? Int == 120)
        let duration = Double((probe["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        #expect(abs(duration - 1) < 0.05, "duration \(duration) s")
        // The photo is at 0.5 s of 1 s; the centred square starts at x = 20, so frame k's starts at 20 · (1 + dt),
        // dt = (k/30 − 0.5) ÷ 0.5; red is the input's column.
        let frames = try ExternalTool.ffmpegRGBFrames(movie, width: 120, height: 120)
        try #require(frames.count == 30)
        for (k, x0) in [(0, 0), (15, 20), (29, 39)] {
            #expect(abs(Self.rgb(frames[k], width: 120, 4, 40).x - (x0 + 4)) <= 4, "frame \(k): square at \(x0)")
        }
        // The logo: 48 px wide (0.4 of 120) with a 3.6 px margin, so its yellow left border is at (72, 107).
        for k in [0, 15, 29] {
            #expect(Self.isLogoYellow(Self.rgb(frames[k], width: 120, 72, 107)), "frame \(k)")
            #expect(!Self.isLogoYellow(Self.rgb(frames[k], width: 120, 60, 107)), "frame \(k), left of the logo")
        }
        // The still: the centred 240 × 240 square of the grey still, the logo 96 px wide, its border at (144, 214).
        let still = try ImageFile.read(url: folder.appendingPathComponent("IMG_0001_edit.JPG")).pixels
        #expect(still.width == 240 && still.height == 240)
        #expect(Self.isLogoYellow(Self.rgb(still, 144, 214)))
        #expect(abs(Self.rgb(still, 120, 120).x - 128) < 4)
    }

    @Test(
        "an uploaded PNG as the watermark, top left at 25 %: magenta on the still and the frames; a file outside the gallery and a sliding crop without a crop are refused",
        .needs("ffmpeg", "convert"))
    func uploadedLogo() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        let logo = folder.appendingPathComponent(".logo-source.png")
        try ExternalTool.capture("convert", ["-size", "40x20", "xc:#ff00ff", "PNG32:" + logo.path]).succeeded()
        try await studio.application().test(.router) { client in
            try await client.execute(
                uri: "/api/upload/logo.png", method: .post, body: ByteBuffer(bytes: try Data(contentsOf: logo))
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
            }
            let edit = #"{"watermark": {"file": "0/logo.png", "corner": "topLeft", "width": 0.25}}"#
            let (status, _, text) = try await LiveRouteTests.post(client, "live-save", edit)
            #expect(status == .ok, "\(text)")
            for bad in [
                #"{"watermark": {"file": "0/../logo.png"}}"#, #"{"slideCrop": true}"#,
                #"{"watermark": {"corner": "middle"}}"#,
            ] {
                let (status, _, text) = try await LiveRouteTests.post(client, "live-preview", bad)
                #expect(status == .unprocessableContent || status == .badRequest, "\(bad): \(status) \(text)")
            }
        }
        // Still 320 × 240: the logo is 80 × 40 at (9.6, 9.6); frames 160 × 120: 40 × 20 at (4.8, 4.8).
        let still = try ImageFile.read(url: folder.appendingPathComponent("IMG_0001_edit.JPG")).pixels
        let s = Self.rgb(still, 40, 30)
        #expect(s.x > 230 && s.y < 30 && s.z > 230, "\(s)")
        #expect(abs(Self.rgb(still, 120, 30).x - 128) < 6)
        let frames = try ExternalTool.ffmpegRGBFrames(
            folder.appendingPathComponent("IMG_0001_edit.MOV"), width: 160, height: 120)
        try #require(frames.count == 30)
        let f = Self.rgb(frames[10], width: 160, 20, 15)
        #expect(f.x > 220 && f.y < 40 && f.z > 220, "\(f)")
        #expect(abs(Self.rgb(frames[10], width: 160, 80, 60).x - 80) <= 4)
    }

    @Test("stabilise and auto-trim: a steady movie without a shoe shot keeps its 1 s", .needs("ffprobe"))
    func motionTools() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.router) { client in
            let (status, _, text) = try await LiveRouteTests.post(
                client, "live-save", #"{"stabilize": true, "autoTrim": true}"#)
            #expect(status == .ok, "\(text)")
        }
        let probe = try LiveRouteTests.probe(folder.appendingPathComponent("IMG_0001_edit.MOV"))
        let duration = Double((probe["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        #expect(abs(duration - 1) < 0.05, "duration \(duration) s")
    }
}
