/// The memory of one or more ``PlanarBuffer`` values: 64-byte aligned, freed with the last of them.
final class PlanarStorage {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        bytes = .allocate(byteCount: max(byteCount, 1), alignment: 64)
    }

    deinit { bytes.deallocate() }
}
