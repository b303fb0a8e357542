import DequeModule
import LuxPixels
import RealModule
import Synchronization

/// What the last metered stream frame says about the scene.
struct SceneMetering: Sendable, Hashable {
    /// The scene brightness as EV at ISO 100 for a correct exposure (lower is darker).
    var ev100: Double
    /// The fraction of clipped photosites at the current exposure.
    var clippedFraction: Double
    /// The fraction of photosites in deep shadow (below 1/64 of the target) at the current exposure.
    var shadowFraction: Double
    /// The frame's index.
    var frameIndex: Int
}

/// Produces a running session's stream frames for every consumer: the video data output (pull), photo
/// captures on video formats (frames with their RAW data), pre-capture metering and scene monitoring.
///
/// Frames are made on demand, one device frame slot after another. Frames made for another consumer while the
/// video data output has an active reader are queued for it (``videoQueueCapacity`` at most; older frames are
/// dropped and counted), so a reader that keeps up sees every frame the camera produced.
final class FramePump: Sendable {
    let device: any CaptureDevice
    let session: WeakReference<CaptureSession>
    /// Frames waiting for the video data output.
    static let videoQueueCapacity = 4

    struct State {
        var videoQueue = Deque<CaptureFrame>()
        var videoReaders = 0
        var lastFrameClock: ContinuousClock.Instant?
        var metering: SceneMetering?
        var droppedForVideo = 0
    }

    let state = Mutex(State())
    /// Serialises production so frames reach the video queue in device order.
    let production = AsyncTurnstile()

    init(device: any CaptureDevice, session: CaptureSession) {
        self.device = device
        self.session = WeakReference(session)
    }

    /// The stream's frame duration in seconds.
    var frameDuration: Double {
        (device as? SimulatedCamera)?.activeFrameDuration.seconds ?? device.activeFormat.minFrameDuration.seconds
    }

    /// Seconds since any consumer last made a frame (infinity before the first).
    var secondsSinceLastFrame: Double {
        guard let t = state.withLock({ $0.lastFrameClock }) else { return .infinity }
        let d = ContinuousClock.now - t
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// The latest metering.
    var metering: SceneMetering? { state.withLock { $0.metering } }

    /// Makes the next stream frame; `raw` asks for the Bayer data too. Processed pixels are made when a video
    /// reader is active (and then the frame is also queued for it), or when `processed` is set.
    /// `outputDimensions` reads frames out at another size (a Live Photo's movie frames); they are not queued for
    /// the video data output.
    func produce(
        raw: Bool, processed: Bool = false, outputDimensions: StreamConfiguration.Dimensions? = nil
    ) async throws(CaptureError) -> CaptureFrame {
        let ticket = production.reserve()
        await production.wait(for: ticket)
        defer { production.release() }
        let readers = outputDimensions == nil ? state.withLock { $0.videoReaders } : 0
        var config = StreamConfiguration(deliversProcessedFrames: processed || readers > 0, deliversRAW: true)
        config.outputDimensions = outputDimensions
        let started = ContinuousClock.now
        let frame = try await device.nextFrame(config)
        let elapsed = ContinuousClock.now - started
        let metering = Self.meter(frame, device: device)
        let session = self.session.object
        if let raw = frame.raw {
            session?.photoOutput?.costModel.observeExposure(
                seconds: PhotoOutput.seconds(elapsed), megapixels: Double(raw.width * raw.height) / 1e6)
        }
        state.withLock { s in
            s.lastFrameClock = .now
            if let metering { s.metering = metering }
            if s.videoReaders > 0, frame.image != nil, outputDimensions == nil {
                var queued = frame
                queued.raw = nil
                s.videoQueue.append(queued)
                while s.videoQueue.count > Self.videoQueueCapacity {
                    s.videoQueue.removeFirst()
                    s.droppedForVideo += 1
                }
            }
        }
        if let metering { session?.photoOutput?.updateSceneMonitoring(metering) }
        var out = frame
        if !raw { out.raw = nil }
        return out
    }

    /// Meters one stream frame and returns the metering.
    func meter() async throws(CaptureError) -> SceneMetering? {
        _ = try await produce(raw: false)
        return metering
    }

    /// Runs stream frames until auto exposure settles (at most 12).
    func settle() async throws(CaptureError) {
        for i in 0..<12 {
            _ = try await produce(raw: false)
            if i >= 2, !device.status.isAdjustingExposure, abs(device.status.exposureTargetOffset) < 1.0 / 3 { break }
        }
    }

    /// `count` consecutive stream frames with their Bayer data (photos taken from a video format's stream).
    func streamFrames(_ count: Int) async throws(CaptureError) -> [CaptureFrame] {
        var out: [CaptureFrame] = []
        for _ in 0..<count { out.append(try await produce(raw: true)) }
        return out
    }

    // MARK: Video data output

    func addVideoReader() { state.withLock { $0.videoReaders += 1 } }

    func removeVideoReader() {
        state.withLock { s in
            s.videoReaders -= 1
            if s.videoReaders == 0 { s.videoQueue.removeAll() }
        }
    }

    /// The next frame for the video data output: the oldest queued one, or a new one.
    func nextVideoFrame() async throws(CaptureError) -> CaptureFrame {
        while true {
            if let queued = state.withLock({ $0.videoQueue.popFirst() }) { return queued }
            _ = try await produce(raw: false, processed: true)
        }
    }

    // MARK: Metering

    /// The scene brightness and clipping of a frame with RAW data.
    static func meter(_ frame: CaptureFrame, device: any CaptureDevice) -> SceneMetering? {
        guard let raw = frame.raw else { return nil }
        let d = frame.metadata.raw
        let stats = FrameStatistics(raw: raw, blackLevel: d.blackLevel, whiteLevel: d.whiteLevel, columns: 16, rows: 12)
        var clipped = 0.0
        var shadows = 0.0
        var logSum = 0.0
        for i in 0..<stats.means.count {
            clipped += Double(stats.clippedFractions[i])
            let y = Double(stats.means[i].y)
            if y < 0.128 / 64 { shadows += 1 }
            logSum += Double.log(max(y, 1e-5))
        }
        let n = Double(stats.means.count)
        let meanLevel = Double.exp(logSum / n)
        let m = frame.metadata
        // EV100 of a correct exposure: log2(N²/t) − log2(ISO/100), corrected by how far the frame's level is from
        // the metering target (a brighter frame means a brighter scene at these settings).
        let ev =
            Double.log2(m.fNumber * m.fNumber / m.exposureDuration.seconds) - Double.log2(Double(m.iso) / 100)
            + Double.log2(max(meanLevel, 1e-6) / 0.128)
        return SceneMetering(
            ev100: ev, clippedFraction: clipped / n, shadowFraction: shadows / n, frameIndex: frame.index)
    }
}
