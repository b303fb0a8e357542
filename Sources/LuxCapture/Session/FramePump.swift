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
/// Frames are made on demand, one device frame slot after another. Every frame made while readers (the video data
/// output's iterators, a movie recording) are registered is queued for each of them (``videoQueueCapacity`` at
/// most; a reader that falls behind loses its oldest frames), so a reader that keeps up sees every frame.
final class FramePump: Sendable {
    let device: any CaptureDevice
    let session: WeakReference<CaptureSession>
    /// The session's clock: when frames were made, and how long the device took.
    let clock: CaptureClock
    /// Frames waiting for each reader (the video data output, a movie recording).
    static let videoQueueCapacity = 4

    struct State {
        /// The frames waiting for each reader, oldest first.
        var readers: [UInt64: Deque<CaptureFrame>] = [:]
        var nextReader: UInt64 = 0
        var lastFrameInstant: CaptureClock.Instant?
        /// When the last frame began (its production started).
        var lastFrameStart: CaptureClock.Instant?
        var metering: SceneMetering?
    }

    let state = Mutex(State())
    /// Serialises production so frames reach the video queue in device order.
    let production = AsyncTurnstile()

    init(device: any CaptureDevice, session: CaptureSession) {
        self.device = device
        self.session = WeakReference(session)
        clock = session.clock
    }

    /// The stream's frame duration.
    var frameDuration: Duration {
        Duration(device.activeFrameDuration)
    }

    /// The time on the session's clock since any consumer last made a frame (`nil` before the first).
    var timeSinceLastFrame: Duration? {
        state.withLock { $0.lastFrameInstant }.map { $0.duration(to: clock.now) }
    }

    /// The time on the session's clock since any consumer last began making a frame (`nil` before the first).
    var timeSinceLastFrameStarted: Duration? {
        state.withLock { $0.lastFrameStart }.map { $0.duration(to: clock.now) }
    }

    /// The latest metering.
    var metering: SceneMetering? { state.withLock { $0.metering } }

    /// Makes the next stream frame; `raw` asks for the Bayer data too.
    ///
    /// Processed pixels are made when a video reader is active (and then the frame is also queued for it), or when
    /// `processed` is set. `outputDimensions` reads frames out at another size (a Live Photo's movie frames); they
    /// are not queued for the video data output, and `pixelFormat` asks for their processed pixels in another format.
    func produce(
        raw: Bool, processed: Bool = false, outputDimensions: StreamConfiguration.Dimensions? = nil,
        pixelFormat: PixelFormat? = nil
    ) async throws(CaptureError) -> CaptureFrame {
        let ticket = production.reserve()
        await production.wait(for: ticket)
        defer { production.release() }
        let readers = outputDimensions == nil ? state.withLock { $0.readers.count } : 0
        var config = StreamConfiguration(deliversProcessedFrames: processed || readers > 0, deliversRAW: true)
        config.outputDimensions = outputDimensions
        if outputDimensions != nil { config.pixelFormat = pixelFormat }
        let started = clock.now
        state.withLock { $0.lastFrameStart = started }
        let frame: CaptureFrame
        do { frame = try await device.nextFrame(config) } catch {
            // A camera that is gone or stopped delivering ends the session with a runtime error.
            switch error {
            case .deviceDisconnected, .timedOut: await session.object?.reportRuntimeError(error)
            default: break
            }
            throw error
        }
        let finished = clock.now
        let elapsed = started.duration(to: finished)
        let metering = Self.meter(frame, device: device)
        let session = self.session.object
        if let raw = frame.raw {
            session?.photoOutput?.costModel.observeExposure(
                seconds: PhotoOutput.seconds(elapsed), megapixels: Double(raw.width * raw.height) / 1e6)
        }
        state.withLock { s in
            s.lastFrameInstant = finished
            if let metering { s.metering = metering }
            if !s.readers.isEmpty, frame.image != nil, outputDimensions == nil {
                var queued = frame
                queued.raw = nil
                for id in s.readers.keys {
                    s.readers[id]!.append(queued)
                    // A reader that falls behind loses its oldest frames (it sees the gap in frame numbers).
                    while s.readers[id]!.count > Self.videoQueueCapacity { s.readers[id]!.removeFirst() }
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

    /// The metering of a stream frame made within the last two frame durations, or of a new one.
    func freshMetering() async throws(CaptureError) -> SceneMetering? {
        if let age = timeSinceLastFrame, age <= frameDuration * 2, let m = metering { return m }
        return try await meter()
    }

    /// The most stream frames ``settle(minimumFrames:)`` runs: 0.4 s at 30 fps, so a capture in a light that auto
    /// exposure or white balance cannot follow (beyond the exposure range, a flickering lamp) is not held up longer.
    static let maximumSettleFrames = 12

    /// Whether the device's auto exposure and auto white balance have converged: AVFoundation's `isAdjustingExposure`
    /// and `isAdjustingWhiteBalance` both `false` (a loop at the end of its range, in the dark, is not adjusting).
    var isSettled: Bool {
        let s = device.status
        return !s.isAdjustingExposure && !s.isAdjustingWhiteBalance
    }

    /// Runs stream frames until auto exposure and auto white balance settle: at least `minimumFrames`, at most
    /// ``maximumSettleFrames``.
    func settle(minimumFrames: Int = 3) async throws(CaptureError) {
        for i in 0..<Self.maximumSettleFrames {
            if i >= minimumFrames, isSettled { break }
            _ = try await produce(raw: false)
        }
    }

    /// `count` consecutive stream frames with their Bayer data (photos taken from a video format's stream), and their
    /// processed pixels when `processed` is set.
    func streamFrames(_ count: Int, processed: Bool = false) async throws(CaptureError) -> [CaptureFrame] {
        var out: [CaptureFrame] = []
        for _ in 0..<count { out.append(try await produce(raw: true, processed: processed)) }
        return out
    }

    // MARK: Video data output

    /// Registers a reader of processed frames: from now on every frame made is queued for it.
    func addReader() -> UInt64 {
        state.withLock { s in
            defer { s.nextReader += 1 }
            s.readers[s.nextReader] = Deque()
            return s.nextReader
        }
    }

    func removeReader(_ id: UInt64) { state.withLock { _ = $0.readers.removeValue(forKey: id) } }

    /// The next frame for reader `id`: the oldest queued for it, or a new one.
    func nextFrame(for id: UInt64) async throws(CaptureError) -> CaptureFrame {
        while true {
            if let queued = state.withLock({ $0.readers[id]?.popFirst() }) { return queued }
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
