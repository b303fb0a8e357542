public import LuxPixels

/// Why a render or a filter graph could not be evaluated.
public enum RenderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The image has an infinite extent and no bounds were given.
    case infiniteExtent
    /// The requested bounds cannot be rendered.
    case invalidBounds(Rect, reason: String)
    /// The destination buffer's size differs from the bounds.
    case sizeMismatch(bounds: Rect, width: Int, height: Int)
    /// A format cannot be used where it was given.
    case unsupportedFormat(PixelFormat, reason: String)
    /// A kernel or processor asked for an unbounded region of an input with infinite extent.
    case unboundedRegion(String)
    /// A colour match is undefined.
    case colorSpace(String)
    /// An image processor threw.
    case processorFailed(String, reason: String)
    /// The options are invalid.
    case invalidOptions(String)
    /// The task rendering was cancelled (checked between tiles).
    case cancelled

    public var description: String {
        switch self {
        case .infiniteExtent:
            "cannot render an image of infinite extent without bounds; crop it or pass bounds"
        case .invalidBounds(let r, let reason):
            "cannot render bounds \(r): \(reason)"
        case .sizeMismatch(let b, let w, let h):
            "the destination is \(w)×\(h) but the bounds \(b) are \(Int(b.width))×\(Int(b.height))"
        case .unsupportedFormat(let f, let reason):
            "format \(f) is not supported here: \(reason)"
        case .unboundedRegion(let what):
            "\(what) asked for an unbounded region of an infinite input; give its ROI callback a finite answer"
        case .colorSpace(let m):
            "colour management failed: \(m)"
        case .processorFailed(let name, let reason):
            "image processor \(name) failed: \(reason)"
        case .invalidOptions(let m):
            "invalid render options: \(m)"
        case .cancelled:
            "the render was cancelled"
        }
    }
}
