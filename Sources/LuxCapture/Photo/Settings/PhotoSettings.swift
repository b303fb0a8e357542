public import FoundationEssentials
public import LuxCodecs
public import LuxPixels
import Synchronization

/// What one photo capture request asks for (AVCapturePhotoSettings and AVCapturePhotoBracketSettings).
///
/// Settings are a value with a ``uniqueID`` drawn from a process-wide 64-bit counter: it is never reused, and a
/// ``PhotoOutput`` captures each ID once — capturing the same settings (or a copy of them) again throws
/// ``CaptureError/settingsReused(uniqueID:)``. Use ``init(from:)`` to start new settings from old ones.
///
/// ```swift
/// var settings = PhotoSettings()                       // JPEG, balanced, flash off
/// settings.flashMode = .auto
/// settings.previewFormat = PreviewFormat(width: 160, height: 160)
/// for try await event in try photoOutput.capturePhoto(settings) { … }
///
/// let raw = PhotoSettings(rawPixelFormat: photoOutput.availableRawPhotoPixelFormatTypes[0], processedFormat: .jpeg)
/// let hdr = PhotoSettings(bracket: [.auto(bias: -2), .auto(bias: 0), .auto(bias: 2)])
/// ```
public struct PhotoSettings: Hashable, Sendable {
    /// The request's identity, unique in the process and never reused.
    public private(set) var uniqueID: Int64
    /// The processed photo's format (`nil`: no processed photo, which needs a ``rawPixelFormat``); default JPEG.
    public var processedFormat: ProcessedPhotoFormat?
    /// The Bayer format of a RAW photo, from ``PhotoOutput/availableRawPhotoPixelFormatTypes`` (`nil`: no RAW).
    public var rawPixelFormat: PixelFormat?
    /// Whether the flash fires.
    ///
    /// Must be one of ``PhotoOutput/supportedFlashModes``. Default off.
    public var flashMode: FlashMode = .off
    /// Whether the processed photo has the format's full (high) resolution; needs
    /// ``PhotoOutput/isHighResolutionCaptureEnabled``.
    ///
    /// Meaningless for RAW, which always has the sensor's size.
    public var isHighResolutionPhotoEnabled = false
    /// Whether the output may fuse several frames to reduce blur and noise in low light (still-image stabilisation);
    /// default on for processed photos, off for RAW — RAW with a stabilised processed photo is not supported.
    public var isAutoStillImageStabilizationEnabled: Bool
    /// How to trade quality for speed (default balanced); at most ``PhotoOutput/maxPhotoQualityPrioritization``.
    public var qualityPrioritization: QualityPrioritization = .balanced
    /// The preview (thumbnail) delivered with each photo; `nil`: none.
    public var previewFormat: PreviewFormat?
    /// An exposure bracket: one photo per item (all ``BracketedExposure/auto(bias:)`` or all
    /// ``BracketedExposure/manual(duration:iso:)``, at most ``PhotoOutput/maxBracketedCapturePhotoCount``).
    ///
    /// `nil`: a single photo.
    public var bracket: [BracketedExposure]?
    /// Whether the lens is stabilised during a bracket.
    public var isLensStabilizationEnabled = false
    /// Where a Live Photo's movie is written (needs ``PhotoOutput/isLivePhotoCaptureEnabled``); `nil`: a still.
    public var livePhotoMovieURL: URL?
    /// Movie-level metadata of the Live Photo's movie.
    public var livePhotoMovieMetadata: [LivePhotoMetadataItem] = []
    /// The Live Photo movie's video codec (AVCapturePhotoSettings.livePhotoVideoCodecType), one of
    /// ``PhotoOutput/availableLivePhotoVideoCodecTypes``; default H.264, as an iPhone 6s–7 records.
    public var livePhotoVideoCodec: VideoCodec = .h264

    /// The last ID handed out.
    private static let lastID = Atomic<Int64>(0)

    static func nextID() -> Int64 { lastID.add(1, ordering: .relaxed).newValue }

    /// Settings for a JPEG photo.
    public init() { self.init(format: .jpeg) }

    /// Settings for a processed photo.
    public init(format: ProcessedPhotoFormat) {
        uniqueID = Self.nextID()
        processedFormat = format
        rawPixelFormat = nil
        isAutoStillImageStabilizationEnabled = true
    }

    /// Settings for a RAW photo, optionally with a processed one ("RAW + JPEG").
    ///
    /// Still-image stabilisation starts off (RAW cannot be stabilised, and RAW + a stabilised processed photo is
    /// not supported); high resolution applies only to the processed photo.
    public init(rawPixelFormat: PixelFormat, processedFormat: ProcessedPhotoFormat? = nil) {
        uniqueID = Self.nextID()
        self.processedFormat = processedFormat
        self.rawPixelFormat = rawPixelFormat
        isAutoStillImageStabilizationEnabled = false
    }

    /// Settings for an exposure bracket of JPEG photos, with RAW photos when `rawPixelFormat` is given.
    public init(bracket: [BracketedExposure], rawPixelFormat: PixelFormat? = nil) {
        self.init(bracket: bracket, processedFormat: .jpeg, rawPixelFormat: rawPixelFormat)
    }

    /// Settings for an exposure bracket of processed photos, RAW photos, or both.
    // No default for `processedFormat`: Swift 6's default-argument thunk for this enum (one byte since PhotoCodec has
    // two cases) returned `nil` in debug builds, so the JPEG default is the overload above (and `init()`).
    public init(
        bracket: [BracketedExposure], processedFormat: ProcessedPhotoFormat?, rawPixelFormat: PixelFormat? = nil
    ) {
        uniqueID = Self.nextID()
        self.processedFormat = processedFormat
        self.rawPixelFormat = rawPixelFormat
        self.bracket = bracket
        isAutoStillImageStabilizationEnabled = false
    }

    /// A copy of `settings` with a new ``uniqueID`` (AVCapturePhotoSettings(from:)).
    public init(from settings: PhotoSettings) {
        self = settings
        self.uniqueID = Self.nextID()
    }

    /// Whether a RAW photo is requested.
    public var wantsRAW: Bool { rawPixelFormat != nil }

    /// Whether a processed photo is requested.
    public var wantsProcessed: Bool { processedFormat != nil }

    /// How many photos the request delivers: one per bracket item (or one), twice for RAW + processed.
    public var expectedPhotoCount: Int { max(bracket?.count ?? 1, 1) * ((wantsRAW ? 1 : 0) + (wantsProcessed ? 1 : 0)) }
}
