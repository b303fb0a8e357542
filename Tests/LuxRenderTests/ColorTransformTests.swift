import LuxColor
import LuxPixels
import LuxRender
import Testing

/// ``ColorTransform`` kernels: run by the engine's matrix row kernel and composed when adjacent.
@Suite struct ColorTransformTests {
    static let sepia: [Float] = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]
    static let transforms = [
        ColorTransform.scale(1.5),
        ColorTransform(matrix: sepia, bias: [0.02, 0.01, -0.01]),
        ColorTransform(
            matrix: [1.1, -0.05, -0.05, -0.05, 1.1, -0.05, -0.05, -0.05, 1.1], alphaColumn: [0.1, 0, -0.05]),
        ColorTransform.scale(0.75),
    ]

    static func chain(_ image: Image, intermediates: Bool = false) -> Image {
        var x = image
        for (i, t) in transforms.enumerated() {
            x = x.applying(ColorKernel(name: "t", transform: t), arguments: "#\(i)")
            if intermediates && i < transforms.count - 1 { x = x.insertingIntermediate(cache: false) }
        }
        return x
    }

    /// The chain on straight colour in Double, one transform after another (the definition, not the composition).
    static func reference(_ p: SIMD4<Double>) -> SIMD4<Double> {
        var c = SIMD3(p.x, p.y, p.z)
        for t in transforms {
            let m = t.matrix.map(Double.init)
            let k = SIMD3<Double>(t.alphaColumn) * p.w + SIMD3<Double>(t.bias)
            c =
                SIMD3(
                    m[0] * c.x + m[1] * c.y + m[2] * c.z, m[3] * c.x + m[4] * c.y + m[5] * c.z,
                    m[6] * c.x + m[7] * c.y + m[8] * c.z) + k
        }
        return SIMD4(c.x, c.y, c.z, p.w)
    }

    @Test("adjacent transforms compose into one kernel whose output matches the chain computed in Double")
    func composedChainMatchesDefinition() throws {
        let src = TestImages.random(
            width: 203, height: 61, format: .rgbaHalf, colorSpace: .extendedLinearSRGB, seed: 5, randomAlpha: true)
        let image = Self.chain(Image(buffer: src))
        let context = RenderContext(options: RenderOptions(threadCount: 2, tileSize: 64))
        let text = try context.describe(image, format: .rgbaFloat, colorSpace: .extendedLinearSRGB, detail: .programs)
        let program = text.split(separator: "\n").filter { $0.contains("program ") }
        #expect(program.count == 1, "\(text)")
        #expect(program.first?.contains("t[#3]∘t[#2]∘t[#1]∘t[#0](") == true, "\(text)")
        var out = PixelBuffer(width: 203, height: 61, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        try context.render(image, to: &out)
        let s = src.converted(to: .rgbaFloat).components(as: Float.self)
        let o = out.components(as: Float.self)
        var worst = 0.0
        for i in 0..<(203 * 61) where s[4 * i + 3] > 0.05 {
            let p = SIMD4<Double>(Double(s[4 * i]), Double(s[4 * i + 1]), Double(s[4 * i + 2]), Double(s[4 * i + 3]))
            let e = Self.reference(p)
            for c in 0..<4 { worst = max(worst, abs(Double(o[4 * i + c]) - e[c])) }
        }
        // Premultiplying, unpremultiplying and the Float coefficients: a few float ulps relative to alpha.
        #expect(worst < 2e-5, "max error \(worst)")
    }

    @Test(
        "composed (one pass) and unfused (intermediates) agree within half precision; 1 and 3 threads, any tile, agree bit for bit"
    )
    func deterministicAndCloseToUnfused() throws {
        let src = TestImages.random(
            width: 257, height: 90, format: .rgbaHalf, colorSpace: .extendedLinearSRGB, seed: 6, randomAlpha: true)
        func render(_ image: Image, threads: Int, tile: Int) throws -> [Float] {
            let context = RenderContext(options: RenderOptions(threadCount: threads, tileSize: tile))
            var out = PixelBuffer(width: 257, height: 90, format: .rgbaFloat)
            try context.render(image, to: &out, colorSpace: .extendedLinearSRGB)
            return out.components(as: Float.self)
        }
        let fused = try render(Self.chain(Image(buffer: src)), threads: 1, tile: 512)
        let other = try render(Self.chain(Image(buffer: src)), threads: 3, tile: 48)
        #expect(fused.map(\.bitPattern) == other.map(\.bitPattern))
        let unfused = try render(Self.chain(Image(buffer: src), intermediates: true), threads: 2, tile: 64)
        var worst: Float = 0
        for i in fused.indices { worst = max(worst, abs(fused[i] - unfused[i]) / max(1, abs(fused[i]))) }
        // Each of the three stored intermediates rounds to half precision (2^-11 relative).
        #expect(worst < 4 * 0x1p-11, "max difference \(worst)")
    }

    @Test(
        "half to half (one row loop) stores the float render's values rounded to half (Swift's Float16), for opaque, translucent, clear and cropped images"
    )
    func halfRowsMatchFloatRender() throws {
        let (w, h) = (203, 61)
        var comps = TestImages.random(
            width: w, height: h, format: .rgbaFloat, colorSpace: .extendedLinearSRGB, seed: 10, randomAlpha: true
        ).components(as: Float.self)
        for i in stride(from: 0, to: w * h, by: 5) { comps[4 * i + 3] = 0 }
        for i in stride(from: 1, to: w * h, by: 5) { comps[4 * i + 3] = 1 }
        let translucent = PixelBuffer(
            width: w, height: h, format: .rgbaFloat, components: comps, colorSpace: .extendedLinearSRGB
        ).converted(to: .rgbaHalf)
        let opaque = TestImages.random(
            width: w, height: h, format: .rgbaHalf, colorSpace: .extendedLinearSRGB, seed: 11)
        let context = RenderContext(options: RenderOptions(threadCount: 2, tileSize: 64))
        for src in [translucent, opaque] {
            for image in [
                Self.chain(Image(buffer: src)),
                Self.chain(Image(buffer: src)).cropped(to: Rect(x: 3, y: 2, width: 190, height: 50)),
            ] {
                var half = PixelBuffer(width: w, height: h, format: .rgbaHalf, colorSpace: .extendedLinearSRGB)
                try context.render(image, to: &half)
                var float = PixelBuffer(width: w, height: h, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
                try context.render(image, to: &float)
                let expected = float.components(as: Float.self).map { Float16($0).bitPattern }
                #expect(half.components(as: Float16.self).map(\.bitPattern) == expected)
            }
        }
    }

    @Test("a transform kernel leaves alpha and transparent pixels alone")
    func alphaUnchanged() throws {
        let src = TestImages.random(
            width: 37, height: 5, format: .rgbaFloat, colorSpace: .extendedLinearSRGB, seed: 8, randomAlpha: true)
        let image = Self.chain(Image(buffer: src)).cropped(to: Rect(x: 0, y: 0, width: 30, height: 5))
        var out = PixelBuffer(width: 37, height: 5, format: .rgbaFloat)
        try RenderContext().render(image, to: &out, colorSpace: .extendedLinearSRGB)
        let s = src.components(as: Float.self)
        let o = out.components(as: Float.self)
        for y in 0..<5 {
            for x in 0..<37 {
                let i = 4 * (y * 37 + x)
                if x < 30 {
                    #expect(o[i + 3] == s[i + 3])
                } else {
                    #expect(o[i..<(i + 4)].allSatisfy { $0 == 0 })
                }
            }
        }
    }
}
