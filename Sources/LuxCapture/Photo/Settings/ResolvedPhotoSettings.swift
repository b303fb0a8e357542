/// What a photo capture will actually do, fixed when the output accepts the request and delivered with every
/// event of it (AVCaptureResolvedPhotoSettings).
public struct ResolvedPhotoSettings: Hashable, Sendable, CustomStringConvertible {
    /// The ``PhotoSettings/uniqueID`` of the request.
    public var uniqueID: Int64
    /// The processed photo's size (``PixelDimensions/zero`` without one).
    public var photoDimensions: PixelDimensions
    /// The RAW photo's size (``PixelDimensions/zero`` without one).
    public var rawPhotoDimensions: PixelDimensions
    /// The preview's size (``PixelDimensions/zero`` without one).
    public var previewDimensions: PixelDimensions
    /// Whether the flash fires (`.auto` resolved against the metered scene; always off in brackets).
    public var isFlashEnabled: Bool
    /// Whether several frames are fused against blur and noise (always off for RAW and brackets).
    public var isStillImageStabilizationEnabled: Bool
    /// How many ``PhotoCaptureEvent/didFinishProcessingPhoto(_:)`` events the request delivers.
    public var expectedPhotoCount: Int
    /// How long the photos take from the start of the request (its pre-capture metering, once earlier requests have
    /// been exposed) to the last delivery, as an honest range from the output's cost model (rates measured on this
    /// machine, refined with every capture).
    ///
    /// For a request made while the output is idle, that is the time from ``PhotoOutput/capturePhoto(_:)`` to
    /// ``PhotoCaptureEvent/didFinishCapture(_:)``.
    public var photoProcessingTimeRange: ClosedRange<Duration>
    /// The quality prioritisation asked for.
    public var qualityPrioritization: QualityPrioritization
    /// The processing the output chose for the level, the format and the scene.
    public var processing: PhotoProcessing
    /// The colour space of processed photos.
    public var colorSpace: CaptureColorSpace
    /// The bracket, if any.
    public var bracket: [BracketedExposure]?
    /// The size of a Live Photo's movie (``PixelDimensions/zero`` without one).
    public var livePhotoMovieDimensions: PixelDimensions
    /// Whether the Live Photo's movie has sound: only when the session has a microphone input.
    public var livePhotoMovieHasAudio = false
    /// Megapixels of the pre-capture metering frame (for the cost model).
    var meteringMegapixels: Double = 0

    public var description: String {
        var parts = ["id \(uniqueID)"]
        if photoDimensions != .zero { parts.append("photo \(photoDimensions)") }
        if rawPhotoDimensions != .zero { parts.append("RAW \(rawPhotoDimensions)") }
        if previewDimensions != .zero { parts.append("preview \(previewDimensions)") }
        if livePhotoMovieDimensions != .zero {
            parts.append(
                "Live Photo movie \(livePhotoMovieDimensions)\(livePhotoMovieHasAudio ? " with sound" : ", no sound")")
        }
        parts.append("flash \(isFlashEnabled ? "on" : "off")")
        parts.append("stabilization \(isStillImageStabilizationEnabled ? "on" : "off")")
        parts.append("\(expectedPhotoCount) photo\(expectedPhotoCount == 1 ? "" : "s")")
        parts.append("\(qualityPrioritization): \(processing)")
        parts.append("\(colorSpace.rawValue)")
        let lo = photoProcessingTimeRange.lowerBound
        let hi = photoProcessingTimeRange.upperBound
        parts.append("expected \(Self.milliseconds(lo))–\(Self.milliseconds(hi)) ms")
        return parts.joined(separator: ", ")
    }

    static func milliseconds(_ d: Duration) -> Int {
        let c = d.components
        return Int(c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000)
    }
}

/// The processing a photo output chose for a request: how many frames, how they are merged, and why.
public struct PhotoProcessing: Hashable, Sendable, CustomStringConvertible {
    /// How frames become a photo.
    public enum Method: String, Hashable, Sendable, Codable, CustomStringConvertible {
        /// One frame, lightly noise-reduced: what you see is what you get.
        case singleFrame
        /// A fast multi-frame merge (whole-pixel alignment).
        case fastMerge
        /// The full burst alignment and merge (sub-pixel alignment, resampling).
        case fullMerge
        /// One frame per bracket item, each developed on its own.
        case bracket

        public var description: String { rawValue }
    }

    /// The method.
    public var method: Method
    /// Frames exposed for each delivered photo (1 for ``Method/singleFrame`` and brackets).
    public var frameCount: Int
    /// Whether the merged image is tone-mapped by exposure fusion (high dynamic range scenes at quality).
    public var usesExposureFusion: Bool
    /// Whether the frames are taken from the video stream (video formats) rather than as separate stills.
    public var usesStreamFrames: Bool
    /// The metered scene brightness as EV at ISO 100 (lower is darker).
    public var sceneEV100: Double
    /// Whether the scene counted as low light when the method was chosen.
    public var isLowLight: Bool
    /// The metered fraction of clipped photosites at the planned exposure.
    public var clippedFraction: Double

    public var description: String {
        var s = "\(method)"
        if frameCount > 1 { s += " ×\(frameCount)" }
        if usesExposureFusion { s += " + exposure fusion" }
        if usesStreamFrames { s += " (stream frames)" }
        s += isLowLight ? ", low light" : ", well lit"
        return s
    }
}
