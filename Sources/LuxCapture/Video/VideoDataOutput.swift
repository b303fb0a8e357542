import Synchronization

/// Delivers the camera's processed frames as an async sequence (AVCaptureVideoDataOutput).
///
/// ```swift
/// let video = VideoDataOutput()
/// try session.addOutput(video)
/// try await session.startRunning()
/// for try await frame in video.frames {
///     render(frame.pixelBuffer, in: frame.colorSpace!)   // colour-aware: the tag may be Display P3
/// }
/// ```
///
/// Frames are made as the reader asks for them (the simulated camera never runs ahead of its reader). Frames
/// made meanwhile for other consumers — a photo taken from a video format's stream, scene metering — are kept
/// for the reader in a short queue; ``VideoFrame/droppedFramesBefore`` counts the frames it did not get. The
/// sequence ends when the session stops or the connection is disabled.
public final class VideoDataOutput: SessionOutput {
    private struct State {
        var session = WeakReference<CaptureSession>(nil)
        var connections: [Connection] = []
        var delivered = 0
        var dropped = 0
        var lastIndex: Int?
    }

    private let state = Mutex(State())

    /// Creates an output.
    public init() {}

    public var connections: [Connection] { state.withLock { $0.connections } }
    public var acceptedMediaTypes: Set<MediaType> { [.video] }

    /// Frames delivered so far.
    public var deliveredFrameCount: Int { state.withLock { $0.delivered } }
    /// Frames lost so far (gaps in the device's frame numbers seen by readers, and queue overflows).
    public var droppedFrameCount: Int { state.withLock { $0.dropped } }

    /// The frames, from now until the session stops.
    public var frames: Frames { Frames(output: self) }

    /// The frames of a ``VideoDataOutput``.
    public struct Frames: AsyncSequence, Sendable {
        public typealias Element = VideoFrame
        public typealias Failure = CaptureError
        let output: VideoDataOutput

        public func makeAsyncIterator() -> Iterator { Iterator(output: output) }

        /// Asks the session for frames one at a time.
        public struct Iterator: AsyncIteratorProtocol {
            let output: VideoDataOutput
            var reader: ReaderToken?

            public mutating func next() async throws(CaptureError) -> VideoFrame? {
                guard let session = output.state.withLock({ $0.session.object }), session.isRunning,
                    !session.isInterrupted, let pump = session.pump, output.connection(for: .video)?.isEnabled == true
                else {
                    reader = nil
                    return nil
                }
                if Task.isCancelled { return nil }
                if reader == nil || reader?.pump !== pump { reader = ReaderToken(pump: pump) }
                let frame = try await pump.nextFrame(for: reader!.id)
                return output.deliver(frame)
            }
        }
    }

    /// Registers a reader with the pump for as long as it lives.
    final class ReaderToken: Sendable {
        let pump: FramePump
        let id: UInt64
        init(pump: FramePump) {
            self.pump = pump
            id = pump.addReader()
        }
        deinit { pump.removeReader(id) }
    }

    func deliver(_ frame: CaptureFrame) -> VideoFrame? {
        guard let pixels = frame.image else { return nil }
        let dropped = state.withLock { s -> Int in
            let gap = s.lastIndex.map { max(0, frame.index - $0 - 1) } ?? 0
            s.lastIndex = frame.index
            s.delivered += 1
            s.dropped += gap
            return gap
        }
        return VideoFrame(
            pixelBuffer: pixels, presentationTime: frame.presentationTime, duration: frame.duration, index: frame.index,
            droppedFramesBefore: dropped, metadata: frame.metadata)
    }

    func attach(to session: CaptureSession?) { state.withLock { $0.session = WeakReference(session) } }
    func setConnections(_ connections: [Connection]) { state.withLock { $0.connections = connections } }
    func sessionDidCommit(_ session: CaptureSession) {}
    func sessionRunningChanged(_ session: CaptureSession, running: Bool) {
        if running { state.withLock { $0.lastIndex = nil } }
    }
}
