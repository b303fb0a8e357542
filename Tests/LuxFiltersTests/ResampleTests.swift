import Foundation
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

@Suite struct LanczosTests {
    @Test(
        "Lanczos downscaling of a real photo agrees with vips reduce --kernel lanczos3",
        .enabled(if: ExternalTool.isAvailable("vips") && ExternalTool.isAvailable("djpeg"), "needs vips and djpeg"))
    func matchesVips() throws {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try TestPhoto.full()
        let crop = try photo.view(x: 1600, y: 1100, width: 600, height: 450).copy()
        try NetPBM.writePPM(crop, to: dir + "/in.ppm")
        try ExternalTool.run(
            "vips", ["reduce", dir + "/in.ppm", dir + "/out.ppm", "2.5", "2.5", "--kernel", "lanczos3"])
        let reference = try NetPBM.readPPM(dir + "/out.ppm")
        #expect(reference.width == 240 && reference.height == 180)

        let context = RenderContext(options: RenderOptions(workingColorSpace: nil, threadCount: 2, tileSize: 64))
        let ours = try context.createBuffer(
            Image(buffer: crop).lanczosScaleTransform(scale: 0.4), format: .rgba8, colorSpace: nil)
        #expect(ours.width == 240 && ours.height == 180)
        let a = ours.components(as: UInt8.self)
        let b = reference.components(as: UInt8.self)
        var sum = 0
        var worst = 0
        for p in 0..<(240 * 180) {
            for c in 0..<3 {
                let d = abs(Int(a[4 * p + c]) - Int(b[4 * p + c]))
                sum += d
                worst = max(worst, d)
            }
        }
        let mean = Double(sum) / Double(240 * 180 * 3)
        print("vips reduce lanczos3: mean \(mean) max \(worst)")
        #expect(mean < 0.75, "mean difference \(mean) levels, max \(worst)")
    }

    @Test(
        "a 0.001 reduction folds the taps beyond the edges onto them: it reads only the source and equals the clamped sum"
    )
    func tinyScaleReadsOnlyTheSource() throws {
        // The filterchain fuzzer's finding: `LanczosScaleTRansform scale=.001 aspectRatio=.07` on its 16 × 16
        // input materialised the 6001 × 6001 window of the clamped image (6 s, 900 MB for one output pixel).
        let n = 16
        var c: [Float] = []
        for y in 0..<n { for x in 0..<n { c += [Float(x) / 15, Float(y) / 15, Float(x * y) / 225, 1] } }
        let source = Image(buffer: PixelBuffer(width: n, height: n, format: .rgbaFloat, components: c))
        let chain = try FilterChain(parsing: "LanczosScaleTRansform scale=.001 aspectRatio=.07")
        let image = try chain.apply(
            to: source, registry: .builtIn, loadImage: { _ in throw CocoaError(.fileNoSuchFile) })
        #expect(image.extent == Rect(x: 0, y: 0, width: 1, height: 1))
        var out = PixelBuffer(width: 1, height: 1, format: .rgbaFloat)
        let stats = try exactContext.render(image, to: &out, bounds: image.extent, colorSpace: nil)
        // The source region and the output pixel (the clamped window was 6001² pixels).
        #expect(stats.intermediatePixels <= n * n + 1, "\(stats)")
        // The definition: Lanczos-3 weights over the whole window, each tap reading the clamped source.
        func weights(scale: Double) -> [Double] {
            let support = 3 / scale
            let u = 0.5 / scale
            let first = Int((u - support - 0.5).rounded(.down)) + 1
            var w = [Double](repeating: 0, count: n)
            for s in first..<(first + Int((2 * support).rounded(.up)) + 1) {
                let x = (Double(s) + 0.5 - u) * scale
                let k = x == 0 ? 1 : abs(x) >= 3 ? 0 : 3 * sin(.pi * x) * sin(.pi * x / 3) / (.pi * x * .pi * x)
                w[min(max(s, 0), n - 1)] += k
            }
            let sum = w.reduce(0, +)
            return w.map { $0 / sum }
        }
        let wx = weights(scale: 0.001 * 0.07)
        let wy = weights(scale: 0.001)
        let got = out.components(as: Float.self)
        for ch in 0..<4 {
            var e = 0.0
            for y in 0..<n { for x in 0..<n { e += wx[x] * wy[y] * Double(c[4 * (y * n + x) + ch]) } }
            #expect(abs(Double(got[ch]) - e) < 1e-4, "channel \(ch): \(got[ch]) vs \(e)")
        }
    }

    @Test("Lanczos weights reproduce constants and linear ramps (partition of unity, symmetry)")
    func reproducesRamps() throws {
        let w = 97
        let h = 40
        var c: [Float] = []
        for _ in 0..<h {
            for x in 0..<w {
                let v = Float(x) / Float(w)
                c += [v, 0.5, 1 - v, 1]
            }
        }
        let buffer = PixelBuffer(width: w, height: h, format: .rgbaFloat, components: c)
        for scale in [0.37, 0.5, 1.6] {
            let out = try renderFloat(Image(buffer: buffer).lanczosScaleTransform(scale: scale))
            let ow = Int((Double(w) * scale).rounded())
            let oh = Int((Double(h) * scale).rounded())
            // Away from the edges (where clamping bends the ramp) the output is the ramp at the pixel centre.
            let margin = Int((4 / min(scale, 1)) * scale) + 2
            for y in margin..<(oh - margin) {
                for x in margin..<(ow - margin) {
                    let u = (Double(x) + 0.5) / scale - 0.5
                    let o = 4 * (y * ow + x)
                    #expect(abs(Double(out[o]) - u / Double(w)) < 2e-4, "scale \(scale) at \(x),\(y)")
                    #expect(abs(out[o + 1] - 0.5) < 1e-5)
                }
            }
        }
    }
}
