/// Errors thrown by LuxCodecs.
///
/// Every case says what was wrong and where: the structure (a TIFF tag, a JPEG marker, a PNG chunk, a
/// lossless-JPEG tile) and the byte offset at which reading failed, so a damaged file can be located
/// with a hex dump.
///
/// ```swift
/// do { _ = try ImageFile.read(url: url) }
/// catch let error as CodecError { print("\(url.path): \(error)") }
/// ```
public enum CodecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The data ends before a structure it announces (a truncated file).
    case truncated(what: String, offset: Int)
    /// A structure is present but its contents are invalid.
    case malformed(what: String, offset: Int, reason: String)
    /// The file uses a feature LuxCodecs does not implement.
    case unsupported(what: String, reason: String)
    /// A size, count or allocation exceeds the configured limit (see ``DecodingLimits``).
    case limitExceeded(what: String, value: Int, limit: Int)
    /// The file describes an image but holds no pixel data for it (a stripped or header-only file).
    case missingPixelData(what: String, reason: String)
    /// The bytes are not in a format LuxCodecs reads.
    case unknownFormat(signature: [UInt8])
    /// libjpeg, libpng or zlib reported an error.
    case library(name: String, message: String)
    /// Reading or writing a file failed.
    case io(path: String, reason: String)
    /// An encoder was asked for something it cannot write.
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .truncated(let what, let offset):
            "truncated file: \(what) at byte \(offset) extends past the end of the data"
        case .malformed(let what, let offset, let reason):
            "malformed \(what) at byte \(offset): \(reason)"
        case .unsupported(let what, let reason):
            "unsupported \(what): \(reason)"
        case .limitExceeded(let what, let value, let limit):
            "\(what) of \(value) exceeds the limit of \(limit) (raise DecodingLimits if the file is trusted)"
        case .missingPixelData(let what, let reason):
            "no pixel data for \(what): \(reason)"
        case .unknownFormat(let signature):
            "unknown file format (first bytes "
                + signature.prefix(8).map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
                + "); LuxCodecs reads JPEG, PNG, TIFF, DNG, HEIC, AVIF, WebP, GIF and camera raws"
        case .library(let name, let message):
            "\(name): \(message)"
        case .io(let path, let reason):
            "\(path): \(reason)"
        case .invalidArgument(let message):
            message
        }
    }
}

/// The text of a NUL-terminated C message buffer.
func cMessage(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
}
