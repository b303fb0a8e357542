internal import CAVUtil
internal import CLuxMediaShims

/// FFmpeg's status codes and messages, as LuxCodecs reports them.
enum FFmpeg {
    /// AVERROR_EOF.
    static let endOfFile = lux_av_error_eof()
    /// AVERROR(EAGAIN).
    static let tryAgain = lux_av_error_again()
    /// AVERROR_EXIT (an I/O or interrupt callback stopped the call).
    static let exit = lux_av_error_exit()

    /// AVERROR(ENOMEM): an allocation failed or asked for more than ``largestAllocation``.
    static let outOfMemory = lux_av_error_no_memory()
    /// The most FFmpeg may allocate in one piece (80 MiB; see `lux_av_largest_allocation`).
    static let largestAllocation = lux_av_largest_allocation()

    /// Bounds FFmpeg's allocations and routes its log away from standard error (see `lux_av_prepare`); called before
    /// any FFmpeg use.
    static func prepare() { lux_av_prepare() }

    /// Forgets the calling thread's last logged message, so the next ``message(_:)`` reports the next call's.
    static func clearLog() {
        var discard = [CChar](repeating: 0, count: 1)
        lux_av_take_log_message(&discard, 1)
    }

    /// What FFmpeg says about `code`: its description, with the last error FFmpeg logged on this thread.
    static func message(_ code: Int32) -> String {
        if code == outOfMemory {
            // Almost always the allocation bound: a header claiming a count whose table would pass it.
            return "it needed more than the \(largestAllocation >> 20) MiB FFmpeg may allocate at once"
                + " (a table or frame that large, or the memory ran out)"
        }
        var text = [CChar](repeating: 0, count: 256)
        av_strerror(code, &text, text.count)
        var logged = [CChar](repeating: 0, count: 512)
        lux_av_take_log_message(&logged, logged.count)
        let description = cMessage(text)
        return logged[0] == 0 ? description : "\(description): \(cMessage(logged))"
    }

    /// The error for a failed call: FFmpeg's message about `code` for `what` in `file`.
    static func error(_ code: Int32, _ what: String, in file: String, offset: Int = 0) -> CodecError {
        .malformed(what: "\(what) in \(file)", offset: offset, reason: "FFmpeg: \(message(code))")
    }
}

extension FFmpeg {
    /// FFmpeg's version ("5.1.6").
    static var version: String { String(cString: av_version_info()) }
}
