internal import CAVUtil
internal import CLuxMediaShims

/// FFmpeg's functions, loaded on first use (each read makes sure the load has run: `pthread_once`'s fast path), so
/// no path can reach a function pointer before the table is filled; they are usable when ``FFmpeg/prepare()`` succeeds.
var av: lux_av_api {
    _ = lux_av_load()
    return lux_av().pointee
}

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

    /// Loads FFmpeg's libraries on first use, bounds their allocations and routes their log away from standard
    /// error (see `lux_av_load`); called before any other FFmpeg use.
    ///
    /// - Throws: ``CodecError/library(name:message:)`` when FFmpeg's libraries (or a function Lux needs) are
    ///   missing: movies cannot be read or written, everything else works.
    static func prepare() throws(CodecError) {
        guard lux_av_load() == 0 else {
            throw .library(
                name: "FFmpeg",
                message: "its libraries could not be loaded (\(String(cString: lux_av_load_failure()))); install"
                    + " FFmpeg 5.1's libavcodec, libavformat, libavutil and libswscale to read or write movies")
        }
    }

    /// Whether FFmpeg's libraries are loaded and ready (loading them if they are not yet).
    static var isAvailable: Bool { lux_av_load() == 0 }

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
        _ = av.av_strerror(code, &text, text.count)
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
    static var version: String {
        guard isAvailable, let version = av.av_version_info() else { return "(not installed)" }
        return String(cString: version)
    }
}
