import LuxColor
import LuxPixels
import LuxRender
import Testing

@Suite struct FusionTests {
    static let matrix: [Float] = [0.9, 0.1, 0.05, 0.02, 0.8, 0.1, 0.1, 0.2, 0.7]

    /// Five colour kernels: exposure, matrix, tone, invert, offset.
    static func chain(_ image: Image, intermediates: Bool = false) -> Image {
        let kernels = [
            TestKernels.exposure(1), TestKernels.matrix(matrix), TestKernels.tone, TestKernels.invert,
            TestKernels.offset(0.05),
        ]
        var x = image
        for (i, k) in kernels.enumerated() {
            x = x.applying(k, arguments: "#\(i)")
            if intermediates && i < kernels.count - 1 { x = x.insertingIntermediate(cache: false) }
        }
        return x
    }

    /// The same maths in Double, written independently of the kernels.
    static func reference(_ p: SIMD4<Double>) -> SIMD4<Double> {
        var c = SIMD3(p.x, p.y, p.z) * 2
        let m = matrix.map(Double.init)
        c = SIMD3(
            m[0] * c.x + m[1] * c.y + m[2] * c.z, m[3] * c.x + m[4] * c.y + m[5] * c.z,
            m[6] * c.x + m[7] * c.y + m[8] * c.z)
        c = SIMD3(c.x / (1 + abs(c.x)), c.y / (1 + abs(c.y)), c.z / (1 + abs(c.z)))
        c = 1 - c + 0.05
        return SIMD4(c.x, c.y, c.z, p.w)
    }

    @Test("a chain of 5 colour kernels is one program, one pass, and matches the Double reference")
    func fusedChainIsOnePass() throws {
        let src = TestImages.random(
            width: 300, height: 200, format: .rgbaHalf, colorSpace: .extendedLinearSRGB, seed: 1, randomAlpha: true)
        let image = Self.chain(Image(buffer: src))
        let context = RenderContext(options: RenderOptions(threadCount: 2, tileSize: 128))
        var out = PixelBuffer(width: 300, height: 200, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        let stats = try context.render(image, to: &out)
        #expect(stats.programs == 1)
        #expect(stats.intermediates == 0)
        #expect(stats.programRuns == stats.tiles)
        let text = try context.describe(image, format: .rgbaFloat, colorSpace: .extendedLinearSRGB, detail: .programs)
        let programLines = text.split(separator: "\n").filter { $0.contains("program ") }
        #expect(programLines.count == 1, "\(text)")
        // Alpha conversions between the kernels cancelled: the program is the five kernels over the load.
        #expect(
            programLines.first?.contains(
                "offset[#4](invert[#3](tone[#2](matrix[#1](exposure[#0](load_RGBAh_300x200)))))") == true, "\(text)")

        let srcValues = src.converted(to: .rgbaFloat).components(as: Float.self)
        let outValues = out.components(as: Float.self)
        var worst = 0.0
        for i in 0..<(300 * 200) {
            let p = SIMD4<Double>(
                Double(srcValues[4 * i]), Double(srcValues[4 * i + 1]), Double(srcValues[4 * i + 2]),
                Double(srcValues[4 * i + 3]))
            let e = Self.reference(p)
            for c in 0..<4 { worst = max(worst, abs(Double(outValues[4 * i + c]) - e[c])) }
        }
        #expect(worst < 1e-5, "max error \(worst)")
    }

    @Test("the unfused chain (an intermediate after each kernel) agrees within half precision")
    func unfusedAgrees() throws {
        let src = TestImages.random(
            width: 257, height: 130, format: .rgbaHalf, colorSpace: .extendedLinearSRGB, seed: 2, randomAlpha: true)
        let context = RenderContext(options: RenderOptions(threadCount: 2, tileSize: 64))
        var fused = PixelBuffer(width: 257, height: 130, format: .rgbaFloat)
        var unfused = fused
        let f = try context.render(Self.chain(Image(buffer: src)), to: &fused, colorSpace: .extendedLinearSRGB)
        let u = try context.render(
            Self.chain(Image(buffer: src), intermediates: true), to: &unfused, colorSpace: .extendedLinearSRGB)
        #expect(f.programs == 1)
        #expect(u.programs == 5)
        #expect(u.intermediates > 0)
        let a = fused.components(as: Float.self)
        let b = unfused.components(as: Float.self)
        var worst: Float = 0
        for i in 0..<a.count { worst = max(worst, abs(a[i] - b[i]) / max(1, abs(a[i]))) }
        // Four half-float roundings of values below 4: a few half ULPs (2^-11 relative each).
        #expect(worst < 4 * 0.00098, "max difference \(worst)")
        #expect(worst > 0, "the intermediates must really be stored as half floats")
    }
}
