public import FoundationEssentials
public import LuxCodecs
public import LuxPixels
import Synchronization

/// Records the camera (and microphone) to a QuickTime movie: H.264 video and AAC audio by default, HEVC or
/// Motion-JPEG and 16-bit PCM on request (AVCaptureMovieFileOutput).
///
/// Its presence shapes the session: it makes the automatic wide-colour choice sRGB (Display P3 movies render
/// badly elsewhere) and disables Live Photo capture on the ``PhotoOutput`` (seed 000).
///
/// ```swift
/// let movie = MovieFileOutput()
/// try session.addOutput(movie)
/// try await session.startRunning()
/// try movie.startRecording(to: URL(filePath: "clip.mov"))
/// try await session.clock.sleep(for: .seconds(2))
/// let recording = try await movie.stopRecording()      // frames, duration, audio
/// ```
///
/// The recording keeps pace with the session's ``CaptureSession/clock`` (the simulated camera never runs more than
/// a frame ahead of it while recording); if rendering is slower than real time the movie still holds every frame
/// slot, later.
/// The file is written beside its destination and renamed into place when the recording ends.
public final class MovieFileOutput: SessionOutput {
    /// What a finished recording holds.
    public struct Recording: Sendable, Hashable {
        /// The movie file.
        public var url: URL
        /// The movie's duration.
        public var duration: MediaTime
        /// Video frames written.
        public var videoFrameCount: Int
        /// Audio sample frames written (0 without a microphone).
        public var audioFrameCount: Int
        /// Frame slots missing from the video (a still capture took the sensor).
        public var droppedFrameCount: Int
    }

    private struct State {
        var session = WeakReference<CaptureSession>(nil)
        var connections: [Connection] = []
        var task: Task<Recording, any Error>?
        var stopRequested = false
        var maxRecordedDuration: MediaTime?
        var metadata: [MovieMetadataItem] = []
        var recorded = MediaTime.zero
        var videoCodec = VideoCodec.h264
        var videoCompression = VideoCompression()
        var audioCodec = QuickTimeWriter.AudioCodec.aac
    }

    private let state = Mutex(State())

    /// Creates an output.
    public init() {}

    public var connections: [Connection] { state.withLock { $0.connections } }
    public var acceptedMediaTypes: Set<MediaType> { [.video, .audio] }

    /// Whether a recording is in progress.
    public var isRecording: Bool { state.withLock { $0.task != nil } }

    /// How much has been recorded so far, on the device clock.
    public var recordedDuration: MediaTime { state.withLock { $0.recorded } }

    /// The longest recording (`nil`: no limit); a recording that reaches it ends by itself.
    public var maxRecordedDuration: MediaTime? {
        get { state.withLock { $0.maxRecordedDuration } }
        set { state.withLock { $0.maxRecordedDuration = newValue } }
    }

    /// Movie-level metadata written into the next recordings.
    public var metadata: [MovieMetadataItem] {
        get { state.withLock { $0.metadata } }
        set { state.withLock { $0.metadata = newValue } }
    }

    /// The video codec of the next recordings (default H.264; AVVideoCodecKey in the output settings).
    public var videoCodec: VideoCodec {
        get { state.withLock { $0.videoCodec } }
        set { state.withLock { $0.videoCodec = newValue } }
    }

    /// The H.264/HEVC encoder's preset and rate factor for the next recordings.
    public var videoCompression: VideoCompression {
        get { state.withLock { $0.videoCompression } }
        set { state.withLock { $0.videoCompression = newValue } }
    }

    /// How the next recordings store their sound (default AAC).
    public var audioCodec: QuickTimeWriter.AudioCodec {
        get { state.withLock { $0.audioCodec } }
        set { state.withLock { $0.audioCodec = newValue } }
    }

    /// Starts recording to `url` (a .mov file), with audio when the session has a microphone connected.
    ///
    /// - Throws: ``CaptureError/notRunning(_:)`` without a running session and an enabled video connection,
    ///   ``CaptureError/unsupported(_:)`` while a recording is in progress, and the writer's errors.
    public func startRecording(to url: URL) throws(CaptureError) {
        guard let session = state.withLock({ $0.session.object }), session.isRunning, let pump = session.pump else {
            throw .notRunning("the session is not running")
        }
        guard let video = connection(for: .video), video.isEnabled else {
            throw .notRunning("the movie file output has no enabled camera connection")
        }
        let camera = pump.device
        let f = camera.activeFormat
        let mic = connection(for: .audio).flatMap { $0.isEnabled ? $0.input.microphone : nil }
        let duration = camera.activeFrameDuration
        let (codec, compression, audioCodec) = state.withLock { ($0.videoCodec, $0.videoCompression, $0.audioCodec) }
        let settings = QuickTimeWriter.Settings(
            video: .init(
                width: f.streamWidth, height: f.streamHeight, codec: codec, compression: compression,
                frameDuration: duration, colorSpace: camera.activeColorSpace.colorSpace),
            audio: mic.map { .init(sampleRate: $0.sampleRate, channelCount: $0.channelCount, codec: audioCodec) },
            metadata: metadata, creationDate: Date())
        let writer: QuickTimeWriter
        do { writer = try QuickTimeWriter(writingTo: url, settings: settings) } catch { throw .processing("\(error)") }
        let box = WriterBox(writer)
        try state.withLock { (s) throws(CaptureError) in
            guard s.task == nil else { throw .unsupported("a recording is already in progress") }
            s.stopRequested = false
            s.recorded = .zero
            s.task = Task { [weak self] in
                try await Self.record(output: self, pump: pump, writer: box, microphone: mic, url: url)
            }
        }
    }

    /// Ends the recording and finishes the file.
    ///
    /// - Returns: What was recorded.
    /// - Throws: ``CaptureError/notRunning(_:)`` without a recording, and the errors that ended it.
    public func stopRecording() async throws(CaptureError) -> Recording {
        guard
            let task = state.withLock({ s -> Task<Recording, any Error>? in
                s.stopRequested = true
                return s.task
            })
        else { throw .notRunning("no recording is in progress") }
        defer { state.withLock { $0.task = nil } }
        do { return try await task.value } catch let e as CaptureError { throw e } catch {
            throw .processing("\(error)")
        }
    }

    private var shouldStop: Bool {
        state.withLock { s in
            if s.stopRequested { return true }
            if let max = s.maxRecordedDuration, s.recorded >= max { return true }
            return !(s.session.object?.isRunning ?? false)
        }
    }

    /// Pulls stream frames until told to stop, writing video and the microphone's samples for each frame slot.
    private static func record(
        output: MovieFileOutput?, pump: FramePump, writer box: WriterBox, microphone: SimulatedMicrophone?, url: URL
    ) async throws -> Recording {
        let writer = box.writer
        let reader = pump.addReader()
        defer { pump.removeReader(reader) }
        let clock = pump.clock
        let clockStart = clock.now
        var start: MediaTime?
        var last: CaptureFrame?
        var frames = 0
        var audioFrames = 0
        var dropped = 0
        do {
            while let output, !output.shouldStop {
                let frame = try await pump.nextFrame(for: reader)
                guard let pixels = frame.image else { continue }
                let t0 = start ?? frame.presentationTime
                start = t0
                if let l = last { dropped += max(0, frame.index - l.index - 1) }
                try writer.appendVideoFrame(pixels, at: frame.presentationTime - t0)
                frames += 1
                if let mic = microphone {
                    // The samples of every slot since the previous frame (gaps included), so sound stays in sync.
                    let from = last.map { $0.presentationTime + $0.duration } ?? frame.presentationTime
                    let to = frame.presentationTime + frame.duration
                    let count = Int(((to - from).seconds * Double(mic.sampleRate)).rounded())
                    if count > 0 {
                        let samples = mic.buffer(at: from, frameCount: count)
                        try writer.appendAudio(samples.samples)
                        audioFrames += count
                    }
                }
                last = frame
                let recorded = frame.presentationTime + frame.duration - t0
                output.state.withLock { $0.recorded = recorded }
                // Keep pace with the session's clock: the next frame slot starts when the clock reaches it.
                let due = clockStart.advanced(by: Duration(recorded))
                if clock.now < due { try await clock.sleep(until: due) }
            }
            let end = last.map { $0.presentationTime + $0.duration - (start ?? .zero) }
            try writer.finish(endTime: end)
        } catch {
            writer.cancel()
            throw error
        }
        return Recording(
            url: url, duration: last.map { $0.presentationTime + $0.duration - (start ?? .zero) } ?? .zero,
            videoFrameCount: frames, audioFrameCount: audioFrames, droppedFrameCount: dropped)
    }

    func attach(to session: CaptureSession?) { state.withLock { $0.session = WeakReference(session) } }
    func setConnections(_ connections: [Connection]) { state.withLock { $0.connections = connections } }
    func sessionDidCommit(_ session: CaptureSession) {}
    func sessionRunningChanged(_ session: CaptureSession, running: Bool) {}
}

/// Hands the (single-owner) writer to the recording task.
private final class WriterBox: @unchecked Sendable {  // used by the recording task only after init
    let writer: QuickTimeWriter
    init(_ writer: QuickTimeWriter) { self.writer = writer }
}
