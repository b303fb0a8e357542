public import LuxCodecs
import LuxFusion
public import LuxPixels
import LuxRender
import Synchronization

/// Takes photos from a session's camera (AVCapturePhotoOutput): processed (JPEG or uncompressed), RAW,
/// RAW + processed, exposure brackets, with previews, flash and quality prioritisation.
///
/// Each request is a ``PhotoSettings`` value; the output checks it against its capabilities at once (throwing
/// ``CaptureError`` for anything unsupported), resolves it against the metered scene into
/// ``ResolvedPhotoSettings``, and reports progress as ``PhotoCaptureEvent``s in the documented order —
/// through an async stream or a ``PhotoCaptureDelegate``.
///
/// ```swift
/// let output = PhotoOutput()
/// try session.addOutput(output)
/// try await session.startRunning()
/// var settings = PhotoSettings()
/// settings.qualityPrioritization = .quality
/// for try await event in try output.capturePhoto(settings) {
///     if case .didFinishProcessingPhoto(let photo) = event { try save(photo.fileDataRepresentation()) }
/// }
/// ```
///
/// Requests are exposed one after another in the order they were made; while one is processed the next is
/// exposed. Resources for the kinds of capture you will make can be allocated ahead with ``prepare(_:)``.
///
/// On the simulated camera the output develops the sensor's Bayer frames itself: full-resolution stills on photo
/// formats, brackets, multi-frame fusion and Live Photos. On any other camera (a ``V4L2Camera``) a photo is one of
/// the camera's processed stream frames at the active format's size, with a RAW photo in the camera's
/// ``CaptureDevice/rawPixelFormat`` when the active format is a Bayer format; brackets, multi-frame fusion and Live
/// Photos throw ``CaptureError/unsupported(_:)`` (``maxBracketedCapturePhotoCount`` is 0 and
/// ``isLivePhotoCaptureSupported`` false).
public final class PhotoOutput: SessionOutput {
    struct State {
        var session = WeakReference<CaptureSession>(nil)
        var connections: [Connection] = []
        var isHighResolutionCaptureEnabled = false
        var isLivePhotoCaptureEnabled = false
        var isLivePhotoCaptureSuspended = false
        var isLivePhotoAutoTrimmingEnabled = true
        var isLivePhotoStabilizationEnabled = true
        var maxPhotoQualityPrioritization: QualityPrioritization = .balanced
        var photoSettingsForSceneMonitoring: PhotoSettings?
        var usedIDs = Set<Int64>()
        var isFlashScene = false
        var isStillImageStabilizationScene = false
        var lastMetering: SceneMetering?
        var preparation = PreparationState()
    }

    let state = Mutex(State())
    /// Buffers of delivered photos and previews, and fusion scratch; sized by ``prepare(_:)``.
    public let pool: BufferPool
    /// Exposures are taken one request at a time, in request order.
    let exposureTurnstile = AsyncTurnstile()
    /// Frames in flight (exposed but not yet processed): bounds memory and pool use.
    let frameBudget: AsyncBudget
    let costModel = ProcessingCostModel()
    let flashSceneBroadcaster = Broadcaster<Bool>()
    let stabilizationSceneBroadcaster = Broadcaster<Bool>()
    let inFlight = Atomic<Int>(0)
    /// Renders merged photos through the RAW developer.
    ///
    /// Every capture's pixels are new, so nothing is kept for later renders (a cache would only fill with images that
    /// are never drawn again).
    let renderContext = RenderContext(options: RenderOptions(cacheIntermediates: false))
    /// The last seconds of movie frames, for Live Photos.
    let livePhotoRing = LivePhotoRingBuffer()

    /// The most frames exposed but not yet processed at once (two requests' worth of a quality burst).
    public static let frameBudgetCapacity = 16

    /// Creates an output.
    public init() {
        pool = BufferPool(capacityPerKey: 4)
        frameBudget = AsyncBudget(capacity: Self.frameBudgetCapacity)
    }

    public var connections: [Connection] { state.withLock { $0.connections } }
    public var acceptedMediaTypes: Set<MediaType> { [.video] }

    var session: CaptureSession? { state.withLock { $0.session.object } }
    var camera: (any CaptureDevice)? { connection(for: .video)?.input.camera }

    /// Requests accepted and not yet finished.
    public var pendingCaptureCount: Int { inFlight.load(ordering: .relaxed) }

    // MARK: Capabilities

    /// What the session's camera and configuration offer right now.
    var capabilities: PhotoCapabilities {
        let camera = self.camera
        let session = self.session
        return PhotoCapabilities(
            format: camera?.activeFormat, position: camera?.position ?? .unspecified,
            hasFlash: camera?.hasFlash ?? false, deviceName: camera?.localizedName ?? "the camera",
            developsRAW: camera is any SensorPipelineDevice, deviceRAWFormat: camera?.rawPixelFormat,
            preset: session?.sessionPreset ?? .high, hasMovieFileOutput: session?.movieFileOutput != nil,
            colorSpace: camera?.activeColorSpace ?? .sRGB)
    }

    /// Whether Live Photos can be captured: a photo format (the ``SessionPreset/photo`` preset) and no
    /// ``MovieFileOutput`` in the session.
    public var isLivePhotoCaptureSupported: Bool { capabilities.isLivePhotoCaptureSupported }

    /// Uncompressed processed formats: '420v', '420f' and BGRA.
    public var availablePhotoPixelFormatTypes: [PixelFormat] { capabilities.photoPixelFormats }

    /// Codecs for compressed photos: JPEG.
    public var availablePhotoCodecTypes: [PhotoCodec] { capabilities.photoCodecs }

    /// The video codecs a Live Photo movie can be written in (H.264, HEVC and Motion-JPEG).
    public var availableLivePhotoVideoCodecTypes: [VideoCodec] { VideoCodec.allCases }

    /// Bayer formats for RAW photos: the sensor's 14-bit mosaic with a photo format on a back camera; empty
    /// otherwise (RAW needs the ``SessionPreset/photo`` preset and the rear camera).
    public var availableRawPhotoPixelFormatTypes: [PixelFormat] { capabilities.rawPixelFormats }

    /// Pixel formats for previews: BGRA, RGBA and '420f'.
    public var availablePreviewPhotoPixelFormatTypes: [PixelFormat] { capabilities.previewPixelFormats }

    /// The flash modes the camera supports (`[.off]` without a flash).
    public var supportedFlashModes: [FlashMode] { capabilities.flashModes }

    /// The most photos a bracket may hold (the active format's limit).
    public var maxBracketedCapturePhotoCount: Int { capabilities.maxBracketCount }

    /// The processed photo size with ``PhotoSettings/isHighResolutionPhotoEnabled`` (the format's full size).
    public var highResolutionPhotoDimensions: PixelDimensions { capabilities.highResolutionDimensions }

    /// The processed photo size without high resolution.
    public var standardPhotoDimensions: PixelDimensions { capabilities.standardDimensions }

    /// Whether requests may ask for high-resolution photos (opt in before capturing; default `false`).
    public var isHighResolutionCaptureEnabled: Bool {
        get { state.withLock { $0.isHighResolutionCaptureEnabled } }
        set { state.withLock { $0.isHighResolutionCaptureEnabled = newValue } }
    }

    /// Whether Live Photo requests are accepted (opt in; only when ``isLivePhotoCaptureSupported``).
    public var isLivePhotoCaptureEnabled: Bool { state.withLock { $0.isLivePhotoCaptureEnabled } }

    /// Opts in to (or out of) Live Photo capture.
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` when enabling while ``isLivePhotoCaptureSupported`` is false.
    public func setLivePhotoCaptureEnabled(_ enabled: Bool) throws(CaptureError) {
        if enabled && !isLivePhotoCaptureSupported {
            throw .unsupported("Live Photo capture needs the photo preset and no movie file output in the session")
        }
        state.withLock { $0.isLivePhotoCaptureEnabled = enabled }
        if !enabled { livePhotoRing.removeAll() }
    }

    /// Pauses Live Photo recording (while the app shows something else, say): the ring buffer is emptied, a Live Photo
    /// taken while suspended gets a movie of the one frame after the still, and setting it stops the recording of a
    /// movie in progress there (default `false`).
    public var isLivePhotoCaptureSuspended: Bool {
        get { state.withLock { $0.isLivePhotoCaptureSuspended } }
        set {
            state.withLock { $0.isLivePhotoCaptureSuspended = newValue }
            livePhotoRing.removeAll()
        }
    }

    /// Whether Live Photo movies lose a "shoe shot" — the camera raised before or lowered after the still, detected
    /// from the frames' global motion (LuxFusion's ``LivePhotoAutoTrimmer``); default `true`.
    public var isLivePhotoAutoTrimmingEnabled: Bool {
        get { state.withLock { $0.isLivePhotoAutoTrimmingEnabled } }
        set { state.withLock { $0.isLivePhotoAutoTrimmingEnabled = newValue } }
    }

    /// Whether Live Photo movies are stabilised (LuxFusion's ``LivePhotoStabilizer``: smoothed camera path inside a
    /// slight zoom); default `true`.
    public var isLivePhotoStabilizationEnabled: Bool {
        get { state.withLock { $0.isLivePhotoStabilizationEnabled } }
        set { state.withLock { $0.isLivePhotoStabilizationEnabled = newValue } }
    }

    /// The highest quality prioritisation requests may ask for (default ``QualityPrioritization/balanced``).
    ///
    /// A lower maximum lets the output prepare a lighter pipeline.
    public var maxPhotoQualityPrioritization: QualityPrioritization {
        get { state.withLock { $0.maxPhotoQualityPrioritization } }
        set { state.withLock { $0.maxPhotoQualityPrioritization = newValue } }
    }

    // MARK: SessionOutput

    func attach(to session: CaptureSession?) { state.withLock { $0.session = WeakReference(session) } }

    func setConnections(_ connections: [Connection]) { state.withLock { $0.connections = connections } }

    func sessionDidCommit(_ session: CaptureSession) {
        // A movie file output (or a non-photo preset) disables Live Photo capture.
        if !isLivePhotoCaptureSupported { state.withLock { $0.isLivePhotoCaptureEnabled = false } }
        preparationConfigurationCommitted()
    }

    func sessionRunningChanged(_ session: CaptureSession, running: Bool) {
        if running { preparationSessionStarted() }
    }
}
