#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Large pixel allocations as anonymous memory maps.
///
/// The kernel hands out their pages already zeroed when they are first touched (no memset pass, and no resident
/// memory for pages never written) and, on Linux, backs them by transparent huge pages where allowed, which removes
/// most of the page faults a full-size image would otherwise take on first touch (12 000 for a 12 MP RGBA8
/// buffer). Unmapping returns the memory to the system at once, where a freed heap block may stay in the
/// allocator's arenas.
package enum PageMapping {
    /// Allocations of at least this many bytes are mapped.
    package static let threshold = 4 << 20
    package static let hugePageSize = 2 << 20

    /// A map of at least `byteCount` zeroed bytes: the map's start and length, and `bytes`, its first huge-page
    /// boundary (so the whole buffer can use huge pages); `nil` when mapping is unavailable or fails.
    package static func map(_ byteCount: Int) -> (
        base: UnsafeMutableRawPointer, length: Int, bytes: UnsafeMutableRawPointer
    )? {
        #if os(Linux)
            let length = byteCount + hugePageSize
            let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let p, p != MAP_FAILED else { return nil }
            _ = madvise(p, length, MADV_HUGEPAGE)
            let aligned = (Int(bitPattern: p) + hugePageSize - 1) & ~(hugePageSize - 1)
            return (p, length, UnsafeMutableRawPointer(bitPattern: aligned)!)
        #else
            return nil
        #endif
    }

    /// Returns the pages under `count` bytes from `bytes` (the `bytes` of a map made by ``map(_:)``) to the
    /// system: the map stays valid, reads zeros, and its pages become resident again only as they are written.
    package static func discard(_ bytes: UnsafeMutableRawPointer, count: Int) {
        #if os(Linux)
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            _ = madvise(bytes, (count + page - 1) & ~(page - 1), MADV_DONTNEED)
        #endif
    }

    /// Memory for a buffer: a map (``map(_:)``) when `byteCount` reaches ``threshold`` or `mapsPages` asks for one
    /// (its bytes are then already zero), otherwise a 64-byte-aligned heap block (contents unspecified).
    package struct Allocation {
        /// The buffer's first byte.
        package let bytes: UnsafeMutableRawPointer
        /// The map's start and length, when the memory is mapped.
        package let mapping: (base: UnsafeMutableRawPointer, length: Int)?

        package init(byteCount: Int, mapsPages: Bool = false) {
            if byteCount >= PageMapping.threshold || mapsPages, let m = PageMapping.map(byteCount) {
                bytes = m.bytes
                mapping = (m.base, m.length)
            } else {
                bytes = .allocate(byteCount: max(byteCount, 1), alignment: 64)
                mapping = nil
            }
        }

        /// Whether the memory came from the kernel as zeros (a map).
        package var isMapped: Bool { mapping != nil }

        /// Returns the memory (unmapped or freed).
        package func release() {
            if let mapping {
                PageMapping.unmap(base: mapping.base, length: mapping.length)
            } else {
                bytes.deallocate()
            }
        }
    }

    /// Releases a map made by ``map(_:)``.
    package static func unmap(base: UnsafeMutableRawPointer, length: Int) {
        #if os(Linux)
            munmap(base, length)
        #endif
    }
}
