import Testing

@testable import LuxPixels

/// The planar buffer's layout and its half-float rows, against hand-computed offsets and Swift's own `Float16`.
@Suite struct PlanarBufferTests {
    @Test("Rows start on 64-byte lines, planes follow each other, and a new buffer is zero")
    func layout() {
        let floats = PlanarBuffer<Float>(width: 17, height: 5, planes: 3)
        // 17 floats are 68 bytes: two 64-byte lines, 32 floats.
        #expect(floats.rowStride == 32)
        #expect(floats.byteCount == 32 * 5 * 3 * 4)
        #expect(floats.row(2, 4) == floats.plane(0) + (2 * 5 + 4) * 32)
        #expect(floats.plane(1) == floats.row(0, 4) + 32)
        for p in 0..<3 {
            for y in 0..<5 {
                #expect(Int(bitPattern: floats.row(p, y)) % 64 == 0)
                #expect((0..<32).allSatisfy { floats.row(p, y)[$0] == 0 })
            }
        }
        // 17 halves are 34 bytes: one line, 32 halves.
        let halves = PlanarBuffer<Float16>(width: 17, height: 2)
        #expect(halves.rowStride == 32)
        #expect(Int(bitPattern: halves.row(0, 1)) % 64 == 0)
    }

    @Test("A large buffer (a page map) is zero when new, and again when it reuses a written buffer's memory")
    func largeBuffersAreZero() {
        // 1100 × 1000 floats, 4.5 MB: above the page-map threshold.
        let first = PlanarBuffer<Float>(width: 1100, height: 1000, planes: 1, zeroed: true)
        #expect(first.byteCount >= 4 << 20)
        #expect((0..<1000).allSatisfy { y in (0..<1100).allSatisfy { first.row(0, y)[$0] == 0 } })
        for y in 0..<1000 { for x in 0..<1100 { first.row(0, y)[x] = Float(x + y) + 1 } }
        let second = PlanarBuffer<Float>(width: 1000, height: 1100, planes: 1, zeroed: true, recycling: first)
        #expect(second.plane(0) == first.plane(0))
        #expect((0..<1100).allSatisfy { y in (0..<1000).allSatisfy { second.row(0, y)[$0] == 0 } })
    }

    @Test("Copies share their samples")
    func referenceSemantics() {
        let a = PlanarBuffer<Float>(width: 4, height: 4, planes: 2)
        let b = a
        b.row(1, 3)[2] = 7
        #expect(a.row(1, 3)[2] == 7)
    }

    @Test("Half rows store and load as Swift's Float16 rounds and widens")
    func halfRows() {
        let n = 203
        // Values across the half range, halfway cases included (1 + 2⁻¹¹ is a tie between two halves).
        let values: [Float] = (0..<n).map { i in
            let sign: Float = i % 3 == 0 ? -1 : 1
            return sign * (Float(i) * 37.25 + 1 + 0x1p-11) / Float(1 << (i % 20))
        }
        let image = PlanarBuffer<Float16>(width: n, height: 3, planes: 2)
        values.withUnsafeBufferPointer { image.store(plane: 1, row: 2, from: $0.baseAddress!, count: n) }
        #expect((0..<n).allSatisfy { image.row(1, 2)[$0].bitPattern == Float16(values[$0]).bitPattern })
        #expect((0..<n).allSatisfy { image.row(1, 1)[$0] == 0 && image.row(0, 2)[$0] == 0 })

        var back = [Float](repeating: .nan, count: n - 3)
        back.withUnsafeMutableBufferPointer { image.load(plane: 1, row: 2, x: 3, count: n - 3, into: $0.baseAddress!) }
        #expect((0..<(n - 3)).allSatisfy { back[$0] == Float(Float16(values[$0 + 3])) })

        // Scaled: each product is rounded to Float first.
        values.withUnsafeBufferPointer {
            image.store(plane: 0, row: 0, from: $0.baseAddress!, scaledBy: 0.3, count: n, streaming: false)
        }
        #expect((0..<n).allSatisfy { image.row(0, 0)[$0].bitPattern == Float16(values[$0] * 0.3).bitPattern })

        // Alternating: plane 0 at even columns, plane 1 at odd ones.
        var mixed = [Float](repeating: .nan, count: n)
        values.withUnsafeBufferPointer { image.store(plane: 1, row: 0, from: $0.baseAddress!, count: n) }
        mixed.withUnsafeMutableBufferPointer {
            image.loadAlternating(even: 0, odd: 1, row: 0, count: n, into: $0.baseAddress!)
        }
        #expect(
            (0..<n).allSatisfy { x in
                mixed[x] == Float(Float16(x % 2 == 0 ? values[x] * 0.3 : values[x]))
            })
    }
}
