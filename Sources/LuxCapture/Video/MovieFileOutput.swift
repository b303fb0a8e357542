public import FoundationEssentials
import Synchronization

/// Records the camera (and microphone) to a QuickTime movie (AVCaptureMovieFileOutput).
///
/// Its presence shapes the session: it makes the automatic wide-colour choice sRGB (Display P3 movies render
/// badly elsewhere) and disables Live Photo capture on the ``PhotoOutput`` (seed 000).
///
/// Recording itself needs a QuickTime writer, which LuxCodecs does not have yet: ``startRecording(to:)``
/// throws ``CaptureError/unsupported(_:)`` until it arrives with the Live Photos work.
public final class MovieFileOutput: SessionOutput {
    private struct State {
        var session = WeakReference<CaptureSession>(nil)
        var connections: [Connection] = []
    }

    private let state = Mutex(State())

    /// Creates an output.
    public init() {}

    public var connections: [Connection] { state.withLock { $0.connections } }
    public var acceptedMediaTypes: Set<MediaType> { [.video, .audio] }

    /// Whether a recording is in progress.
    public var isRecording: Bool { false }

    /// Starts recording to `url` (a .mov file).
    ///
    /// - Throws: ``CaptureError/unsupported(_:)``: LuxCodecs has no QuickTime writer yet.
    public func startRecording(to url: URL) async throws(CaptureError) {
        guard state.withLock({ $0.session.object?.isRunning }) == true else {
            throw .notRunning("the session is not running")
        }
        throw .unsupported("recording \(url.lastPathComponent): LuxCodecs has no QuickTime (.mov) writer yet")
    }

    func attach(to session: CaptureSession?) { state.withLock { $0.session = WeakReference(session) } }
    func setConnections(_ connections: [Connection]) { state.withLock { $0.connections = connections } }
    func sessionDidCommit(_ session: CaptureSession) {}
    func sessionRunningChanged(_ session: CaptureSession, running: Bool) {}
}
