internal import CHEIF

extension CodecError {
    /// The error libheif reported for `what`, as a typed error: a security limit becomes
    /// ``CodecError/limitExceeded(what:value:limit:)``, data past the end of the file ``CodecError/truncated(what:offset:)``,
    /// a feature libheif lacks ``CodecError/unsupported(what:reason:)``, and damaged data
    /// ``CodecError/malformed(what:offset:reason:)`` (libheif reports no byte offsets, so `offset` is 0).
    init(_ error: heif_error, what: String, fileSize: Int, limit: Int) {
        let message = error.message.map { String(cString: $0) } ?? "unknown error"
        switch (error.code, error.subcode) {
        case (heif_error_Memory_allocation_error, heif_suberror_Security_limit_exceeded):
            self = .limitExceeded(what: "\(what) (\(message))", value: limit + 1, limit: limit)
        case (heif_error_Invalid_input, heif_suberror_End_of_data):
            self = .truncated(what: "\(what) (\(message))", offset: fileSize)
        case (heif_error_Unsupported_feature, _), (heif_error_Unsupported_filetype, _):
            self = .unsupported(what: what, reason: message)
        case (heif_error_Invalid_input, _), (heif_error_Decoder_plugin_error, _):
            self = .malformed(what: what, offset: 0, reason: message)
        default:
            self = .library(name: "libheif", message: "\(what): \(message)")
        }
    }
}

/// Calls a libheif function returning `heif_error`, throwing it as a ``CodecError``.
func heifCall(
    _ what: @autoclosure () -> String, fileSize: Int = 0, limit: Int = 0, _ body: () -> heif_error
) throws(CodecError) {
    let error = body()
    guard error.code != heif_error_Ok else { return }
    throw CodecError(error, what: what(), fileSize: fileSize, limit: limit)
}
