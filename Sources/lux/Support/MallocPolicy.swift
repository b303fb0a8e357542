import CLuxSystem

/// How the `lux` process asks glibc's allocator to place large blocks.
///
/// By default glibc raises its mmap threshold (up to 32 MiB) each time a mapped block above it is freed; from
/// then on blocks of that size — decoded TIFF strips, strip buffers, a megabyte or two each — come from the heap
/// arenas, which keep freed memory and fragment with timing. A streamed render's peak RSS then varied from 73 to
/// 106 MB between runs of the same command. With a fixed threshold every block of 1 MiB or more is a map of its
/// own, returned to the kernel when freed.
enum MallocPolicy {
    /// Fixes the mmap threshold at 1 MiB (call once, before the work starts).
    static func apply() { _ = lux_set_mmap_threshold(1 << 20) }
}
