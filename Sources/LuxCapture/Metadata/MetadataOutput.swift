public import LuxCodecs
public import LuxPixels
import Synchronization

/// Detects machine-readable codes in the camera's frames (AVCaptureMetadataOutput).
///
/// ```swift
/// let metadata = MetadataOutput()
/// try session.addOutput(metadata)
/// metadata.metadataObjectTypes = [.qr, .aztec, .dataMatrix]
/// try await session.startRunning()
/// for try await frame in metadata.frames {
///     for code in frame.objects { print(code.symbology, code.stringValue, code.bounds) }
/// }
/// ```
///
/// Each frame the reader asks for is searched with ``LuxCodecs/CodeReader`` (zxing-cpp) for the types in
/// ``metadataObjectTypes`` (none by default, as in AVFoundation); codes whose centre lies outside
/// ``rectOfInterest`` are left out. Frames come from the same stream as a ``VideoDataOutput``'s; the sequence ends
/// when the session stops or the connection is disabled.
///
/// Aztec codes away from the frame's centre need a search of windows of the frame, which costs about as much again as
/// the rest of the search: it runs on every ``aztecWindowInterval``th frame, and on every frame while the last such
/// search found an Aztec code, so a code that comes into view is found within that many frames and then in each
/// frame.
public final class MetadataOutput: SessionOutput {
    private struct State {
        var session = WeakReference<CaptureSession>(nil)
        var connections: [Connection] = []
        var types: Set<Symbology> = []
        var rectOfInterest = Rect(x: 0, y: 0, width: 1, height: 1)
        /// Frames searched so far.
        var framesSearched = 0
        /// Whether the last window search found an Aztec code.
        var aztecInView = false
    }

    /// Every how many frames the windows are searched for off-centre Aztec codes while none is in view.
    public static let aztecWindowInterval = 4

    private let state = Mutex(State())

    /// Creates an output.
    public init() {}

    public var connections: [Connection] { state.withLock { $0.connections } }
    public var acceptedMediaTypes: Set<MediaType> { [.video] }

    /// The symbologies that can be detected: all of ``LuxCodecs/Symbology`` once the output is connected to a
    /// camera, none before.
    public var availableMetadataObjectTypes: [Symbology] {
        connection(for: .video) == nil ? [] : Symbology.allCases
    }

    /// The symbologies looked for (default: none).
    public var metadataObjectTypes: [Symbology] {
        get { Symbology.allCases.filter { s in state.withLock { $0.types.contains(s) } } }
        set { state.withLock { $0.types = Set(newValue) } }
    }

    /// The part of the frame searched, normalised to 0…1 with the origin at the top-left (default: all of it).
    public var rectOfInterest: Rect {
        get { state.withLock { $0.rectOfInterest } }
        set { state.withLock { $0.rectOfInterest = newValue } }
    }

    /// The frames' codes, from now until the session stops.
    public var frames: Frames { Frames(output: self) }

    /// The frames of a ``MetadataOutput``.
    public struct Frames: AsyncSequence, Sendable {
        public typealias Element = MetadataFrame
        public typealias Failure = CaptureError
        let output: MetadataOutput

        public func makeAsyncIterator() -> Iterator { Iterator(output: output) }

        /// Asks the session for frames one at a time and searches each.
        public struct Iterator: AsyncIteratorProtocol {
            let output: MetadataOutput
            var reader: VideoDataOutput.ReaderToken?

            public mutating func next() async throws(CaptureError) -> MetadataFrame? {
                guard let session = output.state.withLock({ $0.session.object }), session.isRunning,
                    !session.isInterrupted, let pump = session.pump, output.connection(for: .video)?.isEnabled == true
                else {
                    reader = nil
                    return nil
                }
                if Task.isCancelled { return nil }
                if reader == nil || reader?.pump !== pump { reader = VideoDataOutput.ReaderToken(pump: pump) }
                let frame = try await pump.nextFrame(for: reader!.id)
                return try output.search(frame)
            }
        }
    }

    /// The codes of `frame`.
    func search(_ frame: CaptureFrame) throws(CaptureError) -> MetadataFrame {
        let (types, roi, windows) = state.withLock { s in
            let windows = s.aztecInView || s.framesSearched % Self.aztecWindowInterval == 0
            s.framesSearched += 1
            return (s.types, s.rectOfInterest, windows)
        }
        var objects: [MachineReadableCodeObject] = []
        if let pixels = frame.image, !types.isEmpty {
            let codes: [DetectedCode]
            do {
                var reader = CodeReader(symbologies: types)
                reader.searchesOffCentreAztec = windows
                codes = try reader.codes(in: pixels)
            } catch {
                throw .processing("code detection failed: \(error)")
            }
            if windows && types.contains(.aztec) {
                let found = codes.contains { $0.symbology == .aztec }
                state.withLock { $0.aztecInView = found }
            }
            for code in codes {
                let object = MachineReadableCodeObject(
                    code, width: pixels.width, height: pixels.height, time: frame.presentationTime)
                let b = object.bounds
                let centre = Point(x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2)
                if roi.minX <= centre.x, centre.x <= roi.maxX, roi.minY <= centre.y, centre.y <= roi.maxY {
                    objects.append(object)
                }
            }
        }
        return MetadataFrame(presentationTime: frame.presentationTime, index: frame.index, objects: objects)
    }

    func attach(to session: CaptureSession?) { state.withLock { $0.session = WeakReference(session) } }
    func setConnections(_ connections: [Connection]) { state.withLock { $0.connections = connections } }
    func sessionDidCommit(_ session: CaptureSession) {}
    func sessionRunningChanged(_ session: CaptureSession, running: Bool) {}
}
