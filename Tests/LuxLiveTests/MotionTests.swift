import Foundation
import LuxCodecs
import LuxFusion
import LuxLive
import LuxPixels
import LuxRender
import Testing

/// Global motion, shoe-shot trimming and stabilisation on frames with known camera motion.
@Suite struct MotionTests {
    /// A textured scene seen through a 160×120 window at `(x, y)` of a larger field (the camera moving by that).
    ///
    /// Every channel mixes waves in several directions, so no shift is ambiguous (no aperture problem).
    static func view(_ x: Double, _ y: Double) -> PixelBuffer {
        LiveFixtures.picture(
            width: 160, height: 120,
            pattern: { px, py in
                let u = Double(px) + x
                let v = Double(py) + y
                let t =
                    0.5 + 0.2 * sin(u * 0.21) * cos(v * 0.17) + 0.15 * sin(u * 0.05 + v * 0.09) + 0.12
                    * cos(u * 0.13 - v * 0.04)
                let w =
                    0.5 + 0.2 * sin(u * 0.11 + v * 0.02) * cos(v * 0.19 - u * 0.03) + 0.2
                    * sin(v * 0.07 + 0.5 * sin(u * 0.04))
                let z = 0.5 + 0.3 * cos(u * 0.06 + v * 0.14) * sin(u * 0.09)
                func byte(_ f: Double) -> UInt8 { UInt8(max(0, min(255, (255 * f).rounded()))) }
                return (byte(t), byte(w), byte(z))
            })
    }

    @Test("measured translation matches the known camera shift to a fraction of a pixel")
    func translation() {
        let shifts: [(Double, Double)] = [(0, 0), (3, -2), (-7.5, 4), (12, 9), (1.25, 0.5)]
        var frames: [PixelBuffer] = []
        var position = (100.0, 100.0)
        for s in shifts {
            position = (position.0 - s.0, position.1 - s.1)  // content moves by +s when the window moves by −s
            frames.append(Self.view(position.0, position.1))
        }
        let motion = FrameMotion.measure(frames)
        #expect(motion.count == shifts.count - 1)
        for (m, s) in zip(motion, shifts.dropFirst()) {
            #expect(
                abs(m.translation.x - s.0) < 0.35 && abs(m.translation.y - s.1) < 0.35,
                "\(m.translation) vs \(s) residual \(m.residual)")
            #expect(m.residual < 0.05)
        }
    }

    @Test("a shoe shot at the end is trimmed at the first moving frame; a steady clip is kept whole")
    func shoeShot() {
        // 45 frames at 30 fps: steady (a slight hand jitter), then from frame 36 the camera drops fast.
        let times = (0..<45).map { MediaTime(value: Int64($0), timescale: 30) }
        var y = 0.0
        var frames: [PixelBuffer] = []
        for i in 0..<45 {
            if i >= 36 { y += 14 } else { y += (i % 2 == 0 ? 0.6 : -0.6) }
            frames.append(Self.view(50, 50 + y))
        }
        let motion = FrameMotion.measure(frames)
        let trimmer = LivePhotoAutoTrimmer()
        let duration = MediaTime(value: 3, timescale: 2)
        let photo = MediaTime(value: 1, timescale: 2)
        let range = trimmer.trimRange(
            motion: motion, frameTimes: times, frameWidth: 160, photoTime: photo, duration: duration)
        #expect(range == MediaTime.zero..<times[36])
        // The margin around the photo wins over the motion.
        var tight = trimmer
        tight.photoMargin = MediaTime(value: 1, timescale: 10)
        let early = tight.trimRange(
            motion: motion, frameTimes: times, frameWidth: 160, photoTime: times[34], duration: duration)
        #expect(early.upperBound == times[34] + tight.photoMargin)
        // A raise at the start (the same frames backwards) is cut up to the first steady frame, 9.
        let raised = Array(frames.reversed())
        let start = trimmer.trimRange(
            motion: FrameMotion.measure(raised), frameTimes: times, frameWidth: 160,
            photoTime: MediaTime(value: 1, timescale: 1),
            duration: duration)
        #expect(start == times[9]..<duration)
        let steady = FrameMotion.measure(Array(frames.prefix(36)))
        #expect(
            trimmer.trimRange(
                motion: steady, frameTimes: Array(times.prefix(36)), frameWidth: 160, photoTime: photo,
                duration: times[35]) == MediaTime.zero..<times[35])
    }

    @Test(
        "a featureless clip on a tripod (a uniform grey, a grey with independent noise) shows no motion and is kept whole"
    )
    func featureless() {
        // A grey card: nothing in the picture moves, so every shift matches as well as none but for the noise, which
        // is drawn afresh for each frame (a sensor's). 45 frames at 30 fps, the photo in the middle.
        let times = (0..<45).map { MediaTime(value: Int64($0), timescale: 30) }
        let duration = MediaTime(value: 3, timescale: 2)
        for amplitude in [0, 12] {
            let frames = (0..<45).map { i in
                LiveFixtures.picture(
                    width: 160, height: 120,
                    pattern: { x, y in
                        var h = UInt64(i * 160 * 120 + y * 160 + x) &* 0x9E37_79B9_7F4A_7C15
                        h = (h ^ (h >> 29)) &* 0xBF58_476D_1CE4_E5B9
                        let v = UInt8(128 + Int((h >> 33) % UInt64(amplitude + 1)) - amplitude / 2)
                        return (v, v, v)
                    })
            }
            let motion = FrameMotion.measure(frames)
            for m in motion {
                let length = (m.translation.x * m.translation.x + m.translation.y * m.translation.y).squareRoot()
                #expect(length <= 1, "noise ±\(amplitude / 2): \(m.translation)")
            }
            let range = LivePhotoAutoTrimmer().trimRange(
                motion: motion, frameTimes: times, frameWidth: 160, photoTime: MediaTime(value: 3, timescale: 4),
                duration: duration)
            #expect(range == MediaTime.zero..<duration, "noise ±\(amplitude / 2)")
        }
    }

    @Test("stabilised frames move much less than the shaky input (residual motion measured independently)")
    func stabilisation() async throws {
        // Smooth pan (1 px/frame) plus ±3 px shake.
        let shake: [Double] = [0, 3, -2, 3, -3, 1, -3, 2, 3, -2, 0, 2, -3, 3, -1, 2, -2, 3, -3, 0, 2, -2, 1, -3]
        let frames = shake.enumerated().map { i, s in Self.view(40 + Double(i), 40 + s) }
        let transforms = try LivePhotoStabilizer(settings: .init(smoothing: 4, crop: 0.1)).transforms(frames: frames)
        #expect(transforms.count == frames.count)
        let context = RenderContext()
        var steadied: [PixelBuffer] = []
        for (f, t) in zip(frames, transforms) {
            let image = Image(buffer: f).clampedToExtent().transformed(by: t).cropped(
                to: Rect(x: 0, y: 0, width: 160, height: 120))
            steadied.append(try await context.createBuffer(image, format: .rgba8, colorSpace: .sRGB))
        }
        func jitter(_ m: [FrameMotion]) -> Double {
            // Frame-to-frame vertical motion after removing the mean (the pan is horizontal).
            let ys = m.map(\.translation.y)
            let mean = ys.reduce(0, +) / Double(ys.count)
            return (ys.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(ys.count)).squareRoot()
        }
        let before = jitter(FrameMotion.measure(frames))
        let after = jitter(FrameMotion.measure(steadied))
        #expect(before > 3)
        #expect(after < before / 3, "jitter \(before) → \(after) px")
    }
}
