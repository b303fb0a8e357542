internal import CAVCodec
internal import CAVFormat
internal import CAVUtil
internal import CLuxMediaShims
import FoundationEssentials

/// FFmpeg's QuickTime/MPEG-4 demuxer over a movie held in memory (the bytes a ``QuickTimeMovie`` mapped).
///
/// Only the 'mov' demuxer is used (no format probing, no external data references), every read is served from
/// memory, and an optional time limit stops a demuxer or decoder that takes too long on a hostile file: reads and
/// FFmpeg's interrupt checks fail once it has passed.
final class MediaInput {
    /// The demuxer.
    let format: UnsafeMutablePointer<AVFormatContext>
    /// The file's name, for messages.
    let name: String
    private let source: Source

    /// The bytes, the read position and the time limit, handed to FFmpeg's callbacks.
    final class Source {
        let data: Data
        var position = 0
        let deadline: ContinuousClock.Instant?
        private(set) var timedOut = false

        init(data: Data, deadline: ContinuousClock.Instant?) {
            self.data = data
            self.deadline = deadline
        }

        /// Whether the time limit has passed (remembered, so the error can say so).
        var isPastDeadline: Bool {
            if !timedOut, let deadline, ContinuousClock.now > deadline { timedOut = true }
            return timedOut
        }
    }

    /// The time limit, if any.
    let timeLimit: Duration?

    /// Opens the demuxer; `appliesEditLists` false reads the tracks' media times as stored (their edit lists not
    /// applied).
    ///
    /// - Throws: ``CodecError/malformed(what:offset:reason:)`` when FFmpeg cannot read the movie's structure.
    ///   ``CodecError/library(name:message:)`` when FFmpeg is not installed.
    init(data: Data, name: String, timeLimit: Duration?, appliesEditLists: Bool = true) throws(CodecError) {
        try FFmpeg.prepare()
        self.name = name
        self.timeLimit = timeLimit
        source = Source(data: data, deadline: timeLimit.map { ContinuousClock.now + $0 })
        let bufferSize: Int32 = 1 << 15
        guard let buffer = av.av_malloc(Int(bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw .io(path: name, reason: "out of memory for FFmpeg's read buffer")
        }
        let opaque = Unmanaged.passUnretained(source).toOpaque()
        var io: UnsafeMutablePointer<AVIOContext>? = av.avio_alloc_context(
            buffer, bufferSize, 0, opaque, Self.read, nil, Self.seek)
        guard io != nil else {
            av.av_free(buffer)
            throw .io(path: name, reason: "out of memory for FFmpeg's reader")
        }
        guard let context = av.avformat_alloc_context() else {
            Self.free(&io)
            throw .io(path: name, reason: "out of memory for FFmpeg's demuxer")
        }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context.pointee.interrupt_callback = AVIOInterruptCB(callback: Self.interrupt, opaque: opaque)
        var options: OpaquePointer?
        _ = av.av_dict_set(&options, "enable_drefs", "0", 0)
        _ = av.av_dict_set(&options, "use_mfra_for", "none", 0)
        if !appliesEditLists { _ = av.av_dict_set(&options, "ignore_editlist", "1", 0) }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        FFmpeg.clearLog()
        let status = av.avformat_open_input(&opened, nil, av.av_find_input_format("mov"), &options)
        av.av_dict_free(&options)
        guard status >= 0, let opened else {
            // avformat_open_input frees the context on failure, but not a custom reader.
            let error = source.timedOut ? Self.timeout(name, timeLimit) : FFmpeg.error(status, "movie", in: name)
            Self.free(&io)
            throw error
        }
        format = opened
    }

    deinit {
        var io: UnsafeMutablePointer<AVIOContext>? = format.pointee.pb
        var context: UnsafeMutablePointer<AVFormatContext>? = format
        av.avformat_close_input(&context)
        Self.free(&io)
    }

    /// The error of a call that failed: the time limit, or what FFmpeg says about `code`.
    func error(_ code: Int32, _ what: String, offset: Int = 0) -> CodecError {
        source.timedOut ? Self.timeout(name, timeLimit) : FFmpeg.error(code, what, in: name, offset: offset)
    }

    /// The streams.
    var streams: [UnsafeMutablePointer<AVStream>] {
        (0..<Int(format.pointee.nb_streams)).compactMap { format.pointee.streams[$0] }
    }

    /// Reads the next packet into `packet`; `false` at the end of the file.
    ///
    /// - Throws: ``CodecError`` when the demuxer fails (damaged sample tables, data past the end, the time limit).
    func read(into packet: UnsafeMutablePointer<AVPacket>) throws(CodecError) -> Bool {
        // A movie held in memory is read by FFmpeg in a few large reads, so the limit is checked per packet too.
        try checkTimeLimit()
        FFmpeg.clearLog()
        let status = av.av_read_frame(format, packet)
        if status == FFmpeg.endOfFile { return false }
        if status < 0 { throw error(status, "movie data") }
        return true
    }

    /// Throws once the time limit has passed.
    ///
    /// - Throws: ``CodecError/limitExceeded(what:value:limit:)`` naming the file.
    func checkTimeLimit() throws(CodecError) {
        if source.isPastDeadline { throw Self.timeout(name, timeLimit) }
    }

    private static func timeout(_ name: String, _ limit: Duration?) -> CodecError {
        let ms = Int((limit ?? .zero) / .milliseconds(1))
        return .limitExceeded(what: "time spent decoding \(name) (milliseconds)", value: ms + 1, limit: ms)
    }

    private static func free(_ io: inout UnsafeMutablePointer<AVIOContext>?) {
        if io != nil { av.av_freep(&io!.pointee.buffer) }
        av.avio_context_free(&io)
    }

    private static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
        opaque, buffer, size in
        let source = Unmanaged<Source>.fromOpaque(opaque!).takeUnretainedValue()
        if source.isPastDeadline { return FFmpeg.exit }
        let count = min(Int(max(size, 0)), source.data.count - source.position)
        guard count > 0, let buffer else { return FFmpeg.endOfFile }
        source.data.withUnsafeBytes { raw in
            buffer.update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + source.position, count: count)
        }
        source.position += count
        return Int32(count)
    }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = {
        opaque, offset, whence in
        let source = Unmanaged<Source>.fromOpaque(opaque!).takeUnretainedValue()
        let size = Int64(source.data.count)
        if whence & AVSEEK_SIZE != 0 { return size }
        let base: Int64 =
            switch whence & ~AVSEEK_FORCE {
            case SEEK_SET: 0
            case SEEK_CUR: Int64(source.position)
            case SEEK_END: size
            default: -1
            }
        guard base >= 0 else { return -1 }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= size else { return -1 }
        source.position = Int(target)
        return target
    }

    private static let interrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
        Unmanaged<Source>.fromOpaque(opaque!).takeUnretainedValue().isPastDeadline ? 1 : 0
    }
}
