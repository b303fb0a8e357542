import LuxPixels
import LuxScene
import LuxTestSupport
import Testing

@testable import LuxCapture

/// Purple fringes around clipped highlights in photos developed from merged frames.
@Suite struct ClippedFringeTests {
    /// The share of magenta pixels (R − G > 25 and B − G > 25 of 255) among the pixels at each distance 1…8 from
    /// the nearest clipped pixel (every channel ≥ 250), rounded to whole pixels (index 0 unused).
    static func magentaShares(_ image: PixelBuffer) -> [Double] {
        let w = image.width
        let h = image.height
        var codes = [Int](repeating: 0, count: 3 * w * h)
        let row = UnsafeMutablePointer<Float>.allocate(capacity: 4 * w)
        defer { row.deallocate() }
        for y in 0..<h {
            image.readRGBAFloat(row: y, into: row)
            for x in 0..<w {
                for c in 0..<3 { codes[3 * (y * w + x) + c] = Int((row[4 * x + c] * 255).rounded()) }
            }
        }
        // Squared distance to the nearest clipped pixel, stamped from each clipped pixel out to 9 pixels.
        let reach = 9
        var nearest = [Int](repeating: Int.max, count: w * h)
        for y in 0..<h {
            for x in 0..<w where (0..<3).allSatisfy({ codes[3 * (y * w + x) + $0] >= 250 }) {
                for v in max(y - reach, 0)...min(y + reach, h - 1) {
                    for u in max(x - reach, 0)...min(x + reach, w - 1) {
                        let d = (u - x) * (u - x) + (v - y) * (v - y)
                        if d < nearest[v * w + u] { nearest[v * w + u] = d }
                    }
                }
            }
        }
        var counts = [Int](repeating: 0, count: 9)
        var magenta = [Int](repeating: 0, count: 9)
        for i in 0..<(w * h) where nearest[i] > 0 && nearest[i] != Int.max {
            let k = Int(Double(nearest[i]).squareRoot().rounded())
            guard k <= 8 else { continue }
            counts[k] += 1
            let (r, g, b) = (codes[3 * i], codes[3 * i + 1], codes[3 * i + 2])
            if r - g > 25 && b - g > 25 { magenta[k] += 1 }
        }
        return (0...8).map { counts[$0] > 0 ? Double(magenta[$0]) / Double(counts[$0]) : 0 }
    }

    @Test(
        "A photograph's sky, blown by the photo scene, has no purple fringe in a merged photo: at every distance 1–8 px from clipped pixels at most 1 % more magenta pixels than the photograph has"
    )
    func noMagentaRingAroundClippedSky() async throws {
        let url = try TestData.url("livephoto/iphone6s_livephoto_train.jpg")
        // Bare branches against a white sky, which the photo scene lifts four stops above the clip.
        let scene = try Scene.photograph(contentsOf: url, maximumDimension: 1024)
        let rig = try await CaptureRig.make(scene: scene, sensor: .small(width: 640, height: 480))
        try await rig.camera.setFocusModeLocked(lensPosition: 1)
        let events = try await collect(try rig.photo.capturePhoto(PhotoSettings()))
        let processing = events[0].resolvedSettings.processing
        #expect(processing.method == .fastMerge, "the balanced default merges frames: \(processing)")
        let photo = try #require(events.photos.first?.pixelBuffer)
        // The photograph as the scene reads it, reduced to the photo's size.
        let source = try PhotographFile.colors(url, fitting: max(photo.width, photo.height))
        let captured = Self.magentaShares(photo)
        let original = Self.magentaShares(source)
        for k in 1...8 {
            #expect(
                captured[k] <= original[k] + 0.01, "\(k) px: \(captured[k]) against the photograph's \(original[k])")
        }
    }
}
