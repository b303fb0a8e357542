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

/// A camera that hands every call to a simulated camera, but reports no flash (the protocol's default), takes its
/// photos from stream frames (it is not a ``SensorPipelineDevice``), and runs `beforeFrame` as each stream frame
/// begins (a test's clock can advance there, as if making frames took time, or the test can hold the frame there).
final class ForwardingCamera: CaptureDevice {
    let inner: SimulatedCamera
    let beforeFrame: @Sendable () async -> Void

    init(
        _ inner: SimulatedCamera = SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small())),
        beforeFrame: @escaping @Sendable () async -> Void = {}
    ) {
        self.inner = inner
        self.beforeFrame = beforeFrame
    }

    var uniqueID: String { "forwarding" }
    var localizedName: String { "Forwarding camera" }
    var formats: [DeviceFormat] { inner.formats }
    var activeFormat: DeviceFormat { inner.activeFormat }
    func setActiveFormat(_ format: DeviceFormat) throws(CaptureError) { try inner.setActiveFormat(format) }
    var activeFrameDuration: MediaTime { inner.activeFrameDuration }
    var activeColorSpace: CaptureColorSpace { inner.activeColorSpace }
    func setActiveColorSpace(_ colorSpace: CaptureColorSpace) throws(CaptureError) {
        try inner.setActiveColorSpace(colorSpace)
    }
    var status: DeviceStatus { inner.status }
    func values<Value: Sendable & Equatable>(of property: DeviceProperty<Value>) -> AsyncStream<Value> {
        inner.values(of: property)
    }
    func startStreaming() async throws(CaptureError) { try await inner.startStreaming() }
    func stopStreaming() async { await inner.stopStreaming() }
    func nextFrame(_ configuration: StreamConfiguration) async throws(CaptureError) -> CaptureFrame {
        await beforeFrame()
        return try await inner.nextFrame(configuration)
    }
    func captureStill(_ request: StillRequest) async throws(CaptureError) -> StillCapture {
        try await inner.captureStill(request)
    }
}
