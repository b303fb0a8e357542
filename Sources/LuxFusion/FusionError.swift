public import LuxPixels
public import LuxRender

/// Errors thrown by LuxFusion: what was wrong with the frames or settings, and what is allowed.
public enum FusionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operation needs at least `minimum` frames.
    case notEnoughFrames(count: Int, minimum: Int)
    /// Frame `index` differs from frame 0 in size or format.
    case mismatchedFrame(index: Int, expected: String, found: String)
    /// The pixel format cannot be used by this operation.
    case unsupportedFormat(PixelFormat, operation: String, allowed: String)
    /// The frames are too small to align or fuse.
    case imageTooSmall(width: Int, height: Int, minimum: Int)
    /// A noise model, level or exposure value is out of range.
    case invalidParameter(name: String, value: String, allowed: String)
    /// A buffer could not be obtained (pool exhausted, bad size).
    case pixels(PixelError)
    /// Rendering a frame failed.
    case rendering(RenderError)

    public var description: String {
        switch self {
        case .notEnoughFrames(let count, let minimum):
            "\(count) frame\(count == 1 ? "" : "s") given; this operation needs at least \(minimum)"
        case .mismatchedFrame(let index, let expected, let found):
            "frame \(index) is \(found) but frame 0 is \(expected); all frames must have the same size and format"
        case .unsupportedFormat(let format, let operation, let allowed):
            "\(operation) cannot read \(format) pixels; use \(allowed)"
        case .imageTooSmall(let width, let height, let minimum):
            "\(width)×\(height) frames are too small; both sides must be at least \(minimum) pixels"
        case .invalidParameter(let name, let value, let allowed):
            "\(name) = \(value) is out of range; allowed: \(allowed)"
        case .pixels(let error):
            error.description
        case .rendering(let error):
            "rendering a frame failed: \(error)"
        }
    }
}
