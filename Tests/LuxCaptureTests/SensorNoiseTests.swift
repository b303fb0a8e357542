import LuxPixels
import LuxScene
import Testing

@testable import LuxCapture

@Suite struct SensorNoiseTests {
    /// Reads a flat radiance of `level` through the sensor and returns the mean and variance of
    /// x = (DN − black)/(white − black).
    static func flatPatch(camera: SimulatedCamera, iso: Float, duration: Double, level: Float, seed: UInt64) -> (
        Double, Double
    ) {
        patch(camera: camera, iso: iso, duration: duration, levels: (level, level), seed: seed).left
    }

    /// The same for a patch whose left and right halves have different levels: statistics of each half.
    static func patch(
        camera: SimulatedCamera, iso: Float, duration: Double, levels: (Float, Float), seed: UInt64
    ) -> (left: (Double, Double), right: (Double, Double)) {
        let n = 256
        let radiance = PlanarBuffer<Float>(width: n, height: n, planes: 3)
        for p in 0..<3 {
            for y in 0..<n {
                radiance.row(p, y).update(repeating: levels.0, count: n / 2)
                (radiance.row(p, y) + n / 2).update(repeating: levels.1, count: n / 2)
            }
        }
        var raw = PixelBuffer(width: n, height: n, format: .bayer14(.rggb))
        let plan = SimulatedCamera.FramePlan(
            index: 0, time: .zero, scene: .grayCard(), format: camera.activeFormat, colorSpace: .sRGB,
            duration: MediaTime(seconds: duration), iso: iso, lensPosition: 0.5, gains: .identity, bias: 0,
            measureFocus: false, focusPoint: SIMD2(0.5, 0.5), exposurePoint: SIMD2(0.5, 0.5), flash: nil)
        let params = camera.readoutParameters(plan: plan, binning: 1, seed: seed)
        SensorReadout.readout(radiance, parameters: params, into: &raw, threads: 2)
        let s = camera.sensor
        let range = Double(s.whiteLevel - s.blackLevel)
        let all = raw.components(as: UInt16.self).map { (Double($0) - Double(s.blackLevel)) / range }
        func stats(_ columns: Range<Int>) -> (Double, Double) {
            let values = all.indices.filter { columns.contains($0 % n) }.map { all[$0] }
            let mean = values.reduce(0, +) / Double(values.count)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
            return (mean, variance)
        }
        return levels.0 == levels.1 ? (stats(0..<n), stats(0..<n)) : (stats(0..<(n / 2)), stats((n / 2)..<n))
    }

    @Test(
        "Variance versus mean follows the Poisson–Gaussian model (S, O) within 5 %", arguments: [Float(32), 400, 2048])
    func poissonGaussianFit(iso: Float) {
        let camera = SimulatedCamera(scene: .grayCard())
        let s = camera.sensor
        let t = 0.01
        // Radiance that gives signal fraction x at this ISO: electrons = x·FWC/gain.
        let perUnit = s.electronsPerExposureUnit * t / (s.lens.fNumber * s.lens.fNumber)
        var points: [(x: Double, v: Double)] = []
        for (i, x) in [0.0, 0.02, 0.05, 0.1, 0.2, 0.4, 0.7].enumerated() {
            let electrons = x * s.fullWellCapacity / s.gain(iso: iso)
            let (m, v) = Self.flatPatch(
                camera: camera, iso: iso, duration: t, level: Float(electrons / perUnit), seed: UInt64(i + 1))
            points.append((m, v))
        }
        // Weighted least squares for v = S·x + O (weights 1/v²: relative errors).
        var a = 0.0
        var b = 0.0
        var c = 0.0
        var d = 0.0
        var e = 0.0
        for p in points {
            let w = 1 / (p.v * p.v)
            a += w * p.x * p.x
            b += w * p.x
            c += w
            d += w * p.x * p.v
            e += w * p.v
        }
        let det = a * c - b * b
        let fitS = (d * c - b * e) / det
        let fitO = (a * e - b * d) / det
        let model = s.noiseProfile(iso: iso)
        #expect(abs(fitS / model.scale - 1) < 0.05, "S \(fitS) vs \(model.scale)")
        #expect(abs(fitO / model.offset - 1) < 0.05, "O \(fitO) vs \(model.offset)")
    }

    @Test("Dim pixels get exact Poisson counts: integer electrons, variance = mean")
    func exactPoissonAtLowCounts() {
        // At ISO 2048 one electron is 2.56·64 ≈ 164 codes, well above the post-gain read noise, so the counts
        // keep their Poisson statistics.
        let camera = SimulatedCamera(scene: .grayCard())
        let s = camera.sensor
        let iso: Float = 2048
        let t = 0.01
        let perUnit = s.electronsPerExposureUnit * t / (s.lens.fNumber * s.lens.fNumber)
        let lambda = 3.0
        let (m, v) = Self.flatPatch(camera: camera, iso: iso, duration: t, level: Float(lambda / perUnit), seed: 9)
        let g = s.gain(iso: iso) / s.fullWellCapacity  // x per electron
        #expect(abs(m / g - lambda) < 0.05 * lambda)
        #expect(abs((v - s.noiseProfile(iso: iso).offset) / (g * g) / lambda - 1) < 0.05)
    }

    @Test("Rows mixing dim and bright pixels give each the statistics it has alone")
    func mixedRows() {
        // Dim pixels take the exact Poisson path, bright ones the Gaussian one, within every row.
        let camera = SimulatedCamera(scene: .grayCard())
        let s = camera.sensor
        let iso: Float = 2048
        let t = 0.01
        let perUnit = s.electronsPerExposureUnit * t / (s.lens.fNumber * s.lens.fNumber)
        let g = s.gain(iso: iso) / s.fullWellCapacity
        let (dim, bright) = Self.patch(
            camera: camera, iso: iso, duration: t, levels: (Float(3 / perUnit), Float(40 / perUnit)), seed: 5)
        let offset = s.noiseProfile(iso: iso).offset
        #expect(abs(dim.0 / g - 3) < 0.05 * 3)
        #expect(abs((dim.1 - offset) / (g * g) / 3 - 1) < 0.05)
        #expect(abs(bright.0 / g - 40) < 0.05 * 40)
        #expect(abs((bright.1 - offset) / (g * g) / 40 - 1) < 0.05)
    }
}
