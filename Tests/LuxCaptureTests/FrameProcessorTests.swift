import Foundation
import LuxColor
import LuxPixels
import LuxScene
import Testing

@testable import LuxCapture

@Suite struct FrameProcessorTests {
    /// A RAW preview frame of the chart (every colour, edges and a grey ramp), with some pixels clipped.
    ///
    /// The sensor has half the phone's photosites across (same field of view and exposure per photosite), so the
    /// frame is 504 × 378: the same chart at a quarter of the pixels for the debug build's float reference path.
    static func chartRAW() async throws -> (SimulatedCamera, CaptureFrame) {
        let camera = SimulatedCamera(
            scene: .chart(), configuration: .init(sensor: .small(width: 2016, height: 1512)))
        camera.setFocusMode(.locked)
        try await camera.setFocusModeLocked(lensPosition: .value(0.9))
        try await camera.startStreaming()
        try await camera.setExposureModeCustom(duration: .value(MediaTime(value: 1, timescale: 50)), iso: .value(100))
        let frame = try await camera.nextFrame(StreamConfiguration(deliversProcessedFrames: false, deliversRAW: true))
        return (camera, frame)
    }

    /// The chart frame every pixel format's case develops, made once.
    static let sharedChartRAW = Task { try await chartRAW() }

    @Test(
        "The fused 8-bit development matches the general float path (LuxColor transfer and Y′CbCr conversion) within one code",
        arguments: [PixelFormat.yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange, .bgra8, .rgba8])
    func fusedMatchesFloatPath(format: PixelFormat) async throws {
        let (camera, frame) = try await Self.sharedChartRAW.value
        let full = try #require(frame.raw)
        #expect(full.width == 504 && full.height == 378)
        let white = UInt16(camera.sensor.whiteLevel)
        #expect(full.components(as: UInt16.self).contains { $0 >= white }, "no photosite is clipped")
        let gains = frame.metadata.whiteBalanceGains
        // The whole frame, and an odd-sized crop (a last column without a partner, a last row alone).
        let crop = try full.view(x: 400, y: 300, width: 37, height: 21).converted(to: full.format)
        for (raw, space) in [(full, CaptureColorSpace.sRGB), (full, .displayP3), (crop, .sRGB)] {
            var fused = PixelBuffer(width: raw.width, height: raw.height, format: format)
            camera.processor.process(raw: raw, gains: gains, colorSpace: space, into: &fused, threads: 2)
            let reference = camera.processor.processThroughFloat(
                raw: raw, gains: gains, pixelFormat: format, colorSpace: space, threads: 1)
            #expect(fused.colorSpace == reference.colorSpace)
            for p in 0..<format.planeCount {
                let a = fused.planeBytes(p)
                let b = reference.planeBytes(p)
                #expect(a.count == b.count)
                let differences = zip(a, b).map { abs(Int($0) - Int($1)) }
                let worst = differences.max() ?? 0
                #expect(worst <= 1, "\(format) plane \(p) in \(space): largest difference \(worst) codes")
                // The same picture, not just close: off-by-one codes come only from rounding ties.
                let differing = Double(differences.count { $0 != 0 }) / Double(max(differences.count, 1))
                #expect(differing < 0.001, "\(format) plane \(p) in \(space): \(differing * 100) % of the codes differ")
            }
        }
    }

    @Test("The fused row loop's sRGB encoding follows the IEC 61966-2-1 formula within 3·10⁻⁶ over 0…1")
    func encodingPolynomialFollowsSRGB() {
        for space in CaptureColorSpace.allCases {
            let curve = UnitEncodingPolynomial(space.colorSpace.transferFunction)
            var worst = 0.0
            for i in 0...200_000 {
                let x = Float(i) / 200_000
                let linear = Double(x)
                let exact = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
                worst = max(worst, abs(Double(curve.encode(x)) - exact))
            }
            #expect(worst < 3e-6, "\(space): largest error \(worst)")
        }
    }
}

extension PixelBuffer {
    /// The bytes of a plane, row by row without padding.
    func planeBytes(_ p: Int) -> [UInt8] {
        let rowBytes = planeSize(p).width * format.bytesPerPixel(plane: p)
        var out: [UInt8] = []
        withUnsafePlane(p) { plane in
            for y in 0..<plane.height {
                out.append(contentsOf: UnsafeRawBufferPointer(start: plane.row(y), count: rowBytes))
            }
        }
        return out
    }
}

@Suite struct HighlightDesaturationTests {
    /// A Bayer frame of a dim room with a window far above the sensor's clip (every window photosite at the white
    /// level).
    static func window(sensor: SensorModel) -> PixelBuffer {
        var raw = PixelBuffer(width: 64, height: 48, format: .bayer14(sensor.cfaPattern))
        let room = UInt16(sensor.blackLevel + (sensor.whiteLevel - sensor.blackLevel) / 20)
        raw.withUnsafeMutablePlane { plane in
            for y in 0..<48 {
                let row = plane.row(y, as: UInt16.self)
                for x in 0..<64 {
                    row[x] = (16..<48).contains(x) && (12..<36).contains(y) ? UInt16(sensor.whiteLevel) : room
                }
            }
        }
        return raw
    }

    @Test(
        "The image processor renders a clipped window R = G = B within 2 levels at every white balance from 2000 to 10000 K, tint −150…+150",
        arguments: [PixelFormat.rgba8, .rgbaFloat])
    func clippedWindowIsNeutral(format: PixelFormat) throws {
        let camera = SimulatedCamera(scene: .chart())
        let raw = Self.window(sensor: camera.sensor)
        for temperature in [2000.0, 2800, 4000, 5500, 7500, 10000] {
            for tint in [-150.0, -75, 0, 75, 150] {
                let gains: WhiteBalanceGains
                do {
                    gains = try camera.deviceWhiteBalanceGains(
                        for: TemperatureAndTint(temperature: temperature, tint: tint))
                } catch {
                    // A white the camera cannot see (a negative camera neutral): only at the warm, tinted corner.
                    #expect(temperature < 3000 && abs(tint) >= 75, "\(temperature) K, tint \(tint) refused")
                    continue
                }
                for space in CaptureColorSpace.allCases {
                    let out = camera.processor.process(
                        raw: raw, gains: gains, pixelFormat: format, colorSpace: space, threads: 1)
                    for (x, y) in [(20, 16), (32, 24), (44, 32)] {
                        let p = out.pixel(x: x, y: y) * 255
                        let spread = max(p.x, max(p.y, p.z)) - min(p.x, min(p.y, p.z))
                        #expect(
                            spread <= 2, "\(temperature) K, tint \(tint), \(space), \(format) at (\(x), \(y)): \(p)")
                    }
                }
            }
        }
    }
}

extension HighlightDesaturationTests {
    @Test("The low-light candle flame has no rim more saturated than its clipped core")
    func candleFlameHasNoColouredRim() async throws {
        let camera = SimulatedCamera(scene: .lowLight())
        camera.setFocusMode(.locked)
        try await camera.setFocusModeLocked(lensPosition: .value(0.9))
        try await camera.startStreaming()
        // The room's light (2700 K): the flame, lit by the same spectrum, is white once balanced, so any colour at
        // its edge comes from clipping. The room is kept dark (1/60 s, ISO 100) so the rim's pixels are the flame's;
        // the flame (reflectance 400 against the room's 0.1–0.8) is still far over the clip.
        try await camera.setWhiteBalanceModeLocked(temperatureAndTint: TemperatureAndTint(temperature: 2700, tint: 0))
        try await camera.setExposureModeCustom(duration: .value(MediaTime(value: 1, timescale: 60)), iso: .value(100))
        let frame = try await camera.nextFrame(StreamConfiguration(deliversProcessedFrames: true, deliversRAW: false))
        let image = try #require(frame.image)
        let w = Double(image.width)
        // The flame: an ellipse centred at (0.445, 0.35), radii 0.008 × 0.02 frame widths (Scene.lowLight).
        let centre = SIMD2(0.445 * w, 0.35 * w)
        let radii = SIMD2(0.008 * w, 0.02 * w)
        func saturation(_ p: SIMD4<Float>) -> Float {
            let hi = max(p.x, max(p.y, p.z))
            return hi > 0 ? (hi - min(p.x, min(p.y, p.z))) / hi : 0
        }
        let corePixel = image.pixel(x: Int(centre.x), y: Int(centre.y))
        #expect(corePixel.y > 0.98, "the flame's core is clipped: \(corePixel)")
        let core = saturation(corePixel)
        // The rim's colour: the mean of the pixels around the ellipse's edge where the flame still dominates (a
        // magenta or purple rim shows there; single-pixel demosaic fringes of either sign average out).
        var sum = SIMD4<Float>.zero
        var count = 0
        for y in Int(centre.y - 2 * radii.y)...Int(centre.y + 2 * radii.y) {
            for x in Int(centre.x - 2 * radii.x)...Int(centre.x + 2 * radii.x) {
                let d = (SIMD2(Double(x), Double(y)) - centre) / radii
                let r = (d * d).sum().squareRoot()
                let p = image.pixel(x: x, y: y)
                guard r > 0.6, r < 1.6, max(p.x, max(p.y, p.z)) > 0.3 else { continue }
                sum += p
                count += 1
            }
        }
        #expect(count > 20, "rim pixels: \(count)")
        let rim = saturation(sum / Float(max(count, 1)))
        #expect(core < 0.02, "core saturation \(core)")
        #expect(rim <= core + 0.03, "rim saturation \(rim) (mean \(sum / Float(max(count, 1)))), core \(core)")
    }
}
