/// A planar 32-bit float image: `channels` planes of `width × height`, rows padded to 16 floats (64 bytes).
///
/// The working representation of every fusion kernel: Bayer frames become four half-resolution planes (one per
/// CFA site of the 2×2 quad), RGB frames three full-resolution planes, alignment and weights single planes.
/// Kernels write disjoint rows from several threads through the plane pointers; the value is `@unchecked
/// Sendable` for that reason (the storage is a fixed allocation that never moves while any copy is alive).
struct PlanarImage: @unchecked Sendable {
    final class Storage {
        let base: UnsafeMutablePointer<Float>
        let count: Int
        init(count: Int) {
            self.count = count
            let raw = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * 4, alignment: 64)
            base = raw.bindMemory(to: Float.self, capacity: max(count, 1))
            base.initialize(repeating: 0, count: max(count, 1))
        }
        deinit { base.deallocate() }
    }

    let width: Int
    let height: Int
    let channels: Int
    /// Floats between the starts of consecutive rows.
    let stride: Int
    let storage: Storage

    /// A zero-filled image.
    init(width: Int, height: Int, channels: Int = 1) {
        precondition(width > 0 && height > 0 && channels > 0)
        self.width = width
        self.height = height
        self.channels = channels
        stride = (width + 15) & ~15
        storage = Storage(count: stride * height * channels)
    }

    /// The first float of plane `c`.
    @inline(__always)
    func plane(_ c: Int) -> UnsafeMutablePointer<Float> { storage.base + c * stride * height }

    /// Row `y` of plane `c`.
    @inline(__always)
    func row(_ c: Int, _ y: Int) -> UnsafeMutablePointer<Float> { storage.base + (c * height + y) * stride }

    /// The value at `(x, y)` of plane `c`, with coordinates clamped to the image.
    @inline(__always)
    func clampedValue(_ c: Int, _ x: Int, _ y: Int) -> Float {
        let xx = min(max(x, 0), width - 1)
        let yy = min(max(y, 0), height - 1)
        return row(c, yy)[xx]
    }

    /// Bytes held.
    var byteCount: Int { storage.count * 4 }
}

/// A pointer that may cross into `@Sendable` band closures (the caller guarantees disjoint writes).
struct SendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}
