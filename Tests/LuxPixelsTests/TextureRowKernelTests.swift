import CLuxKernels
import LuxTestSupport
import Testing

/// The scene renderer's bilinear texture row (`lux_texture_row`, LuxScene's image paint) against its definition
/// written as scalar Swift, on both code paths: the same bits, for minified and magnified textures, segments that
/// leave the texture, and a depth test.
@Suite(.serialized) struct TextureRowKernelTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var count: Int
        var x: Float
        var step: Float
        var texelsPerUnit: Float
        var depth: ClosedRange<Float>?
        var testDescription: String {
            "\(count) pixels, \(step * texelsPerUnit) texels per pixel, depth \(depth != nil)"
        }
    }

    static let width = 517

    static func values(_ count: Int, seed: UInt32, in range: Range<Float>) -> [Float] {
        var random = SplitMix(seed: UInt64(seed))
        return (0..<count).map { _ in range.lowerBound + random.unit() * (range.upperBound - range.lowerBound) }
    }

    @Test(
        "lookups match the scalar definition on both paths",
        arguments: [
            Case(count: 1000, x: -3.1, step: 0.013, texelsPerUnit: 40.3),  // 0.52 texels per pixel, both edges
            Case(count: 999, x: -3.1, step: 0.013, texelsPerUnit: 40.3, depth: 2.5...7.25),
            Case(count: 900, x: 0.1, step: 0.0031, texelsPerUnit: 517, depth: 2.5...7.25),  // 1.6
            Case(count: 300, x: 0, step: 0.004, texelsPerUnit: 517),  // 2.07: gathers
            Case(count: 37, x: 2, step: -0.5, texelsPerUnit: 3.3, depth: 2.5...7.25),  // right to left
        ])
    func matchesReference(_ c: Case) {
        let w = Self.width
        let top = (0..<3).map { Self.values(w, seed: UInt32(10 + $0), in: -0.1..<3) }
        let bottom = (0..<3).map { Self.values(w, seed: UInt32(20 + $0), in: -0.1..<3) }
        let depth = Self.values(w, seed: 99, in: 0..<10)
        let m = Self.values(9, seed: 5, in: -1..<2)
        let fy: Float = 0.37
        let cov = Self.values(c.count, seed: 7, in: 0.5..<1)
        let expected = Self.reference(c, top: top, bottom: bottom, depth: depth, m: m, fy: fy, cov: cov)
        // The texel rows as C sees them: three upper, three lower, then depth.
        let rows = (top + bottom + [depth]).map { row in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: w)
            p.initialize(from: row, count: w)
            return p
        }
        defer { for p in rows { p.deallocate() } }
        KernelPaths.each { portable in
            var coverage = cov
            var (c0, c1, c2) = (cov, cov, cov)
            var source = lux_texture_row_source(
                top: (UnsafePointer(rows[0]), UnsafePointer(rows[1]), UnsafePointer(rows[2])),
                bottom: (UnsafePointer(rows[3]), UnsafePointer(rows[4]), UnsafePointer(rows[5])), fy: fy, width: w,
                depth: c.depth == nil ? nil : UnsafePointer(rows[6]), depth_min: c.depth?.lowerBound ?? 0,
                depth_max: c.depth?.upperBound ?? 0, x: c.x, step: c.step, origin: 0.2,
                texels_per_unit: c.texelsPerUnit,
                matrix: (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]))
            lux_texture_row(&source, c.count, &coverage, &c0, &c1, &c2)
            let out = [coverage, c0, c1, c2]
            #expect(out.map { $0.map(\.bitPattern) } == expected.map { $0.map(\.bitPattern) }, "portable: \(portable)")
        }
    }

    /// Coverage and the three colour rows, as ShapeKernel computed them per pixel in Swift.
    static func reference(
        _ c: Case, top a: [[Float]], bottom b: [[Float]], depth: [Float], m: [Float], fy: Float, cov: [Float]
    ) -> [[Float]] {
        let w = Self.width
        let fw = Float(w)
        var out = [cov] + (0..<3).map { _ in [Float](repeating: 0, count: c.count) }
        for i in 0..<c.count {
            let u = (c.x + Float(i) * c.step - 0.2) * c.texelsPerUnit - 0.5
            let xf = min(max(u, 0), fw - 1)
            var inside = u > -1 && u < fw
            if inside, let range = c.depth { inside = range.contains(depth[Int(xf + 0.5)]) }
            guard inside else {
                for r in 0..<4 { out[r][i] = 0 }
                continue
            }
            let x0 = Int(xf)
            let x1 = min(x0 + 1, w - 1)
            let fx = xf - Float(x0)
            let k = (0..<3).map { p in
                let t = a[p][x0] + (a[p][x1] - a[p][x0]) * fx
                return t + (b[p][x0] + (b[p][x1] - b[p][x0]) * fx - t) * fy
            }
            for r in 0..<3 { out[r + 1][i] = m[3 * r] * k[0] + m[3 * r + 1] * k[1] + m[3 * r + 2] * k[2] }
        }
        return out
    }
}
