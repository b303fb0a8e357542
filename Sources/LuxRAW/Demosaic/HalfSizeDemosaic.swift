import LuxPixels

/// The draft "half size" reconstruction: each 2×2 quad of the mosaic becomes one pixel (red and blue as sampled, green
/// the mean of the two greens), as `dcraw -h` does.
///
/// A quarter of the pixels, no interpolation; for previews.
enum HalfSizeDemosaic {
    /// Fills `count` pixels of one output row from two mosaic rows that start on a quad boundary.
    @inline(never)
    static func row(
        _ top: UnsafePointer<Float>, _ bottom: UnsafePointer<Float>, count n: Int, pattern: CFAPattern,
        red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>
    ) {
        let q = pattern.quadChannels.map(\.rawValue)
        // Offsets of red, blue and the two greens inside the quad (row-major: 0, 1 top; 2, 3 bottom).
        let ri = q.firstIndex(of: 0)!
        let bi = q.firstIndex(of: 2)!
        let g0 = q.firstIndex(of: 1)!
        let g1 = q.lastIndex(of: 1)!
        func at(_ k: Int) -> (UnsafePointer<Float>, Int) { (k < 2 ? top : bottom, k & 1) }
        let (rp, ro) = at(ri)
        let (bp, bo) = at(bi)
        let (gp0, go0) = at(g0)
        let (gp1, go1) = at(g1)
        for i in 0..<n {
            red[i] = rp[2 * i + ro]
            blue[i] = bp[2 * i + bo]
            green[i] = 0.5 * (gp0[2 * i + go0] + gp1[2 * i + go1])
        }
    }
}
