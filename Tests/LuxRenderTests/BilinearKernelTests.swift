import CLuxKernels
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxRender

/// The bilinear row kernel (`lux_bilinear_samples`, the affine and warp row operations' sampler) against
/// ``definition(_:_:_:)``, its definition written in Swift, on both code paths: the same floats, bit for bit, and the
/// positions whose pixels leave the region handed back; `Resample.linear`, which samples those, gives the
/// definition's bits at every position.
@Suite(.serialized) struct BilinearKernelTests {
    /// A `width` × `height` region at (`minX`, `minY`) of pseudo-random RGBA floats, rows `stride` floats apart.
    static func region(width: Int, height: Int, stride: Int) -> [Float] {
        var random = SplitMix(seed: 91)
        return (0..<(stride * height)).map { _ in random.unit() * 3 - 1 }
    }

    /// The bilinear sample at `(x, y)`: pixels whose four neighbours lie in the region read from its rows, the others
    /// through `Sampler.pixel` (transparent outside).
    static func definition(_ s: Sampler, _ x: Float, _ y: Float) -> SIMD4<Float> {
        let u = x - 0.5
        let v = y - 0.5
        let fu = min(max(u.rounded(.down), -1e9), 1e9)
        let fv = min(max(v.rounded(.down), -1e9), 1e9)
        let i = Int(fu)
        let j = Int(fv)
        let ax = u - fu
        let ay = v - fv
        let p00: SIMD4<Float>
        let p10: SIMD4<Float>
        let p01: SIMD4<Float>
        let p11: SIMD4<Float>
        let di = i &- s.minX
        let dj = j &- s.minY
        if di >= 0 && di &+ 1 < s.width && dj >= 0 && dj &+ 1 < s.height {
            let p = UnsafeRawPointer(s.base + (dj &* s.rowStride &+ 4 &* di))
            let q = p + 4 &* s.rowStride
            p00 = p.loadUnaligned(as: SIMD4<Float>.self)
            p10 = p.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
            p01 = q.loadUnaligned(as: SIMD4<Float>.self)
            p11 = q.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
        } else {
            p00 = s.pixel(x: i, y: j)
            p10 = s.pixel(x: i + 1, y: j)
            p01 = s.pixel(x: i, y: j + 1)
            p11 = s.pixel(x: i + 1, y: j + 1)
        }
        let top = p00 + (p10 - p00) * ax
        let bottom = p01 + (p11 - p01) * ax
        return top + (bottom - top) * ay
    }

    /// Positions along a slightly rotated and scaled row (as a stabilising warp makes), some exactly on pixel
    /// centres and edges, some beyond each side of the region.
    static func positions(_ n: Int, minX: Int, minY: Int, width: Int, height: Int, row: Int) -> ([Float], [Float]) {
        var xs: [Float] = []
        var ys: [Float] = []
        for i in 0..<n {
            let px = Float(i) + 0.5
            xs.append(1.013 * px - 0.021 * Float(row) + Float(minX) - 2.7)
            ys.append(0.019 * px + 0.987 * Float(row) + Float(minY) - 1.3)
        }
        xs[0] = Float(minX) + 0.5  // the first pixel's centre: the region's first column and the one after
        ys[0] = Float(minY) + 0.5
        xs[1] = Float(minX + width) - 0.5  // the last column's centre needs the column past it: outside
        xs[2] = Float(minX) + 1
        ys[2] = Float(minY + height) - 1.5
        return (xs, ys)
    }

    @Test(
        "samples match the definition on both paths, outside positions left to the caller",
        arguments: [(40, 30, 37, 0, 0), (300, 7, 257, -5, 12), (9, 9, 8, 100, -40)])
    func matchesDefinition(width: Int, height: Int, count: Int, minX: Int, minY: Int) {
        let stride = 4 * width + 12
        let pixels = Self.region(width: width, height: height, stride: stride)
        pixels.withUnsafeBufferPointer { base in
            let sampler = Sampler(
                base: base.baseAddress!, rowStride: stride, minX: minX, minY: minY, width: width, height: height,
                extent: Rect(x: minX, y: minY, width: width, height: height))
            var outsideSeen = 0
            for row in 0..<(height + 4) {
                let (xs, ys) = Self.positions(
                    count, minX: minX, minY: minY, width: width, height: height, row: row - 2)
                let expected = (0..<count).map { Self.definition(sampler, xs[$0], ys[$0]) }
                for i in 0..<count {
                    let swift = Resample.linear(sampler, xs[i], ys[i])
                    #expect(
                        swift.bitPattern == expected[i].bitPattern, "Resample.linear at position \(i) of row \(row)")
                }
                KernelPaths.each { portable in
                    var out = [Float](repeating: .nan, count: 4 * count)
                    var outside = [Int32](repeating: -1, count: count)
                    let missed = lux_bilinear_samples(
                        base.baseAddress!, stride, minX, minY, width, height, xs, ys, count, &out, &outside)
                    let left = Set(outside.prefix(missed).map(Int.init))
                    outsideSeen += left.count
                    for i in 0..<count {
                        let u = Int((xs[i] - 0.5).rounded(.down)) - minX
                        let v = Int((ys[i] - 0.5).rounded(.down)) - minY
                        let inside = u >= 0 && u + 1 < width && v >= 0 && v + 1 < height
                        #expect(left.contains(i) == !inside, "position \(i) of row \(row), portable: \(portable)")
                        guard inside else { continue }
                        let got = SIMD4(out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3])
                        #expect(
                            got.bitPattern == expected[i].bitPattern,
                            "position \(i) of row \(row), portable: \(portable): \(got) ≠ \(expected[i])")
                    }
                }
            }
            #expect(outsideSeen > 0)
        }
    }
}

extension BilinearKernelTests {
    @Test("a position that is infinite or not a number is handed back by the kernel and samples as transparent")
    func nonFinitePositions() {
        let pixels = Self.region(width: 8, height: 8, stride: 32)
        pixels.withUnsafeBufferPointer { base in
            let sampler = Sampler(
                base: base.baseAddress!, rowStride: 32, minX: 0, minY: 0, width: 8, height: 8,
                extent: Rect(x: 0, y: 0, width: 8, height: 8))
            let xs: [Float] = [.nan, 3, .infinity, -.infinity, 4.5]
            let ys: [Float] = [3, .nan, 3, 3, 4.5]
            for i in 0..<4 {
                #expect(Resample.linear(sampler, xs[i], ys[i]) == .zero, "position \(i)")
                #expect(Resample.nearest(sampler, xs[i], ys[i]) == .zero, "position \(i)")
            }
            KernelPaths.each { portable in
                var out = [Float](repeating: 0, count: 4 * xs.count)
                var outside = [Int32](repeating: -1, count: xs.count)
                let missed = lux_bilinear_samples(
                    base.baseAddress!, 32, 0, 0, 8, 8, xs, ys, xs.count, &out, &outside)
                #expect(Array(outside.prefix(missed)) == [0, 1, 2, 3], "portable: \(portable)")
            }
        }
    }
}

extension SIMD4<Float> {
    fileprivate var bitPattern: SIMD4<UInt32> {
        SIMD4<UInt32>(x.bitPattern, y.bitPattern, z.bitPattern, w.bitPattern)
    }
}
