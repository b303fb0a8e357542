internal import CLuxKernels

/// A planar half-float image: `planeCount` planes of `width × height` IEEE binary16 values, rows contiguous.
///
/// Half the memory of ``PlanarImage`` for data that is kept between frames (radiance caches), where 11 significant bits
/// are far below the photon noise the values will carry.
///
/// Rows are converted to and from `Float` with the run-time dispatched F16C kernels of `CLuxKernels`.
package final class HalfPlanarImage: @unchecked Sendable {
    // @unchecked: a plain allocation written by row-band workers on disjoint rows, read-only afterwards.
    package let width: Int
    package let height: Int
    package let planeCount: Int
    let base: UnsafeMutablePointer<UInt16>
    private let storage: Storage

    /// An allocation, handed on from an image no longer used to a new one of at most its size (a fresh
    /// allocation of tens of megabytes costs a page fault every 4 KiB on first write).
    final class Storage {
        let base: UnsafeMutablePointer<UInt16>
        let capacity: Int
        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }
        deinit { base.deallocate() }
    }

    /// Creates an image; its values are zero, or undefined until written when `zeroed` is false (for images whose every
    /// row is about to be stored).
    ///
    /// With `recycling`, an image nobody else uses any more, its memory is reused when it is large enough.
    package init(width: Int, height: Int, planes: Int, zeroed: Bool = true, recycling: HalfPlanarImage? = nil) {
        precondition(width > 0 && height > 0 && planes > 0, "a planar image needs a positive size")
        self.width = width
        self.height = height
        self.planeCount = planes
        let count = width * height * planes
        if let old = recycling, old.storage.capacity >= count, old.storage.capacity <= 2 * count {
            storage = old.storage
        } else {
            // 3 % to spare, so the next image of about the same size (a view a few pixels larger) fits.
            storage = Storage(capacity: count + count / 32)
        }
        base = storage.base
        if zeroed { base.initialize(repeating: 0, count: count) }
    }

    /// Bytes of pixel storage.
    package var byteCount: Int { width * height * planeCount * 2 }

    @inline(__always)
    func row(_ p: Int, _ y: Int) -> UnsafeMutablePointer<UInt16> { base + (p * height + y) * width }

    /// Writes `count` floats into plane `p`, row `y`, from column `x`.
    func store(plane p: Int, row y: Int, x: Int = 0, from src: UnsafePointer<Float>, count: Int) {
        lux_float_to_half(src, row(p, y) + x, count)
    }

    /// Writes `count` floats times `scale` into plane `p`, row `y`, from column 0, in one pass (each product rounded to
    /// `Float` before it is narrowed, as a multiply and a ``store(plane:row:x:from:count:)`` would).
    ///
    /// `streaming` stores bypass the cache: for an image too large to stay cached until it is read.
    func store(
        plane p: Int, row y: Int, from src: UnsafePointer<Float>, scaledBy scale: Float, count: Int, streaming: Bool
    ) {
        lux_float_to_half_scaled(src, scale, row(p, y), count, streaming ? 1 : 0)
    }

    /// Reads `count` values of row `y` from column 0 into floats, alternately from two planes: plane `even` at
    /// even columns and plane `odd` at odd ones (a CFA row's two channels), in one pass.
    func loadAlternating(even: Int, odd: Int, row y: Int, count: Int, into dst: UnsafeMutablePointer<Float>) {
        lux_half_alternate_to_float(row(even, y), row(odd, y), dst, count)
    }

    /// Reads `count` values of plane `p`, row `y`, from column `x`, into floats.
    func load(plane p: Int, row y: Int, x: Int, count: Int, into dst: UnsafeMutablePointer<Float>) {
        lux_half_to_float(row(p, y) + x, dst, count)
    }
}
