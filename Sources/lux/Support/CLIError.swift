import Lux

/// An error message printed without a stack trace (`Error: …` on standard error, exit status 1).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }

    /// `error` about `file`, unless the error already names the path (I/O errors do).
    init(_ error: any Error, file: String) {
        if let codec = error as? CodecError, case .io = codec {
            description = codec.description
        } else {
            let text = "\(error)"
            description = text.contains(file) ? text : "\(file): \(text)"
        }
    }
}
