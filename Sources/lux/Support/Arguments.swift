import ArgumentParser
import Lux

/// `--color-space NAME`: a colour space by short name (srgb, p3, adobe, linear, rec2020, …) or full name.
struct ColorSpaceArgument: ExpressibleByArgument, Sendable {
    var space: ColorSpace

    init?(argument: String) {
        guard let space = ColorSpace.named(argument) else { return nil }
        self.space = space
    }

    init(_ space: ColorSpace) { self.space = space }

    static var allValueStrings: [String] { ColorSpace.shortNames.keys.sorted() }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// `--depth`: the samples of an output file, one flag for every command that writes images: 8 (any format), 10
/// (HEIC), 16 (PNG, TIFF), half or float (TIFF).
enum DepthArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case eight = "8"
    case ten = "10"
    case sixteen = "16"
    case half
    case float

    /// The RGBA pixel format a render produces for this depth (10-bit HEIC samples come from 16-bit pixels).
    var pixelFormat: PixelFormat {
        switch self {
        case .eight: .rgba8
        case .ten, .sixteen: .rgba16
        case .half: .rgbaHalf
        case .float: .rgbaFloat
        }
    }

    /// The depths `format` stores.
    static func allowed(in format: ImageFormat) -> [DepthArgument] {
        switch format {
        case .jpeg: [.eight]
        case .heic: [.eight, .ten]
        case .png: [.eight, .sixteen]
        case .tiff, .dng: [.eight, .sixteen, .half, .float]
        case .webp, .avif, .gif: [.eight]
        case .cameraRaw: []
        }
    }

    /// Throws unless `format` stores this depth, naming the depths it does.
    func check(for format: ImageFormat) throws {
        let allowed = Self.allowed(in: format)
        guard allowed.contains(self) else {
            throw ValidationError(
                "\(format) stores --depth \(allowed.map(\.rawValue).joined(separator: ", ")), not \(rawValue)")
        }
    }
}

/// The pixels a command renders for an output file and the samples the file stores, from `--depth` and the
/// input's channels.
struct OutputSamples {
    /// The rendered pixel format.
    var pixelFormat: PixelFormat
    /// The format the encoder is told the bands have: ``pixelFormat``, or its gray counterpart when a gray input
    /// stays gray (the encoder then writes one channel and a gray profile).
    var encodedFormat: PixelFormat
    /// The file's sample type.
    var sampleType: SampleType
    /// Whether alpha is written: not for an opaque input (an opaque input gives an opaque file).
    var alpha: AlphaPolicy

    /// The samples for `format`: `depth` when given (checked against the format), otherwise 8 bits, or the
    /// format's deeper samples (16, or 10 for HEIC) when `deep` says the input is deeper than 8 bits; one gray
    /// channel when `gray` (the output space is gray) and no alpha when `opaque`.
    init(format: ImageFormat, depth: DepthArgument?, deep: Bool, gray: Bool = false, opaque: Bool = true) throws {
        let chosen = try depth.map { d in
            try d.check(for: format)
            return d
        }
        let resolved = chosen ?? (deep && format != .jpeg ? (format == .heic ? .ten : .sixteen) : .eight)
        pixelFormat = resolved.pixelFormat
        switch resolved {
        case .eight: sampleType = .uint8
        case .ten: sampleType = .uint10
        case .sixteen: sampleType = .uint16
        case .half: sampleType = .float16
        case .float: sampleType = .float32
        }
        let grayFormats: [PixelFormat: PixelFormat] = [.rgba8: .gray8, .rgba16: .gray16, .rgbaFloat: .grayFloat]
        encodedFormat = gray && format != .heic ? grayFormats[pixelFormat] ?? pixelFormat : pixelFormat
        alpha = opaque ? .discard : .automatic
    }
}

/// `--format`: an output file format.
enum FileFormatArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case jpg, png, tiff, heic, webp, avif, gif

    init?(argument: String) {
        switch argument.lowercased() {
        case "jpg", "jpeg": self = .jpg
        case "png": self = .png
        case "tif", "tiff": self = .tiff
        case "heic", "heif", "hif": self = .heic
        case "webp": self = .webp
        case "avif": self = .avif
        case "gif": self = .gif
        default: return nil
        }
    }

    var imageFormat: ImageFormat {
        switch self {
        case .jpg: .jpeg
        case .png: .png
        case .tiff: .tiff
        case .heic: .heic
        case .webp: .webp
        case .avif: .avif
        case .gif: .gif
        }
    }
}

/// `--size WxH` (or `N` for N x N): a box the output must fit inside (its aspect ratio is kept; it is never enlarged).
struct SizeArgument: ExpressibleByArgument, Sendable, Equatable {
    var width: Int
    var height: Int

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        // One number N is the square box N x N.
        guard parts.count == 1 || parts.count == 2, let w = Int(parts[0]), let h = Int(parts[parts.count - 1]),
            w > 0, h > 0
        else { return nil }
        (width, height) = (w, h)
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}

/// Checks a JPEG `--quality`.
func validateQuality(_ quality: Int) throws {
    guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1…100, not \(quality)") }
}

/// Checks `--threads` / `--jobs` counts.
func validatePositive(_ value: Int?, _ flag: String) throws {
    if let value, value < 1 { throw ValidationError("\(flag) must be at least 1, not \(value)") }
}

/// `--method`: a demosaicing method (rcd, bilinear).
struct DemosaicMethodArgument: ExpressibleByArgument, Sendable {
    var method: DemosaicMethod

    init(_ method: DemosaicMethod) { self.method = method }

    init?(argument: String) {
        guard let method = DemosaicMethod(rawValue: argument.lowercased()) else { return nil }
        self.method = method
    }

    var defaultValueDescription: String { method.rawValue }
    static var allValueStrings: [String] { DemosaicMethod.allCases.map(\.rawValue) }
}

/// `--codec`: a movie's video codec.
enum VideoCodecArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case h264, hevc, mjpeg

    /// The codec.
    var codec: VideoCodec {
        switch self {
        case .h264: .h264
        case .hevc: .hevc
        case .mjpeg: .motionJPEG
        }
    }
}

/// `--preset`: the H.264/HEVC encoder's speed preset (ultrafast … veryslow).
struct VideoPresetArgument: ExpressibleByArgument, Sendable {
    var preset: VideoCompression.Preset

    init(_ preset: VideoCompression.Preset) { self.preset = preset }

    init?(argument: String) {
        guard let preset = VideoCompression.Preset(rawValue: argument.lowercased()) else { return nil }
        self.preset = preset
    }

    var defaultValueDescription: String { preset.rawValue }
    static var allValueStrings: [String] { VideoCompression.Preset.allCases.map(\.rawValue) }
}

/// `--decoder`: which decoder reads DNG files.
enum DecoderArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// LuxCodecs' own DNG decoder (other camera raws always go to LibRaw).
    case lux
    /// LibRaw, like other camera raws.
    case libraw
}

/// `--intent`: the rendering intent of conversions through CMYK and LUT-based ICC profiles.
enum IntentArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case perceptual, relative, saturation, absolute

    /// The intent LuxColor uses.
    var intent: RenderingIntent { RenderingIntent(rawValue: rawValue) ?? .relativeColorimetric }
}
