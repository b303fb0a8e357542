import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File access for the codecs: memory-mapped reads and atomic writes.
enum FileIO {
    /// The contents of a file (memory-mapped when the system allows it).
    static func read(_ url: URL) throws(CodecError) -> Data {
        guard url.isFileURL else { throw .io(path: url.absoluteString, reason: "only file URLs can be read") }
        // Check with POSIX first for a plain-language reason ("No such file or directory").
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: url.path, reason: String(cString: strerror(errno))) }
        var info = stat()
        let statResult = fstat(fd, &info)
        close(fd)
        if statResult == 0, info.st_mode & S_IFMT == S_IFDIR { throw .io(path: url.path, reason: "is a directory") }
        // FoundationEssentials (Swift 6.3) leaks its 4 KiB read buffer when it reads an empty file.
        if statResult == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 { return Data() }
        do {
            return try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw .io(path: url.path, reason: Self.reason(error))
        }
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
        guard url.isFileURL else { throw .io(path: url.absoluteString, reason: "only file URLs can be written") }
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var template = ((directory.isEmpty ? "." : directory) + "/." + name + ".lux-XXXXXX").utf8CString
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw .io(
                path: path,
                reason: "cannot create a temporary file in \(directory): " + String(cString: strerror(errno)))
        }
        let tempPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var failure: String?
        bytes.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                let n = write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                written += n
            }
        }
        if failure == nil {
            // mkstemp creates 0600; give the file the usual permissions (0666 minus the umask).
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
            if synchronize, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        }
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(tempPath, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(tempPath)
            throw .io(path: path, reason: failure)
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let e = error as? CocoaError, let underlying = e.userInfo["NSUnderlyingError"] {
            return "\(underlying)"
        }
        return "\(error)"
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
