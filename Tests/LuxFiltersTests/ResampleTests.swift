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
