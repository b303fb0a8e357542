import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File access for the codecs: memory-mapped reads and atomic writes.
enum FileIO {
    /// The contents of a file (memory-mapped when the system allows it; a stream is read up to `limit` bytes).
    static func read(_ url: URL, limit: Int) throws(CodecError) -> Data {
        let file = try FileContents(url, limit: limit)
        guard let base = file.bytes.baseAddress, !file.bytes.isEmpty else { return Data() }
        return Data(
            bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: file.bytes.count,
            deallocator: .custom { _, _ in withExtendedLifetime(file) {} })
    }

    /// Reads at most `length` bytes from the start of a file (for cheap header reads).
    static func readPrefix(_ url: URL, length: Int) throws(CodecError) -> [UInt8] {
        let path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var out = [UInt8](repeating: 0, count: length)
        var got = 0
        while got < length {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, length - got, off_t(got)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            got += n
        }
        out.removeSubrange(got...)
        return out
    }

    /// Writes `bytes` to a temporary file in the destination folder, flushes it and renames it over `url`,
    /// so a failure leaves nothing behind and never replaces the original.
    static func writeAtomically(_ bytes: [UInt8], to url: URL, synchronize: Bool = true) throws(CodecError) {
        let file = try AtomicFile(destination: url)
        try file.append(bytes)
        try file.commit(synchronize: synchronize)
    }
}

/// Runs `body` over the bytes of `data` with a typed error.
@inline(__always)
func withBytes<T>(
    of data: Data, _ body: (UnsafeRawBufferPointer) throws(CodecError) -> T
) throws(CodecError) -> T {
    var result: Result<T, CodecError>!
    data.withUnsafeBytes { raw in
        do throws(CodecError) { result = .success(try body(raw)) } catch { result = .failure(error) }
    }
    return try result.get()
}

/// Runs `body` over the bytes of `array` with a typed error.
@inline(__always)
func withBytes<T>(
    of array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(CodecError) -> T
) throws(CodecError) -> T {
    var result: Result<T, CodecError>!
    array.withUnsafeBytes { raw in
        do throws(CodecError) { result = .success(try body(raw)) } catch { result = .failure(error) }
    }
    return try result.get()
}

/// A file written under a temporary name in its destination folder and renamed into place by ``commit(synchronize:)``;
/// until then the destination is untouched, and a file that is never committed is removed.
final class AtomicFile {
    /// Where the file goes.
    let destination: URL
    private let temporaryPath: String
    private var fd: Int32
    private(set) var size = 0
    /// A fault injected by a test (see ``WriteFault``).
    private let fault: WriteFault?

    /// Creates the temporary file beside `destination`.
    init(destination url: URL) throws(CodecError) {
        guard url.isFileURL else { throw .io(path: url.absoluteString, reason: "only file URLs can be written") }
        destination = url
        let directory = url.deletingLastPathComponent().path
        fault = WriteFault.fault(folder: directory.isEmpty ? "." : directory)
        var template = ((directory.isEmpty ? "." : directory) + "/." + url.lastPathComponent + ".lux-XXXXXX")
            .utf8CString
        if fault == .permissionDenied {
            fd = -1
            errno = EACCES
        } else {
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        }
        guard fd >= 0 else {
            throw .io(
                path: url.path,
                reason: "cannot create a temporary file in \(directory): " + String(cString: strerror(errno)))
        }
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { abandon() }

    /// Appends bytes at the end of the file.
    func append(_ bytes: [UInt8]) throws(CodecError) {
        try write(bytes, at: size)
    }

    /// Writes bytes at `offset` (the file grows as needed).
    func write(_ bytes: [UInt8], at offset: Int) throws(CodecError) {
        try withBytes(of: bytes) { raw throws(CodecError) in try write(raw, at: offset) }
    }

    /// Writes bytes at `offset` (the file grows as needed).
    func write(_ raw: UnsafeRawBufferPointer, at offset: Int) throws(CodecError) {
        guard fd >= 0 else { throw .io(path: destination.path, reason: "the file was already closed") }
        var failure: String?
        var room = Int.max
        switch fault {
        case .diskFull(let limit): room = max(0, limit - offset)
        case .removedMidWrite(let limit) where offset + raw.count >= limit: unlink(temporaryPath)
        default: break
        }
        var written = 0
        while written < raw.count {
            if written >= room {
                failure = String(cString: strerror(ENOSPC))
                break
            }
            let n = pwrite(
                fd, raw.baseAddress! + written, min(raw.count - written, room - written), off_t(offset + written))
            if n < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
                break
            }
            written += n
        }
        if let failure {
            abandon()
            throw .io(path: destination.path, reason: failure)
        }
        size = max(size, offset + raw.count)
    }

    /// Reads `count` bytes at `offset` back from what has been written so far (short at the end of the file).
    func read(at offset: Int, count: Int) throws(CodecError) -> [UInt8] {
        guard fd >= 0 else { throw .io(path: destination.path, reason: "the file was already closed") }
        var out = [UInt8](repeating: 0, count: max(0, min(count, size - offset)))
        var got = 0
        var failure: String?
        out.withUnsafeMutableBytes { raw in
            while got < raw.count {
                let n = pread(fd, raw.baseAddress! + got, raw.count - got, off_t(offset + got))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                if n == 0 { break }
                got += n
            }
        }
        if let failure { throw .io(path: destination.path, reason: failure) }
        out.removeSubrange(got...)
        return out
    }

    /// Gives the file the usual permissions, flushes it (when asked), and renames it over the destination.
    func commit(synchronize: Bool) throws(CodecError) {
        guard fd >= 0 else { throw .io(path: destination.path, reason: "the file was already closed") }
        var failure: String?
        // mkstemp creates 0600; give the file the usual permissions (0666 minus the umask).
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        if synchronize, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        fd = -1
        if failure == nil, rename(temporaryPath, destination.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporaryPath)
            throw .io(path: destination.path, reason: failure)
        }
    }

    /// Closes and removes the temporary file (nothing happens to the destination).
    func abandon() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        unlink(temporaryPath)
    }
}
