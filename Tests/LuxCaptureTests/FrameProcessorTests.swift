import Foundation
import LuxPixels
import LuxScene
import Testing

@testable import LuxCapture

@Suite struct FrameProcessorTests {
    /// A RAW preview frame of the chart (every colour, edges and a grey ramp), with some pixels clipped.
    static func chartRAW() async throws -> (SimulatedCamera, CaptureFrame) {
        let camera = SimulatedCamera(scene: .chart())
        camera.setFocusMode(.locked)
        try await camera.setFocusModeLocked(lensPosition: .value(0.9))
        try await camera.startStreaming()
        try await camera.setExposureModeCustom(duration: .value(MediaTime(value: 1, timescale: 50)), iso: .value(100))
        let frame = try await camera.nextFrame(StreamConfiguration(deliversProcessedFrames: false, deliversRAW: true))
        return (camera, frame)
    }

    @Test(
        "The fused 8-bit development matches the general float path (LuxColor transfer and Y′CbCr conversion) within one code",
        arguments: [PixelFormat.yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange, .bgra8, .rgba8])
    func fusedMatchesFloatPath(format: PixelFormat) async throws {
        let (camera, frame) = try await Self.chartRAW()
        let full = try #require(frame.raw)
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
