import LuxColor
public import LuxPixels
public import LuxScene
import RealModule
import Synchronization

/// A physically simulated camera looking at a ``Scene``: thin-lens optics, a Bayer sensor with shot and read
/// noise and a 14-bit ADC, contrast-detect autofocus, auto exposure and auto white balance running on the
/// frames it produces, and the manual controls of seed 004 (Camera Capture: Manual Controls).
///
/// Time is simulated: frames are produced on demand (``nextFrame(_:)``), one frame slot after another on the
/// device clock, so tests never sleep and every run is bit-identical for a given seed.
///
/// ```swift
/// let camera = SimulatedCamera(scene: .stillLife())
/// try await camera.startStreaming()
/// try camera.setFocusMode(.autoFocus)
/// for _ in 0..<30 { _ = try await camera.nextFrame(StreamConfiguration()) }
/// let sync = try await camera.setExposureModeCustom(duration: .value(MediaTime(value: 1, timescale: 60)), iso: .current)
/// let photo = try await camera.captureStill(StillRequest(exposure: .auto(bias: -1)))
/// ```
public final class SimulatedCamera: CaptureDevice {
    /// Construction options.
    public struct Configuration: Sendable {
        /// The sensor and lens.
        public var sensor: SensorModel
        /// The seed of all noise.
        public var seed: UInt64
        /// Threads used to render (nil: all cores).
        ///
        /// Results do not depend on it.
        public var threads: Int?
        /// Buffers of one size and format that may be in use at once.
        public var poolCapacity: Int
        /// Lens travel per frame slot in lens-position units (normal and smooth autofocus).
        public var lensSpeed: (normal: Double, smooth: Double)
        /// Where the camera faces (RAW stills are offered by back cameras only).
        public var position: CaptureDevicePosition
        /// The formats offered (`nil`: ``DeviceFormat/simulatedCameraFormats(sensor:)``) — for simulating a
        /// camera with other modes, or small video formats in tests.
        public var formats: [DeviceFormat]?

        /// Creates options.
        public init(
            sensor: SensorModel = .phone12MP, seed: UInt64 = 1, threads: Int? = nil, poolCapacity: Int = 8,
            position: CaptureDevicePosition = .back
        ) {
            self.sensor = sensor
            self.seed = seed
            self.threads = threads
            self.poolCapacity = poolCapacity
            self.lensSpeed = (0.15, 0.03)
            self.position = position
        }
    }

    public var uniqueID: String { configuration.position == .front ? "lux.simulated.front" : "lux.simulated.back-wide" }
    public var localizedName: String {
        configuration.position == .front ? "Simulated Front Camera" : "Simulated Back Camera"
    }
    public var position: CaptureDevicePosition { configuration.position }
    /// The sensor's 14-bit mosaic on formats that support RAW.
    public var rawPixelFormat: PixelFormat? { activeFormat.supportsRAW ? .bayer14(sensor.cfaPattern) : nil }
    /// The simulated camera has an LED flash (``flash``).
    public var hasFlash: Bool { true }
    public let formats: [DeviceFormat]
    /// The sensor and lens.
    public let sensor: SensorModel
    /// The sensor's colour calibration (ColorMatrix1/2, ForwardMatrix1/2).
    public let calibration: CameraCalibration
    /// The image processor for stream frames and processed stills.
    public let processor: FrameProcessor
    /// The pool frames are drawn from.
    public let pool: BufferPool
    let configuration: Configuration
    let threads: Int
    let state: Mutex<State>
    let broadcaster = StatusBroadcaster()
    /// Rendered views of the scene's still layers, reused while the scene, lens and light stay the same.
    let radianceCache = RadianceCache()
    let gate = ProductionGate()

    /// Creates a camera looking at `scene`, in the photo format, auto focus/exposure/white balance.
    public init(scene: Scene, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        sensor = configuration.sensor
        calibration = CameraCalibration(response: configuration.sensor.response)
        processor = FrameProcessor(sensor: configuration.sensor, calibration: calibration)
        formats = configuration.formats ?? DeviceFormat.simulatedCameraFormats(sensor: configuration.sensor)
        pool = BufferPool(capacityPerKey: configuration.poolCapacity)
        threads = configuration.threads ?? Parallel.defaultThreadCount
        let photo = formats.first { $0.isPhotoFormat && $0.pixelFormat == .yCbCr420FullRange } ?? formats[0]
        state = Mutex(State(scene: scene, format: photo, sensor: configuration.sensor))
        let grey = State.initialGains(calibration: calibration)
        state.withLock {
            $0.gains = grey
            $0.grayWorldGains = grey
        }
    }

    // MARK: Formats and scene

    public var activeFormat: DeviceFormat { state.withLock { $0.format } }

    public func setActiveFormat(_ format: DeviceFormat) throws(CaptureError) {
        guard formats.contains(format) else { throw .formatNotSupported(format.description) }
        state.withLock { s in
            s.format = format
            s.frameDuration = State.defaultFrameDuration(format)
            s.maxAutoExposureDuration = State.defaultMaxAutoExposureDuration(format)
            if !format.supports(s.colorSpace) { s.colorSpace = .sRGB }
            s.iso = min(max(s.iso, format.minISO), format.maxISO)
        }
    }

    public var activeColorSpace: CaptureColorSpace { state.withLock { $0.colorSpace } }

    public func setActiveColorSpace(_ colorSpace: CaptureColorSpace) throws(CaptureError) {
        try state.withLock { (s) throws(CaptureError) in
            guard s.format.supports(colorSpace) else {
                throw .unsupported(
                    "\(colorSpace.rawValue) with \(s.format.pixelFormat.fourCharacterCode) (supported: \(s.format.supportedColorSpaces.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            s.colorSpace = colorSpace
        }
    }

    /// The frame duration (1 / frame rate) the stream runs at when exposures are shorter.
    public var activeFrameDuration: MediaTime { state.withLock { $0.frameDuration } }

    /// Sets the frame rate.
    ///
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside the active format's frame-rate range.
    public func setActiveFrameRate(_ fps: Double) throws(CaptureError) {
        try state.withLock { (s) throws(CaptureError) in
            guard s.format.frameRateRange.contains(fps) else {
                throw .outOfRange(name: "frame rate", value: fps, range: s.format.frameRateRange)
            }
            s.frameDuration = DeviceFormat.frameDuration(fps: fps)
        }
    }

    /// What the camera looks at.
    ///
    /// Changing it takes effect at the next frame (a "scene change" for 3A).
    public var scene: Scene {
        get { state.withLock { $0.scene } }
        set { state.withLock { $0.scene = newValue } }
    }

    /// The flash used by stills that ask for it.
    public var flash: Flash {
        get { state.withLock { $0.flash } }
        set { state.withLock { $0.flash = newValue } }
    }

    // MARK: Observation

    public var status: DeviceStatus { state.withLock { $0.status(aperture: Float(sensor.lens.fNumber)) } }

    public func values<Value: Sendable & Equatable>(of property: DeviceProperty<Value>) -> AsyncStream<Value> {
        broadcaster.stream(of: property, current: status)
    }

    func publish() { broadcaster.publish(status) }

    // MARK: Streaming

    public func startStreaming() async throws(CaptureError) {
        state.withLock { $0.isStreaming = true }
    }

    public func stopStreaming() async {
        state.withLock { $0.isStreaming = false }
    }

    /// Whether frames are being streamed.
    public var isStreaming: Bool { state.withLock { $0.isStreaming } }

    /// The presentation time the next frame slot will have.
    public var nextFrameTime: MediaTime { state.withLock { $0.nextTime } }

    /// A sequence of frames (each `next()` produces one frame slot), starting the stream.
    public func frames(_ configuration: StreamConfiguration = StreamConfiguration()) -> FrameSequence {
        FrameSequence(camera: self, configuration: configuration)
    }
}

/// The frames of a ``SimulatedCamera``, produced on demand.
public struct FrameSequence: AsyncSequence, Sendable {
    public typealias Element = CaptureFrame
    public typealias Failure = CaptureError
    let camera: SimulatedCamera
    let configuration: StreamConfiguration

    public struct AsyncIterator: AsyncIteratorProtocol {
        let camera: SimulatedCamera
        let configuration: StreamConfiguration

        public mutating func next() async throws(CaptureError) -> CaptureFrame? {
            if !camera.isStreaming { try await camera.startStreaming() }
            return try await camera.nextFrame(configuration)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(camera: camera, configuration: configuration) }
}
