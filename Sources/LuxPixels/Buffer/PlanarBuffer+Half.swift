internal import CLuxKernels

extension PlanarBuffer where Sample == Float16 {
    /// Writes `count` floats into row `y` of plane `p` from column `x`, rounded to half precision.
    ///
    /// One pass of the run-time dispatched F16C kernels of `CLuxKernels`.
    ///
    /// - Complexity: O(`count`).
    public func store(plane p: Int, row y: Int, x: Int = 0, from source: UnsafePointer<Float>, count: Int) {
        halfBits(p, y, x, count) { lux_float_to_half(source, $0, count) }
    }

    /// Writes `count` floats times `scale` into row `y` of plane `p` from column 0, in one pass (each product rounded
    /// to `Float` before it is narrowed, as a multiply and a ``store(plane:row:x:from:count:)`` would).
    ///
    /// - Parameter streaming: Whether the stores bypass the cache (for a buffer too large to stay cached until it is
    ///   read).
    /// - Complexity: O(`count`).
    public func store(
        plane p: Int, row y: Int, from source: UnsafePointer<Float>, scaledBy scale: Float, count: Int,
        streaming: Bool
    ) {
        halfBits(p, y, 0, count) { lux_float_to_half_scaled(source, scale, $0, count, streaming ? 1 : 0) }
    }

    /// Reads `count` samples of row `y` of plane `p` from column `x` into floats.
    ///
    /// - Complexity: O(`count`).
    public func load(plane p: Int, row y: Int, x: Int, count: Int, into destination: UnsafeMutablePointer<Float>) {
        halfBits(p, y, x, count) { lux_half_to_float($0, destination, count) }
    }

    /// Reads `count` samples of row `y` from column 0 into floats, alternately from two planes: plane `even` at even
    /// columns and plane `odd` at odd ones (a colour filter array row's two channels), in one pass.
    ///
    /// - Complexity: O(`count`).
    public func loadAlternating(
        even: Int, odd: Int, row y: Int, count: Int, into destination: UnsafeMutablePointer<Float>
    ) {
        halfBits(odd, y, 0, count) { o in
            halfBits(even, y, 0, count) { e in lux_half_alternate_to_float(e, o, destination, count) }
        }
    }

    /// Lends `count` samples of row `y` of plane `p` from column `x` as the IEEE binary16 bit patterns the C kernels
    /// take.
    @inline(__always)
    private func halfBits<R>(_ p: Int, _ y: Int, _ x: Int, _ count: Int, _ body: (UnsafeMutablePointer<UInt16>) -> R)
        -> R
    {
        (row(p, y) + x).withMemoryRebound(to: UInt16.self, capacity: count, body)
    }
}
