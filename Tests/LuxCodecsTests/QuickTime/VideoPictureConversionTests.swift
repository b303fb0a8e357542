import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// The conversions between the codecs' 8-bit Y′CbCr 4:2:0 and RGBA that LuxCodecs does itself: the encoder's input
/// (BT.709, video range) against the published equations and ffmpeg's swscale, and decoded H.264 against ffmpeg's
/// own conversion of the same frame.
@Suite struct VideoPictureConversionTests {
    /// A `width` × `height` RGBA picture: smooth ramps in red and blue, a diagonal in green, with noise of ±`noise`.
    static func picture(width: Int, height: Int, noise: Int) -> PixelBuffer {
        var random = SplitMix(seed: 23)
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let base = [
                    x * 255 / max(1, width - 1), (x + y) * 255 / max(1, width + height - 2),
                    y * 255 / max(1, height - 1),
                ]
                for c in 0..<3 {
                    let jitter = noise > 0 ? Int(random.next() % UInt64(2 * noise + 1)) - noise : 0
                    bytes[4 * (y * width + x) + c] = UInt8(clamping: base[c] + jitter)
                }
            }
        }
        return PixelBuffer(width: width, height: height, format: .rgba8, components: bytes, colorSpace: .sRGB)
    }

    @Test(
        "RGBA → Y′CbCr 4:2:0: the BT.709 video-range equations, chroma of each 2 × 2 block's mean (even and odd sizes)",
        arguments: [(64, 48), (33, 17)])
    func equations(size: (Int, Int)) throws {
        let (w, h) = size
        let pixels = Self.picture(width: w, height: h, noise: 20)
        let picture = try VideoPicture(converting: pixels)
        let rgb = pixels.components(as: UInt8.self).map(Double.init)
        let (kr, kb) = (0.2126, 0.0722)
        let kg = 1 - kr - kb
        func luma(_ i: Int) -> Double { kr * rgb[4 * i] + kg * rgb[4 * i + 1] + kb * rgb[4 * i + 2] }
        var worst = 0
        for (i, code) in picture.codes(ofPlane: 0).enumerated() {
            worst = max(worst, abs(Int(code) - Int((16 + 219 / 255 * luma(i)).rounded())))
        }
        let cw = (w + 1) / 2
        let cb = picture.codes(ofPlane: 1)
        let cr = picture.codes(ofPlane: 2)
        #expect(cb.count == cw * ((h + 1) / 2) && cr.count == cb.count)
        for (k, (u, v)) in zip(cb, cr).enumerated() {
            let (bx, by) = (2 * (k % cw), 2 * (k / cw))
            // The block's four pixels, the edge repeated past an odd width or height.
            let block = [(bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)].map { (x, y) in
                min(y, h - 1) * w + min(x, w - 1)
            }
            let mean = (0..<3).map { c in block.map { rgb[4 * $0 + c] }.reduce(0, +) / 4 }
            let y = kr * mean[0] + kg * mean[1] + kb * mean[2]
            let expectedCb = 128 + 224 / 255 * (mean[2] - y) / (2 * (1 - kb))
            let expectedCr = 128 + 224 / 255 * (mean[0] - y) / (2 * (1 - kr))
            worst = max(worst, abs(Int(u) - Int(expectedCb.rounded())), abs(Int(v) - Int(expectedCr.rounded())))
        }
        // Single-precision arithmetic may round a code that lies at x.5 the other way.
        #expect(worst <= 1, "worst difference \(worst) levels")
    }

    @Test("RGBA → Y′CbCr 4:2:0 agrees with ffmpeg's swscale (BT.709, video range)", .needs("ffmpeg"))
    func swscale() throws {
        let (w, h) = (96, 64)
        let pixels = Self.picture(width: w, height: h, noise: 0)
        let dir = try ExternalTool.temporaryFolder("lux-yuv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.rgba")
        try Data(pixels.components(as: UInt8.self)).write(to: input)
        let run = try ExternalTool.capture(
            "ffmpeg",
            [
                "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(w)x\(h)", "-i", input.path, "-vf",
                "scale=out_color_matrix=bt709:out_range=tv:flags=bilinear+accurate_rnd+full_chroma_inp", "-pix_fmt",
                "yuv420p", "-f", "rawvideo", "-",
            ]
        ).succeeded()
        let theirs = [UInt8](run.stdout)
        try #require(theirs.count == w * h * 3 / 2)
        let picture = try VideoPicture(converting: pixels)
        let mine = picture.codes(ofPlane: 0) + picture.codes(ofPlane: 1) + picture.codes(ofPlane: 2)
        let lumaWorst = (0..<(w * h)).map { abs(Int(mine[$0]) - Int(theirs[$0])) }.max() ?? 0
        let chromaWorst = ((w * h)..<theirs.count).map { abs(Int(mine[$0]) - Int(theirs[$0])) }.max() ?? 0
        #expect(lumaWorst <= 1, "luma differs by \(lumaWorst) levels")
        // On smooth ramps swscale's chroma filter matches the 2 × 2 mean within its rounding and ours (a level each).
        #expect(chromaWorst <= 2, "chroma differs by \(chromaWorst) levels")
    }

    @Test(
        "decoded H.264 (full range, BT.601, chroma on even columns) → RGBA close to ffmpeg's own conversion",
        .needs("ffmpeg"))
    func decodedRGB() throws {
        let url = try Fixtures.url(VideoDecodingTests.appleMovie)
        var options = VideoDecodingOptions()
        options.timeRange = .zero..<MediaTime(value: 1, timescale: 600)
        let frame = try #require(try VideoDecodingTests.decode(url, options: options).first)
        let run = try ExternalTool.capture(
            "ffmpeg",
            [
                "-v", "error", "-i", url.path, "-map", "0:v:0", "-frames:v", "1", "-sws_flags",
                "bilinear+accurate_rnd+full_chroma_int", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
            ]
        ).succeeded()
        let theirs = [UInt8](run.stdout)
        try #require(theirs.count == 1440 * 1080 * 3)
        let mine = frame.pixels.components(as: UInt8.self)
        var sum = 0
        var large = 0
        for i in 0..<(1440 * 1080) {
            for c in 0..<3 {
                let d = abs(Int(mine[4 * i + c]) - Int(theirs[3 * i + c]))
                sum += d
                if d > 4 { large += 1 }
            }
        }
        let mean = Double(sum) / Double(theirs.count)
        // ffmpeg's swscale sites chroma midway between columns whatever the stream declares; Lux follows the
        // stream (H.264's default, on the even columns): they differ only at sharp colour edges.
        #expect(mean < 0.1, "mean difference \(mean) levels")
        #expect(Double(large) / Double(theirs.count) < 1e-4, "\(large) samples differ by more than 4 levels")
    }
}
