public import LuxPixels

/// One mode of a capture device: dimensions, frame rates, pixel format, colour spaces and the ranges of its
/// manual controls (AVCaptureDevice.Format).
///
/// Photo formats (``isPhotoFormat``) deliver preview-resolution stream frames and full-resolution stills,
/// RAW and Live Photos, at up to 30 fps. Video formats stream at their full size, and those with
/// ``supportsHighPhotoQuality`` take photos of better quality without dropping video frames.
public struct DeviceFormat: Hashable, Sendable, CustomStringConvertible {
    /// Width of stills (and of stream frames for video formats), in pixels.
    public var width: Int
    /// Height of stills (and of stream frames for video formats), in pixels.
    public var height: Int
    /// The pixel format of processed stream frames.
    public var pixelFormat: PixelFormat
    /// Supported frame rates in frames per second.
    public var frameRateRange: ClosedRange<Double>
    /// The only rates the device runs at, when it offers a list rather than every rate in ``frameRateRange``
    /// (a V4L2 camera's discrete frame intervals); empty when any rate in the range works.
    public var supportedFrameRates: [Double] = []
    /// The device's own name for the format: a V4L2 camera's four-character pixel-format code ("YUYV", "MJPG",
    /// "NV12", "RG10"); empty for the simulated camera.
    public var mediaSubType: String = ""
    /// A photo format (AVCaptureDevice.Format.isHighestPhotoQualitySupported).
    public var isPhotoFormat: Bool
    /// A video format that can take high-quality photos (isHighPhotoQualitySupported).
    ///
    /// Never true for photo formats.
    public var supportsHighPhotoQuality: Bool
    /// Colour spaces frames can be delivered in ('420v' supports sRGB only).
    public var supportedColorSpaces: [CaptureColorSpace]
    /// The lowest settable ISO.
    public var minISO: Float
    /// The highest settable ISO.
    public var maxISO: Float
    /// The shortest settable exposure.
    public var minExposureDuration: MediaTime
    /// The longest settable exposure.
    public var maxExposureDuration: MediaTime
    /// The largest white-balance gain.
    public var maxWhiteBalanceGain: Float
    /// The exposure target bias range in EV.
    public var exposureTargetBiasRange: ClosedRange<Float>
    /// The most photos one bracket may hold.
    public var maxBracketedCapturePhotoCount: Int
    /// Whether Bayer RAW stills can be captured.
    public var supportsRAW: Bool
    /// Whether Live Photos can be captured.
    public var supportsLivePhoto: Bool
    /// Width of stream frames (photo formats stream at preview resolution).
    public var streamWidth: Int
    /// Height of stream frames.
    public var streamHeight: Int
    /// The part of the 4:3 sensor the format reads, in scene units (frame 1 wide, 0.75 high).
    public var sensorRegionOrigin: SIMD2<Double>
    /// The size of the sensor region the format reads, in scene units.
    public var sensorRegionSize: SIMD2<Double>
    /// Horizontal field of view in degrees.
    public var fieldOfView: Double

    /// The longest frame rate's frame duration (1 / minimum frame rate).
    public var maxFrameDuration: MediaTime { MediaTime(value: 600, timescale: Int32(600 * frameRateRange.lowerBound)) }
    /// The shortest frame duration (1 / maximum frame rate).
    public var minFrameDuration: MediaTime { Self.frameDuration(fps: frameRateRange.upperBound) }

    /// The duration of one frame at `fps` frames per second (exact for integer rates).
    public static func frameDuration(fps: Double) -> MediaTime {
        let r = fps.rounded()
        if abs(fps - r) < 1e-9, r > 0 { return MediaTime(value: 1, timescale: Int32(r)) }
        return MediaTime(seconds: 1 / fps, preferredTimescale: 1_000_000)
    }

    /// Whether the format delivers a colour space.
    public func supports(_ colorSpace: CaptureColorSpace) -> Bool { supportedColorSpaces.contains(colorSpace) }

    public var description: String {
        "\(width)x\(height) @ \(Int(frameRateRange.upperBound)) fps, "
            + (mediaSubType.isEmpty ? pixelFormat.fourCharacterCode : mediaSubType)
            + (isPhotoFormat ? " (photo)" : "") + (supportsHighPhotoQuality ? " (high photo quality)" : "")
    }
}
