import LuxPixels
import LuxScene

@testable import LuxCapture

/// Helpers for driving a simulated camera in tests.
extension SimulatedCamera {
    /// Produces `count` frames without processed images and returns them (with RAW data on the last one
    /// only, when asked: pool buffers are released as the frames go).
    func run(_ count: Int, raw: Bool = false) async throws -> [CaptureFrame] {
        if !isStreaming { try await startStreaming() }
        var frames: [CaptureFrame] = []
        for i in 0..<count {
            frames.append(
                try await nextFrame(
                    StreamConfiguration(deliversProcessedFrames: false, deliversRAW: raw && i == count - 1)))
        }
        return frames
    }

    /// Mean black-subtracted, normalised (R, G, B) over the centre half of a RAW frame.
    func centreMeans(_ raw: PixelBuffer) -> SIMD3<Double> {
        let stats = FrameStatistics(raw: raw, blackLevel: sensor.blackLevel, whiteLevel: sensor.whiteLevel)
        var sum = SIMD3<Double>.zero
        var n = 0.0
        for i in 0..<stats.means.count {
            let c = stats.cellCenter(i)
            guard c.x > 0.25, c.x < 0.75, c.y > 0.25, c.y < 0.75 else { continue }
            let m = stats.means[i]
            sum += SIMD3(Double(m.x), Double(m.y), Double(m.z))
            n += 1
        }
        return sum / n
    }
}

func grayCard(kelvin: Double, lux: Double) -> Scene {
    Scene.grayCard(light: Light(.temperature(kelvin), lux: lux))
}
