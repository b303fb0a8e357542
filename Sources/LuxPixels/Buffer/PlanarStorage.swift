/// The memory of one or more ``PlanarBuffer`` values: 64-byte aligned, freed with the last of them.
///
/// Large allocations (≥ 4 MiB) are anonymous memory maps (``PageMapping``): already zero, and backed by huge pages
/// where the system allows, so that a full-size plane costs a few page faults on first write instead of one every
/// 4 KiB.
final class PlanarStorage {
    let allocation: PageMapping.Allocation
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        allocation = PageMapping.Allocation(byteCount: byteCount)
    }

    var bytes: UnsafeMutableRawPointer { allocation.bytes }

    deinit { allocation.release() }
}
