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

/// `--depth`: the sample type of PNG and TIFF outputs.
enum DepthArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case eight = "8"
    case sixteen = "16"
    case half
    case float

    /// The RGBA pixel format of this depth.
    var pixelFormat: PixelFormat {
        switch self {
        case .eight: .rgba8
        case .sixteen: .rgba16
        case .half: .rgbaHalf
        case .float: .rgbaFloat
        }
    }
}

/// `--format`: an output file format.
enum FileFormatArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case jpg, png, tiff

    init?(argument: String) {
        switch argument.lowercased() {
        case "jpg", "jpeg": self = .jpg
        case "png": self = .png
        case "tif", "tiff": self = .tiff
        default: return nil
        }
    }

    var imageFormat: ImageFormat {
        switch self {
        case .jpg: .jpeg
        case .png: .png
        case .tiff: .tiff
        }
    }
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

/// `--decoder`: which decoder reads DNG files.
enum DecoderArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// LuxCodecs' own DNG decoder (other camera raws always go to LibRaw).
    case lux
    /// LibRaw, like other camera raws.
    case libraw
}
