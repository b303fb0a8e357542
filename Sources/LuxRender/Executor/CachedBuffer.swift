/// Memory for a cached intermediate.
final class CachedBuffer: @unchecked Sendable {
    // @unchecked: written once by the worker that materialises it, then only read.
    let pointer: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        pointer = .allocate(byteCount: max(byteCount, 1), alignment: 64)
    }

    deinit { pointer.deallocate() }
}
