import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private anonymous memory map for a large pixel allocation, its start aligned to a huge page; unmapped when
/// the last reference goes away (the storage that uses it, or a thread still populating it).
final class AnonymousMapping: Sendable {
    /// The first byte of the usable, huge-page-aligned range.
    nonisolated(unsafe) let start: UnsafeMutableRawPointer
    /// The whole map as returned by `mmap`.
    nonisolated(unsafe) private let base: UnsafeMutableRawPointer
    private let length: Int
    /// Set when the storage no longer needs the memory, so a populating thread stops early.
    private let isAbandoned = Atomic<Bool>(false)

    static let hugePageSize = 2 << 20

    /// Maps `byteCount` zeroed bytes (plus alignment slack), or returns `nil` where that is not possible.
    init?(byteCount: Int) {
        #if os(Linux)
            let length = byteCount + Self.hugePageSize
            guard let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED
            else { return nil }
            _ = madvise(p, length, MADV_HUGEPAGE)
            base = p
            self.length = length
            // Align the start to a huge page so the whole buffer can use them.
            let aligned = (Int(bitPattern: p) + Self.hugePageSize - 1) & ~(Self.hugePageSize - 1)
            start = UnsafeMutableRawPointer(bitPattern: aligned)!
        #else
            return nil
        #endif
    }

    /// Tells a populating thread that the memory is no longer wanted.
    func abandon() { isAbandoned.store(true, ordering: .relaxed) }

    /// Has the kernel back the first `byteCount` bytes with writable pages on a background thread, front to back
    /// in 4 MiB steps (Linux `MADV_POPULATE_WRITE`, 5.14 and later, which leaves the contents alone and is therefore
    /// safe while other threads write; older kernels refuse it and nothing happens). The thread keeps the map
    /// alive and stops once it is abandoned.
    func populateInBackground(byteCount: Int) {
        #if os(Linux)
            DetachedThread.detach { [self] in
                let step = 2 * Self.hugePageSize
                var offset = 0
                while offset < byteCount, !isAbandoned.load(ordering: .relaxed) {
                    guard madvise(start + offset, min(step, byteCount - offset), Self.populateWrite) == 0 else { return }
                    offset += step
                }
            }
        #endif
    }

    /// `MADV_POPULATE_WRITE` from `<sys/mman.h>`.
    private static let populateWrite: Int32 = 23

    deinit {
        #if os(Linux)
            munmap(base, length)
        #endif
    }
}
