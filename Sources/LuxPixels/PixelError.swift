/// Errors thrown by LuxPixels.
public enum PixelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A buffer pool has handed out all of its buffers.
    case poolExhausted(format: PixelFormat, width: Int, height: Int, capacity: Int)
    /// The requested dimensions are not allowed (zero, negative, or beyond a limit).
    case invalidDimensions(width: Int, height: Int, reason: String)
    /// A conversion between two formats is not defined.
    case unsupportedConversion(from: PixelFormat, to: PixelFormat, reason: String)
    /// A region lies outside the buffer.
    case regionOutOfBounds(x: Int, y: Int, width: Int, height: Int, bufferWidth: Int, bufferHeight: Int)
    /// The buffer has no colour space, or one that cannot be used.
    case colorSpace(String)

    public var description: String {
        switch self {
        case .poolExhausted(let format, let width, let height, let capacity):
            "buffer pool for \(format) \(width)×\(height) is exhausted: all \(capacity) buffers are in use"
        case .invalidDimensions(let width, let height, let reason):
            "invalid dimensions \(width)×\(height): \(reason)"
        case .unsupportedConversion(let from, let to, let reason):
            "cannot convert pixels from \(from) to \(to): \(reason)"
        case .regionOutOfBounds(let x, let y, let width, let height, let bw, let bh):
            "region (\(x), \(y)) \(width)×\(height) lies outside the \(bw)×\(bh) buffer"
        case .colorSpace(let message):
            message
        }
    }
}
