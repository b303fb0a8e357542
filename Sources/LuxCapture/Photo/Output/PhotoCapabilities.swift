import LuxPixels

/// What a photo output can do with the session's camera and configuration, as one value (so a request is
/// checked against a consistent snapshot).
struct PhotoCapabilities: Sendable {
    var format: DeviceFormat?
    var position: CaptureDevicePosition
    var hasFlash: Bool
    /// The camera's name, for errors.
    var deviceName: String
    /// Whether the output develops the camera's Bayer frames itself (full-resolution stills, brackets, fusion).
    ///
    /// True for a ``SensorPipelineDevice``; otherwise photos are the camera's processed stream frames, one each.
    var developsRAW: Bool
    /// The camera's RAW format on the active format (``CaptureDevice/rawPixelFormat``).
    var deviceRAWFormat: PixelFormat?
    var preset: SessionPreset
    var hasMovieFileOutput: Bool
    var colorSpace: CaptureColorSpace
    var cfaPattern: CFAPattern { deviceRAWFormat?.cfaPattern ?? .rggb }

    var isPhotoFormat: Bool { format?.isPhotoFormat ?? false }

    var isLivePhotoCaptureSupported: Bool {
        guard let f = format else { return false }
        return f.isPhotoFormat && f.supportsLivePhoto && !hasMovieFileOutput
    }

    var photoPixelFormats: [PixelFormat] { format == nil ? [] : [.yCbCr420VideoRange, .yCbCr420FullRange, .bgra8] }
    var photoCodecs: [PhotoCodec] { format == nil ? [] : [.hevc, .jpeg] }
    var previewPixelFormats: [PixelFormat] { format == nil ? [] : [.bgra8, .rgba8, .yCbCr420FullRange] }

    /// A developing camera offers RAW on a rear photo format; any other camera whenever its frames carry RAW.
    var rawPixelFormats: [PixelFormat] {
        guard let raw = deviceRAWFormat, let f = format, f.supportsRAW else { return [] }
        guard developsRAW else { return [raw] }
        return f.isPhotoFormat && position == .back ? [raw] : []
    }

    var flashModes: [FlashMode] { hasFlash ? [.off, .on, .auto] : [.off] }
    var maxBracketCount: Int { developsRAW ? (format?.maxBracketedCapturePhotoCount ?? 0) : 0 }

    var highResolutionDimensions: PixelDimensions {
        guard let f = format else { return .zero }
        return PixelDimensions(width: f.width, height: f.height)
    }

    /// Photo formats deliver 3/4-scale photos without high resolution (as 8 MP on a 12 MP phone); video
    /// formats deliver their frame size.
    var standardDimensions: PixelDimensions {
        guard let f = format else { return .zero }
        guard f.isPhotoFormat else { return PixelDimensions(width: f.width, height: f.height) }
        return PixelDimensions(width: (f.width * 3 / 4) & ~1, height: (f.height * 3 / 4) & ~1)
    }

    /// The size of a Live Photo's movie frames: 1440 pixels wide for 4:3 formats, 1920 for wider ones (1440×1080,
    /// 1920×1080), or the format's own size when it is smaller; the height follows the sensor region's aspect ratio.
    var livePhotoMovieDimensions: PixelDimensions {
        guard let f = format else { return .zero }
        let aspect = f.sensorRegionSize.x / f.sensorRegionSize.y
        let width = min(aspect > 1.5 ? 1920 : 1440, f.width) & ~1
        return PixelDimensions(width: width, height: Int((Double(width) / aspect).rounded()))
    }

    /// RAW photos always have the sensor's full size.
    var rawDimensions: PixelDimensions { highResolutionDimensions }
}
