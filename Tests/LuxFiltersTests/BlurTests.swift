import Foundation
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Synchronization
import Testing

@Suite struct GaussianBlurTests {
    @Test("a blur of a clamped opaque image is opaque (no unpremultiply before the output); with edges it is not")
    func opacity() throws {
        let tile = Image(color: Color(red: 0.2, green: 0.5, blue: 0.9)).cropped(
            to: Rect(x: 0, y: 0, width: 40, height: 30))
        #expect(tile.isOpaque)
        #expect(!tile.gaussianBlur(radius: 2).isOpaque, "alpha falls off past the edges")
        let clamped = tile.clampedToExtent().gaussianBlur(radius: 2).cropped(to: tile.extent)
        #expect(clamped.isOpaque)
        let text = try RenderContext().describe(clamped, detail: [.programs])
        #expect(!text.contains("unpremultiply"), "\(text)")
        // The declaration is true: every rendered alpha is exactly 1.
        let pixels = try RenderContext(options: RenderOptions(workingFormat: .rgbaFloat))
            .createBuffer(clamped, format: .rgbaFloat, colorSpace: nil).components(as: Float.self)
        #expect(stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 1 })
    }

    @Test("Gaussian blur equals a brute-force 2-D convolution", arguments: [0.8, 2.5, 6.0])
    func matchesBruteForce(sigma: Double) throws {
        let w = 61
        let h = 47
        let buffer = randomBuffer(width: w, height: h, seed: 21, alpha: true)
        let image = Image(buffer: buffer)
        let out = try renderFloat(image.clampedToExtent().gaussianBlur(radius: sigma).cropped(to: image.extent))
        let src = buffer.components(as: Float.self)
        let r = Filters.GaussianBlur.kernelRadius(sigma: sigma)
        // 2-D weights straight from the definition, normalised over the (2r+1)² window.
        var weights = [[Double]](repeating: [Double](repeating: 0, count: 2 * r + 1), count: 2 * r + 1)
        var total = 0.0
        for j in -r...r {
            for i in -r...r {
                let v = Foundation.exp(-Double(i * i + j * j) / (2 * sigma * sigma))
                weights[j + r][i + r] = v
                total += v
            }
        }
        var worst = 0.0
        for y in stride(from: 0, to: h, by: 3) {
            for x in 0..<w {
                var acc = SIMD4<Double>()
                for j in -r...r {
                    for i in -r...r {
                        let xx = min(max(x + i, 0), w - 1)
                        let yy = min(max(y + j, 0), h - 1)
                        let o = 4 * (yy * w + xx)
                        // Premultiplied, as the engine blurs.
                        let a = Double(src[o + 3])
                        let k = weights[j + r][i + r] / total
                        let p = SIMD4<Double>(Double(src[o]) * a, Double(src[o + 1]) * a, Double(src[o + 2]) * a, a)
                        acc += k * p
                    }
                }
                let e = SIMD4(acc.x / acc.w, acc.y / acc.w, acc.z / acc.w, acc.w)
                for c in 0..<4 { worst = max(worst, abs(Double(out[4 * (y * w + x) + c]) - e[c])) }
            }
        }
        #expect(worst < 1e-4, "max error \(worst)")
    }

    @Test(
        "a Live Photo movie frame's cropped blur (clamped 144×108 frame, exposure, σ 3.6, top-left 72×54): the same bits on a context whose reused memory held NaN renders, into a target full of garbage, as on a fresh one, and a brute-force blur within 1 level"
    )
    func croppedClampedBlurIgnoresReusedMemory() throws {
        let (w, h) = (144, 108)
        var rng = SplitMix(seed: 44)
        var bytes = [UInt8](repeating: 255, count: 4 * w * h)
        for p in 0..<(w * h) { for c in 0..<3 { bytes[4 * p + c] = UInt8(rng.unit() * 255) } }
        let frame = PixelBuffer(width: w, height: h, format: .rgba8, components: bytes, colorSpace: .sRGB)
        // The chain LivePhotoAdjustments builds for "ExposureAdjust ev=0.5 | GaussianBlur radius=10" at render scale
        // 0.36 with the crop (0, 0, 0.5, 0.5): its blur reads past the crop's right and bottom edges (inside the frame)
        // and past the frame's top and left edges (the clamp).
        func edit(_ source: PixelBuffer) -> Image {
            let image = Image(buffer: source)
            return image.clampedToExtent().exposureAdjust(ev: 0.5).gaussianBlur(radius: 3.6).cropped(to: image.extent)
                .cropped(to: Rect(x: 0, y: 0, width: source.width / 2, height: source.height / 2))
        }
        let options = RenderOptions(threadCount: 1)
        var fresh = PixelBuffer(width: 72, height: 54, format: .rgba8)
        try RenderContext(options: options).render(edit(frame), to: &fresh, colorSpace: .sRGB)
        // A context whose workers' blocks and registers and whose cache held NaN intermediates of the same chain on
        // larger frames (so every byte the frame's intermediates reuse was written with NaN, whatever they leave out).
        let used = RenderContext(options: options)
        for (nw, nh) in [(288, 216), (200, 150)] {
            let nan = PixelBuffer(
                width: nw, height: nh, format: .rgbaFloat, components: [Float](repeating: .nan, count: 4 * nw * nh),
                colorSpace: .sRGB)
            var sink = PixelBuffer(width: nw / 2, height: nh / 2, format: .rgba8)
            try used.render(edit(nan), to: &sink, colorSpace: .sRGB)
        }
        var garbage = PixelBuffer(
            width: 72, height: 54, format: .rgba8, components: [UInt8](repeating: 0xA5, count: 72 * 54 * 4),
            colorSpace: .sRGB)
        try used.render(edit(frame), to: &garbage, colorSpace: .sRGB)
        #expect(garbage.components(as: UInt8.self) == fresh.components(as: UInt8.self))
        // Brute force in Double: decode, 2^0.5 in linear light, separable Gaussian over ±11 with the edge repeated,
        // encode.
        let sigma = 3.6
        let r = Filters.GaussianBlur.kernelRadius(sigma: sigma)
        var k = (-r...r).map { Foundation.exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = k.reduce(0, +)
        k = k.map { $0 / total }
        // sRGB's curves as IEC 61966-2-1 publishes them.
        func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : Foundation.pow((v + 0.055) / 1.055, 2.4) }
        func encode(_ v: Double) -> Double { v <= 0.003_130_8 ? 12.92 * v : 1.055 * Foundation.pow(v, 1 / 2.4) - 0.055 }
        let linear = bytes.map { decode(Double($0) / 255) * 2.0.squareRoot() }
        func src(_ x: Int, _ y: Int, _ c: Int) -> Double {
            linear[4 * (min(max(y, 0), h - 1) * w + min(max(x, 0), w - 1)) + c]
        }
        let out = fresh.components(as: UInt8.self)
        var worst = 0.0
        for y in 0..<54 {
            for x in 0..<72 {
                for c in 0..<3 {
                    var v = 0.0
                    for j in -r...r {
                        var row = 0.0
                        for i in -r...r { row += k[i + r] * src(x + i, y + j, c) }
                        v += k[j + r] * row
                    }
                    let e = min(max(encode(v), 0), 1) * 255
                    worst = max(worst, abs(Double(out[4 * (y * 72 + x) + c]) - e))
                }
            }
        }
        #expect(worst <= 1, "max difference \(worst) levels")
    }

    @Test(
        "Gaussian blur of a real photo agrees with vips' float Gaussian within 0.3 levels (direct and decimated)",
        .enabled(
            if: ExternalTool.isAvailable("vips") && ExternalTool.isAvailable("djpeg"),
            "needs vips and djpeg (libvips-tools, libjpeg-turbo-progs)"),
        arguments: [6.0, 10.0, 30.0])
    func matchesVips(sigma: Double) throws {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try TestPhoto.full()
        let crop = try photo.view(x: 1800, y: 1200, width: 400, height: 300).copy()
        try NetPBM.writePPM(crop, to: dir + "/in.ppm")
        // vips filters in the image's own (sRGB-encoded) values with edge copying; so do we here.
        try ExternalTool.run(
            "vips",
            ["gaussblur", dir + "/in.ppm", dir + "/out.v", "\(sigma)", "--precision", "float", "--min-ampl", "0.001"])
        try ExternalTool.run("vips", ["rawsave", dir + "/out.v", dir + "/out.raw"])
        let raw = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.raw"))
        let vipsValues = raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(vipsValues.count == 400 * 300 * 3)

        let image = Image(buffer: crop)
        let context = RenderContext(options: RenderOptions(workingColorSpace: nil, threadCount: 2))
        let ours = try context.createBuffer(
            image.clampedToExtent().gaussianBlur(radius: sigma).cropped(to: image.extent),
            format: .rgbaFloat, colorSpace: nil
        ).components(as: Float.self)
        var sum = 0.0
        var worst = 0.0
        for p in 0..<(400 * 300) {
            for c in 0..<3 {
                let d = abs(Double(ours[4 * p + c]) * 255 - Double(vipsValues[3 * p + c]))
                sum += d
                worst = max(worst, d)
            }
        }
        let mean = sum / Double(400 * 300 * 3)
        print("vips float gaussblur σ=\(sigma): mean \(mean) max \(worst)")
        #expect(mean <= 0.3, "mean difference \(mean) levels (max \(worst))")
    }

    @Test("large blurs (decimated) are bit-identical for any tiling and read only their margin")
    func decimatedDeterminismAndROI() throws {
        let image = Image(buffer: randomBuffer(width: 300, height: 200, seed: 71, alpha: true)).clampedToExtent()
            .gaussianBlur(radius: 40)
        let rect = Rect(x: -50, y: -30, width: 400, height: 260)
        func render(_ threads: Int, _ tile: Int) throws -> [Float] {
            try RenderContext(options: RenderOptions(threadCount: threads, tileSize: tile))
                .createBuffer(image, from: rect, format: .rgbaFloat, colorSpace: .extendedLinearSRGB).components(
                    as: Float.self)
        }
        let a = try render(1, 512)
        #expect(try render(2, 48) == a)
        #expect(try render(3, 100) == a)

        let big = Image(buffer: PixelBuffer(width: 4000, height: 3000, format: .rgbaHalf, colorSpace: .sRGB))
        let crop = Rect(x: 2000, y: 1500, width: 64, height: 64)
        var out = PixelBuffer(width: 64, height: 64, format: .rgba8)
        let stats = try RenderContext().render(
            big.gaussianBlur(radius: 40).cropped(to: crop), to: &out, bounds: crop, colorSpace: .sRGB)
        let read = try #require(stats.sourceRegions.first)
        // ±3σ plus the resampling margins, far from the 12 MP the image has.
        #expect(read.width <= 64 + 2 * 120 + 16 && read.height <= 64 + 2 * 120 + 16, "\(read)")
    }

    @Test("rendering a 64×64 crop of a blurred 12-megapixel image reads only the (direct) blur's margin")
    func regionOfInterest() throws {
        let source = Image(buffer: PixelBuffer(width: 4000, height: 3000, format: .rgbaHalf, colorSpace: .sRGB))
        let crop = Rect(x: 2000, y: 1500, width: 64, height: 64)
        let sigma = Filters.GaussianBlur.directLimit
        let blurred = source.gaussianBlur(radius: sigma).cropped(to: crop)
        var out = PixelBuffer(width: 64, height: 64, format: .rgba8)
        let stats = try RenderContext().render(blurred, to: &out, bounds: crop, colorSpace: .sRGB)
        let r = Double(Filters.GaussianBlur.kernelRadius(sigma: sigma))
        let needed = crop.insetBy(dx: -r, dy: -r)
        #expect(stats.sourceRegions == [needed])
        #expect(stats.sourcePixelsRead == Int(needed.width * needed.height))
    }
}

@Suite struct ConvolutionTests {
    @Test("3×3 convolution equals a direct sum")
    func convolution() throws {
        let w = 33
        let h = 21
        let buffer = randomBuffer(width: w, height: h, seed: 31)
        let weights: [Double] = [-1, -2, 0.5, 0, 3, 1, 0.25, -0.5, 0.75]
        let out = try renderFloat(
            Image(buffer: buffer).clampedToExtent().convolution3X3(weights: weights, bias: 0.1).cropped(
                to: Rect(x: 0, y: 0, width: w, height: h)))
        let s = buffer.components(as: Float.self)
        var worst: Float = 0
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var v: Float = c < 3 ? 0.1 : 0
                    for j in -1...1 {
                        for i in -1...1 {
                            let xx = min(max(x + i, 0), w - 1)
                            let yy = min(max(y + j, 0), h - 1)
                            v += Float(weights[(j + 1) * 3 + i + 1]) * s[4 * (yy * w + xx) + c]
                        }
                    }
                    // The output is straight colour: multiply back by its alpha to compare premultiplied sums.
                    if c < 3 { worst = max(worst, abs(out[4 * (y * w + x) + c] * out[4 * (y * w + x) + 3] - v)) }
                }
            }
        }
        #expect(worst < 1e-4, "\(worst)")
    }
}
