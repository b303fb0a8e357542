public import Logging
import Synchronization

/// Connects capture devices to outputs and runs them (AVCaptureSession).
///
/// Build the graph, then start it:
///
/// ```swift
/// let camera = SimulatedCamera(scene: .stillLife())
/// let session = CaptureSession()
/// let photoOutput = PhotoOutput()
/// session.beginConfiguration()
/// try session.setSessionPreset(.photo)
/// try session.addInput(DeviceInput(camera: camera))
/// try session.addOutput(photoOutput)
/// try session.commitConfiguration()          // the camera switches to the photo format and Display P3 here
/// try await session.startRunning()
/// for try await event in try photoOutput.capturePhoto(PhotoSettings()) { print(event) }
/// ```
///
/// Changes made between ``beginConfiguration()`` and ``commitConfiguration()`` (which nest) are applied
/// together at the outermost commit — device format, colour space, connections, the photo output's prepared
/// settings; outside such a block each change commits at once. Runtime errors and interruptions arrive as
/// ``SessionEvent``s on ``events``.
///
/// The session measures and waits on its ``clock`` (the system's continuous clock unless you pass another), and so do
/// its outputs: a test that passes a clock it advances itself sees scene monitoring, stream-frame freshness, movie
/// pacing and processing-time learning move with that clock only.
public final class CaptureSession: Sendable {
    struct State {
        var configurationDepth = 0
        var preset: SessionPreset = .high
        var inputs: [DeviceInput] = []
        var outputs: [any SessionOutput] = []
        var connections: [ObjectIdentifier: [Connection]] = [:]
        var automaticallyConfiguresWideColor = true
        var isRunning = false
        var interruption: InterruptionReason?
        var pump: FramePump?
        var monitor: Task<Void, Never>?
        var commitCount = 0
    }

    let state = Mutex(State())
    let eventBroadcaster = Broadcaster<SessionEvent>()
    /// Serialises start and stop.
    let runLock = AsyncTurnstile()
    /// Where the session logs configuration changes and runtime errors.
    public let logger: Logger
    /// The clock the session, its frame pump and its outputs read the time from and sleep on.
    public let clock: CaptureClock
    /// Decides whether the camera may run; ``startRunning()`` refuses a device it does not grant.
    public let authorization: any CaptureAuthorizationProvider

    /// Creates an empty session with the ``SessionPreset/high`` preset.
    ///
    /// - Parameters:
    ///   - clock: The clock to measure and wait on (default: the system's `ContinuousClock`).
    ///   - logger: Where to log configuration changes and runtime errors.
    ///   - authorization: Whether the camera may run (default: ``DeviceAccessAuthorization``).
    public init(
        clock: some Clock<Duration> = ContinuousClock(), logger: Logger = Logger(label: "lux.capture.session"),
        authorization: any CaptureAuthorizationProvider = DeviceAccessAuthorization()
    ) {
        self.clock = clock as? CaptureClock ?? CaptureClock(clock)
        self.logger = logger
        self.authorization = authorization
    }

    // MARK: Observation

    /// The session's events from now on: start, stop, runtime errors, interruptions.
    public var events: AsyncStream<SessionEvent> { eventBroadcaster.subscribe() }

    /// Whether the session runs (it stays running through interruptions).
    public var isRunning: Bool { state.withLock { $0.isRunning } }

    /// Whether the session is interrupted.
    public var isInterrupted: Bool { state.withLock { $0.interruption != nil } }

    /// The current interruption, if any.
    public var interruptionReason: InterruptionReason? { state.withLock { $0.interruption } }

    /// The inputs.
    public var inputs: [DeviceInput] { state.withLock { $0.inputs } }

    /// The outputs.
    public var outputs: [any CaptureOutput] { state.withLock { $0.outputs.map { $0 as any CaptureOutput } } }

    /// Every connection of the session.
    public var connections: [Connection] { state.withLock { $0.connections.values.flatMap { $0 } } }

    /// How many configurations have been committed (for tests of the deferred-work semantics).
    public var committedConfigurationCount: Int { state.withLock { $0.commitCount } }

    /// The first camera input's device.
    public var camera: (any CaptureDevice)? { state.withLock { $0.inputs.lazy.compactMap(\.camera).first } }

    /// The first microphone input's device.
    public var microphone: SimulatedMicrophone? { state.withLock { $0.inputs.lazy.compactMap(\.microphone).first } }

    // MARK: Configuration

    /// The preset (default ``SessionPreset/high``).
    public var sessionPreset: SessionPreset { state.withLock { $0.preset } }

    /// Whether the camera inputs can deliver `preset` (``SessionPreset/inputPriority`` always can).
    public func canSetSessionPreset(_ preset: SessionPreset) -> Bool {
        guard preset != .inputPriority, let camera else { return true }
        return preset.format(among: camera.formats) != nil
    }

    /// Sets the preset; the camera's format changes at the commit.
    ///
    /// - Throws: ``CaptureError/sessionConfiguration(_:)`` when the camera has no format for it.
    public func setSessionPreset(_ preset: SessionPreset) throws(CaptureError) {
        guard canSetSessionPreset(preset) else {
            throw .sessionConfiguration("the camera has no format for preset \(preset)")
        }
        try change { $0.preset = preset }
    }

    /// Whether the session sets the camera to Display P3 or sRGB by itself (seed 000's table; default `true`).
    ///
    /// Turn it off to choose the device's active format and colour space yourself ("forcing P3").
    public var automaticallyConfiguresCaptureDeviceForWideColor: Bool {
        get { state.withLock { $0.automaticallyConfiguresWideColor } }
        set { try? change { $0.automaticallyConfiguresWideColor = newValue } }
    }

    /// Starts a block of changes applied together at the matching ``commitConfiguration()``.
    public func beginConfiguration() {
        state.withLock { $0.configurationDepth += 1 }
    }

    /// Ends a block of changes; the outermost commit applies them.
    ///
    /// - Throws: ``CaptureError`` when the device rejects the format or colour space (the graph is kept).
    public func commitConfiguration() throws(CaptureError) {
        let apply = state.withLock { s -> Bool in
            precondition(s.configurationDepth > 0, "commitConfiguration() without beginConfiguration()")
            s.configurationDepth -= 1
            return s.configurationDepth == 0
        }
        if apply { try applyConfiguration() }
    }

    /// Runs `body` on the state, committing at once outside a configuration block.
    func change(_ body: (inout State) throws(CaptureError) -> Void) throws(CaptureError) {
        let deferred = try state.withLock { (s) throws(CaptureError) -> Bool in
            try body(&s)
            return s.configurationDepth > 0
        }
        if !deferred { try applyConfiguration() }
    }

    /// Whether `input` can join (one camera and one microphone at most, not twice).
    public func canAddInput(_ input: DeviceInput) -> Bool {
        state.withLock { s in
            !s.inputs.contains { $0 === input || $0.mediaType == input.mediaType }
        }
    }

    /// Adds an input and connects it to the outputs that accept its media type.
    ///
    /// - Throws: ``CaptureError/sessionConfiguration(_:)`` when ``canAddInput(_:)`` is false.
    public func addInput(_ input: DeviceInput) throws(CaptureError) {
        guard canAddInput(input) else {
            throw .sessionConfiguration("\(input) cannot be added: the session already has a \(input.mediaType) input")
        }
        try change { s in
            s.inputs.append(input)
            self.rebuildConnections(&s)
        }
    }

    /// Removes an input (and its connections).
    public func removeInput(_ input: DeviceInput) {
        try? change { s in
            s.inputs.removeAll { $0 === input }
            self.rebuildConnections(&s)
        }
    }

    /// Whether `output` can join: a Lux output not yet in a session, one of each kind.
    public func canAddOutput(_ output: any CaptureOutput) -> Bool {
        guard output is any SessionOutput else { return false }
        return state.withLock { s in
            !s.outputs.contains { $0 === output || type(of: $0) == type(of: output) }
        }
    }

    /// Adds an output and connects it to the inputs whose media types it accepts.
    ///
    /// - Throws: ``CaptureError/sessionConfiguration(_:)`` when ``canAddOutput(_:)`` is false.
    public func addOutput(_ output: any CaptureOutput) throws(CaptureError) {
        guard canAddOutput(output), let o = output as? any SessionOutput else {
            throw .sessionConfiguration("\(type(of: output)) cannot be added: the session already has one")
        }
        o.attach(to: self)
        try change { s in
            s.outputs.append(o)
            self.rebuildConnections(&s)
        }
    }

    /// Removes an output.
    public func removeOutput(_ output: any CaptureOutput) {
        guard let o = output as? any SessionOutput else { return }
        try? change { s in
            s.outputs.removeAll { $0 === output }
            s.connections[ObjectIdentifier(o)] = nil
            self.rebuildConnections(&s)
        }
        o.setConnections([])
        o.attach(to: nil)
    }

    func rebuildConnections(_ s: inout State) {
        var table: [ObjectIdentifier: [Connection]] = [:]
        for o in s.outputs {
            let id = ObjectIdentifier(o)
            let old = s.connections[id] ?? []
            var list: [Connection] = []
            for input in s.inputs {
                for port in input.ports where o.acceptedMediaTypes.contains(port.mediaType) {
                    list.append(
                        old.first { $0.input === input && $0.inputPort == port }
                            ?? Connection(input: input, port: port, session: self))
                }
            }
            table[id] = list
        }
        s.connections = table
    }

    /// Applies the configuration: connections, the preset's format, the wide-colour choice, then the outputs.
    func applyConfiguration() throws(CaptureError) {
        let (outputs, connections, preset, automatic, camera) = state.withLock { s in
            (
                s.outputs, s.connections, s.preset, s.automaticallyConfiguresWideColor,
                s.inputs.lazy.compactMap(\.camera).first
            )
        }
        for o in outputs { o.setConnections(connections[ObjectIdentifier(o)] ?? []) }
        if let camera {
            if let f = preset.format(among: camera.formats), camera.activeFormat != f {
                try camera.setActiveFormat(f)
            }
            if automatic {
                let space = WideColorPolicy.colorSpace(
                    hasPhotoOutput: outputs.contains { $0 is PhotoOutput },
                    hasMovieFileOutput: outputs.contains { $0 is MovieFileOutput },
                    hasVideoDataOutput: outputs.contains { $0 is VideoDataOutput }, preset: preset,
                    format: camera.activeFormat)
                if camera.activeColorSpace != space { try camera.setActiveColorSpace(space) }
            }
        }
        state.withLock { $0.commitCount += 1 }
        logger.debug("configuration committed", metadata: ["preset": "\(preset)", "outputs": "\(outputs.count)"])
        for o in outputs { o.sessionDidCommit(self) }
    }

    // MARK: Outputs by kind

    var photoOutput: PhotoOutput? { state.withLock { $0.outputs.lazy.compactMap { $0 as? PhotoOutput }.first } }
    var videoDataOutput: VideoDataOutput? {
        state.withLock { $0.outputs.lazy.compactMap { $0 as? VideoDataOutput }.first }
    }
    var movieFileOutput: MovieFileOutput? {
        state.withLock { $0.outputs.lazy.compactMap { $0 as? MovieFileOutput }.first }
    }
    var pump: FramePump? { state.withLock { $0.pump } }
}
