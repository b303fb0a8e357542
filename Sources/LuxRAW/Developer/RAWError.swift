public import LuxCodecs
public import LuxColor
public import LuxRender

/// Errors thrown by LuxRAW.
///
/// Each says what was wrong and what is accepted.
public enum RAWError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be decoded (see the codec error).
    case decoding(CodecError)
    /// The file is an image but not a raw image.
    case notRaw(String)
    /// The raw data uses a layout the developer does not handle.
    case unsupported(String)
    /// The file describes a raw image but holds no (or too little) sensor data for it.
    case noPixelData(String)
    /// The file has no usable colour calibration (ColorMatrix1).
    case missingColorCalibration(String)
    /// A parameter is outside its documented range.
    case invalidParameter(name: String, value: Double, allowed: ClosedRange<Double>)
    /// A colour computation failed (singular matrix, impossible white).
    case color(ColorError)
    /// Rendering a stage failed (see the render error).
    case rendering(RenderError)

    /// What went wrong, in a sentence that names the parameter or the file structure.
    public var description: String {
        switch self {
        case .decoding(let e): "cannot decode the raw file: \(e)"
        case .notRaw(let what): "\(what) is not a raw image (DNG or TIFF/EP raw expected)"
        case .unsupported(let what): "unsupported \(what)"
        case .noPixelData(let why): "no raw sensor data to develop: \(why)"
        case .missingColorCalibration(let why): "no colour calibration: \(why)"
        case .invalidParameter(let name, let value, let allowed):
            "\(name) \(value) is outside \(allowed.lowerBound)…\(allowed.upperBound)"
        case .color(let e): "colour conversion failed: \(e)"
        case .rendering(let e): "rendering failed: \(e)"
        }
    }
}
