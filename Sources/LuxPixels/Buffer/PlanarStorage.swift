/// The memory of one or more ``PlanarBuffer`` values: 64-byte aligned, freed with the last of them.
///
/// Large allocations (≥ 4 MiB) are anonymous memory maps (``PageMapping``): already zero, and backed by huge pages
/// where the system allows, so that a full-size plane costs a few page faults on first write instead of one every
/// 4 KiB.
final class PlanarStorage {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int
    /// Whether the memory is known to hold only zero bytes (fresh from the kernel, not yet handed to a buffer).
    private(set) var isFreshlyZeroed: Bool
    /// The start and length of the memory map, for large allocations.
    private let mapping: (base: UnsafeMutableRawPointer, length: Int)?

    init(byteCount: Int) {
        self.byteCount = byteCount
        if byteCount >= PageMapping.threshold, let m = PageMapping.map(byteCount) {
            mapping = (m.base, m.length)
            bytes = m.bytes
            isFreshlyZeroed = true
        } else {
            mapping = nil
            bytes = .allocate(byteCount: max(byteCount, 1), alignment: 64)
            isFreshlyZeroed = false
        }
    }

    /// Marks the memory as handed to a buffer (which may write it): a later buffer recycling it must clear it.
    func markUsed() { isFreshlyZeroed = false }

    deinit {
        if let mapping {
            PageMapping.unmap(base: mapping.base, length: mapping.length)
        } else {
            bytes.deallocate()
        }
    }
}
