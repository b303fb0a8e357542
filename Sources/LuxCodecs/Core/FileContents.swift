import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of a whole file, read-only: a private memory map of a regular file, or a copy read into memory
/// for anything that cannot be mapped (pipes, character devices).
///
/// Decoders may keep the object alive to lend file bytes to the pixels they return without copying them
/// (uncompressed DNG data, see `DNGReader.borrowedPixels`); the map goes away with the last reference.
final class FileContents: Sendable {
    /// The file's bytes (empty for an empty file).
    nonisolated(unsafe) let bytes: UnsafeRawBufferPointer
    /// How the bytes were obtained, for releasing them.
    private let isMapped: Bool

    /// Maps or reads the file at `url`; a stream that cannot be mapped is read up to `limit` bytes.
    ///
    /// - Throws: ``CodecError/io(path:reason:)`` when the file cannot be opened, is a directory, or cannot be
    ///   read; ``CodecError/limitExceeded(what:value:limit:)`` for a stream longer than `limit` (`/dev/zero`
    ///   never ends).
    init(_ url: URL, limit: Int) throws(CodecError) {
        guard url.isFileURL else { throw .io(path: url.absoluteString, reason: "only file URLs can be read") }
        let path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        if info.st_mode & S_IFMT == S_IFDIR { throw .io(path: path, reason: "is a directory") }
        if info.st_mode & S_IFMT == S_IFREG {
            let length = Int(info.st_size)
            if length == 0 {
                bytes = UnsafeRawBufferPointer(start: nil, count: 0)
                isMapped = false
                return
            }
            if let p = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED {
                bytes = UnsafeRawBufferPointer(start: p, count: length)
                isMapped = true
                return
            }
        }
        bytes = UnsafeRawBufferPointer(try Self.readAll(fd, path: path, limit: limit))
        isMapped = false
    }

    /// Drops the mapped pages that lie wholly inside `range` (byte offsets) from the process's memory.
    ///
    /// A decoder reading the file front to back has no more use for the bytes behind it; releasing them keeps a long
    /// decode from holding the whole file resident. The pages stay in the kernel's page cache and are read back if
    /// touched again. Copied bytes are kept.
    func releasePages(_ range: Range<Int>) {
        guard isMapped, let base = bytes.baseAddress else { return }
        let page = Self.pageSize
        let start = (max(range.lowerBound, 0) + page - 1) / page * page
        let end = min(range.upperBound, bytes.count) / page * page
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
    }

    private static let pageSize = Int(getpagesize())

    /// Reads a descriptor to its end into a new allocation, at most `limit` bytes.
    private static func readAll(_ fd: Int32, path: String, limit: Int) throws(CodecError)
        -> UnsafeMutableRawBufferPointer
    {
        // One byte past the limit is enough to know the input is too long.
        let ceiling = limit < Int.max ? limit + 1 : limit
        var capacity = min(1 << 16, max(1, ceiling))
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        var count = 0
        while true {
            if count > limit {
                buffer.deallocate()
                throw .limitExceeded(what: "\(path) (read into memory, not mapped)", value: count, limit: limit)
            }
            if count == capacity {
                capacity = capacity > ceiling / 2 ? ceiling : 2 * capacity
                let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
                grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                buffer.deallocate()
                buffer = grown
            }
            let n = read(fd, buffer.baseAddress! + count, capacity - count)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                buffer.deallocate()
                throw .io(path: path, reason: reason)
            }
            if n == 0 { break }
            count += n
        }
        return UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
    }

    deinit {
        guard let base = bytes.baseAddress else { return }
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        } else {
            base.deallocate()
        }
    }
}
