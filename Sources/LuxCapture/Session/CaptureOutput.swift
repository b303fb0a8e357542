/// An output of a ``CaptureSession``: ``PhotoOutput``, ``VideoDataOutput``, ``MovieFileOutput`` or ``MetadataOutput``.
public protocol CaptureOutput: AnyObject, Sendable {
    /// The connections feeding the output (empty until it is added to a session with a matching input).
    var connections: [Connection] { get }
    /// The media types the output accepts.
    var acceptedMediaTypes: Set<MediaType> { get }
}

extension CaptureOutput {
    /// The connection carrying `mediaType`, if any.
    public func connection(for mediaType: MediaType) -> Connection? {
        connections.first { $0.mediaType == mediaType }
    }
}

/// What a session needs from its outputs (kept internal so the public protocol stays small).
protocol SessionOutput: CaptureOutput {
    /// The output joined `session` (or left it, with `nil`).
    func attach(to session: CaptureSession?)
    /// The output's connections changed.
    func setConnections(_ connections: [Connection])
    /// The session committed a configuration (format, colour space and outputs are settled).
    func sessionDidCommit(_ session: CaptureSession)
    /// The session started (`true`) or stopped running.
    func sessionRunningChanged(_ session: CaptureSession, running: Bool)
}
