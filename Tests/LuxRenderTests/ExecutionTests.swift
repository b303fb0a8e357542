import LuxColor
import LuxPixels
import LuxRender
import Testing

@Suite struct ExecutionTests {
    /// A graph with every kind of node: source, colour kernels, generator, composite, box blur,
    /// rotation, clamp, crop.
    static func busyGraph() -> Image {
        let src = Image(
            buffer: TestImages.random(
                width: 301, height: 203, format: .rgba8, colorSpace: .sRGB, seed: 5, randomAlpha: true))
        let blurred = TestKernels.blurred(src.clampedToExtent(), radius: 3).cropped(to: src.extent)
        let rotated = blurred.transformed(by: AffineTransform(rotationAngle: 0.3).translatedBy(x: 40, y: -20))
        let ramp = TestKernels.ramp.apply(extent: .infinite, inputs: [])
        let tinted = rotated.applying(TestKernels.matrix(FusionTests.matrix)).applying(TestKernels.tone)
        return tinted.composited(over: ramp.applying(TestKernels.exposure(-1))).cropped(
            to: Rect(x: -20, y: -10, width: 330, height: 250))
    }

    @Test("output is bit-identical for any thread count and tile size")
    func deterministic() throws {
        let image = Self.busyGraph()
        func render(threads: Int, tile: Int) throws -> [Float] {
            let context = RenderContext(
                options: RenderOptions(cacheIntermediates: false, threadCount: threads, tileSize: tile))
            return try context.createBuffer(image, format: .rgbaFloat, colorSpace: .displayP3).components(
                as: Float.self)
        }
        let reference = try render(threads: 1, tile: 512)
        for (threads, tile) in [(2, 512), (4, 64), (1, 37), (3, 16), (2, 100)] {
            let other = try render(threads: threads, tile: tile)
            #expect(other == reference, "threads \(threads), tile \(tile)")
        }
    }

    @Test(
        "a program that only reads a processor's output (clamped, cropped) stores what the row program would",
        arguments: [PixelFormat.rgbaFloat, .rgba8])
    func directCopy(processorFormat: PixelFormat) throws {
        let (w, h) = (41, 29)
        // Values below 0 and above 1 among them; alpha 1 (the processor is declared opaque).
        @Sendable func value(_ x: Int, _ y: Int, _ c: Int) -> Float {
            c == 3 ? 1 : Float((x * 7 + y * 11 + c * 5) % 71) / 63 - Float(0.5) / 255
        }
        @Sendable func code(_ v: Float) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded(.toNearestOrEven)) }
        let pattern = ImageProcessor(
            description: "pattern", inputFormat: nil, outputFormat: processorFormat, roi: { _, r in r },
            process: { _, out in
                for j in 0..<out.height {
                    let y = Int(out.region.minY) + j
                    for i in 0..<out.width {
                        let x = Int(out.region.minX) + i
                        for c in 0..<4 {
                            if processorFormat == .rgba8 {
                                out.row(j, as: UInt8.self)[4 * i + c] = code(value(x, y, c))
                            } else {
                                out.row(j, as: Float.self)[4 * i + c] = value(x, y, c)
                            }
                        }
                    }
                }
            }
        )
        let image = pattern.apply(to: [], extent: Rect(x: 0, y: 0, width: w, height: h), isOpaque: true)
        let cases: [(Image, Rect, clamped: Bool)] = [
            (image.clampedToExtent(), Rect(x: -5, y: -4, width: w + 11, height: h + 9), true),
            (image, Rect(x: 2, y: 1, width: 8, height: 6), false),
            (image.clampedToExtent(), Rect(x: w + 2, y: -3, width: 4, height: 3), true),  // beyond a corner
        ]
        for (source, rect, clamped) in cases {
            var expected: [UInt8] = []
            for y in Int(rect.minY)..<Int(rect.maxY) {
                for x in Int(rect.minX)..<Int(rect.maxX) {
                    let (sx, sy) = clamped ? (min(max(x, 0), w - 1), min(max(y, 0), h - 1)) : (x, y)
                    expected += (0..<4).map { code(value(sx, sy, $0)) }
                }
            }
            for (threads, tile) in [(1, 512), (2, 16), (3, 17)] {
                let context = RenderContext(
                    options: RenderOptions(
                        workingColorSpace: .sRGB, cacheIntermediates: false, threadCount: threads, tileSize: tile))
                let out = try context.createBuffer(source.cropped(to: rect), format: .rgba8, colorSpace: .sRGB)
                #expect(out.components(as: UInt8.self) == expected, "\(processorFormat) \(rect) tile \(tile)")
            }
        }
    }

    @Test("a 64×64 crop of a blurred 12-megapixel image reads only the pixels it needs")
    func regionOfInterest() throws {
        let big = PixelBuffer(width: 4000, height: 3000, format: .rgbaHalf, colorSpace: .extendedLinearSRGB)
        let source = Image(buffer: big)
        let blurred = TestKernels.blurred(source, radius: 8)
        let crop = Rect(x: 1000, y: 2000, width: 64, height: 64)
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        var out = PixelBuffer(width: 64, height: 64, format: .rgbaHalf)
        let stats = try context.render(blurred.cropped(to: crop), to: &out, bounds: crop)
        #expect(stats.sourceRegions == [Rect(x: 992, y: 1992, width: 80, height: 80)])
        #expect(stats.sourcePixelsRead == 80 * 80)
        #expect(stats.intermediatePixels == 80 * 80)
        #expect(blurred.regionOfInterest(for: source, in: crop) == Rect(x: 992, y: 1992, width: 80, height: 80))
    }

    @Test("a warp whose every tile reads the whole source materialises it once per render, strips included")
    func sharedIntermediate() throws {
        let (w, h) = (97, 61)
        let buf = TestImages.random(width: w, height: h, format: .rgbaFloat, colorSpace: .extendedLinearSRGB, seed: 9)
        // Output pixel (x, y) shows source pixel (7x mod w, 5y mod h): every tile reads pixels from all over.
        let scramble = WarpKernel(name: "scramble") { row in
            for i in 0..<row.count {
                row.sourceX[i] = Float((7 * (row.x + i)) % w) + 0.5
                row.sourceY[i] = Float((5 * row.y) % h) + 0.5
            }
        }
        let extent = Rect(x: 0, y: 0, width: 400, height: 300)
        let image = scramble.apply(extent: .infinite, image: Image(buffer: buf)) { _ in Rect(width: w, height: h) }
            .cropped(to: extent)
        let s = buf.components(as: Float.self)
        var expected: [Float] = []
        for y in 0..<300 {
            for x in 0..<400 { expected += s[(4 * ((5 * y) % h * w + (7 * x) % w))...].prefix(4) }
        }
        // The warp's input, with the one-pixel margin of its bilinear reads, once: not once per 64×64 tile (35 tiles).
        let once = (w + 2) * (h + 2)
        let context = RenderContext(
            options: RenderOptions(workingFormat: .rgbaFloat, cacheIntermediates: false, threadCount: 2, tileSize: 64))
        var out = PixelBuffer(width: 400, height: 300, format: .rgbaFloat)
        let stats = try context.render(image, to: &out, bounds: extent, colorSpace: .extendedLinearSRGB)
        #expect(out.components(as: Float.self) == expected)
        #expect(stats.intermediates == 1 && stats.intermediatePixels == once, "\(stats)")
        var streamed: [Float] = []
        let strips = try context.render(image, format: .rgbaFloat, colorSpace: .extendedLinearSRGB, rowsPerStrip: 40) {
            streamed += $0.buffer.components(as: Float.self)
        }
        #expect(streamed == expected)
        #expect(strips.intermediates == 1 && strips.intermediatePixels == once, "\(strips)")
    }

    @Test("the box blur kernel equals a brute-force blur, and clamping repeats the edges")
    func generalKernelMatchesBruteForce() throws {
        let w = 40
        let h = 23
        let r = 2
        let buf = TestImages.random(width: w, height: h, format: .rgbaFloat, colorSpace: .extendedLinearSRGB, seed: 6)
        let src = Image(buffer: buf)
        let image = TestKernels.blurred(src.clampedToExtent(), radius: r).cropped(to: src.extent)
        let context = RenderContext(options: RenderOptions(workingFormat: .rgbaFloat, tileSize: 16))
        let out = try context.createBuffer(image, format: .rgbaFloat, colorSpace: .extendedLinearSRGB).components(
            as: Float.self)
        let s = buf.components(as: Float.self)
        var worst: Float = 0
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    var sum: Float = 0
                    for dy in -r...r {
                        for dx in -r...r {
                            let xx = min(max(x + dx, 0), w - 1)
                            let yy = min(max(y + dy, 0), h - 1)
                            sum += s[4 * (yy * w + xx) + c]
                        }
                    }
                    worst = max(worst, abs(out[4 * (y * w + x) + c] - sum / 25))
                }
            }
        }
        #expect(worst < 1e-5, "\(worst)")
    }

    @Test(
        "whole-pixel translations keep extended-range values (negatives and values above 1) in float and half working formats",
        arguments: [PixelFormat.rgbaFloat, .rgbaHalf])
    func translationKeepsExtendedRange(_ workingFormat: PixelFormat) throws {
        let buf = TestImages.random(
            width: 24, height: 9, format: .rgbaFloat, colorSpace: .extendedLinearSRGB, seed: 21, range: -0.5...2.5)
        let s = buf.components(as: Float.self)
        #expect(s.contains { $0 < 0 } && s.contains { $0 > 1 })
        let moved = Image(buffer: buf).translatedBy(x: 7, y: -3)
        let context = RenderContext(options: RenderOptions(workingFormat: workingFormat))
        let out = try context.createBuffer(moved, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
            .components(as: Float.self)
        // The values come back unclamped: exactly in float; in half at most the format's rounding away
        // (half keeps 11 significant bits: relative error ≤ 2⁻¹¹).
        let tolerance: Float = workingFormat == .rgbaHalf ? 1.0 / 2048 : 0
        let worst = zip(out, s).map { abs($0 - $1) / max(abs($1), 1e-3) }.max() ?? 0
        #expect(out.count == s.count && worst <= tolerance, "worst relative error \(worst)")
    }

    @Test("translations fold, rotations interpolate bilinearly")
    func geometry() throws {
        let buf = TestImages.random(width: 20, height: 10, format: .rgbaFloat, colorSpace: .extendedLinearSRGB, seed: 8)
        let src = Image(buffer: buf)
        let context = RenderContext(options: RenderOptions(workingFormat: .rgbaFloat))
        // Whole-pixel translation: exact copy, and no intermediate.
        let moved = src.translatedBy(x: 5, y: 3).translatedBy(x: -2, y: 1)
        #expect(moved.extent == Rect(x: 3, y: 4, width: 20, height: 10))
        var out = PixelBuffer(width: 20, height: 10, format: .rgbaFloat)
        let stats = try context.render(moved, to: &out, bounds: moved.extent, colorSpace: .extendedLinearSRGB)
        #expect(stats.intermediates == 0)
        #expect(out.components(as: Float.self) == buf.components(as: Float.self))
        // Half-pixel shift: each output pixel is the mean of two neighbours.
        let half = src.transformed(by: AffineTransform(translationX: 0.5, y: 0))
        let h = try context.createBuffer(
            half, from: Rect(x: 1, y: 0, width: 19, height: 10), format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        let s = buf.components(as: Float.self)
        let o = h.components(as: Float.self)
        var worst: Float = 0
        for y in 0..<10 {
            for x in 1..<20 {
                for c in 0..<4 {
                    let e = (s[4 * (y * 20 + x - 1) + c] + s[4 * (y * 20 + x) + c]) / 2
                    worst = max(worst, abs(o[4 * (y * 19 + x - 1) + c] - e))
                }
            }
        }
        #expect(worst < 1e-5)
        // Two transforms fold into one resampling step.
        let twice = src.transformed(by: AffineTransform(rotationAngle: 0.2)).transformed(
            by: AffineTransform(scaleX: 1.5, y: 1.5))
        let text = try context.describe(twice, bounds: Rect(x: 0, y: 0, width: 8, height: 8), detail: .programs)
        #expect(text.split(separator: "\n").filter { $0.contains("affine") }.count == 1, "\(text)")
    }

    @Test("processor outputs are cached across renders when the context allows; explicit intermediates always")
    func caching() throws {
        let buffer = IntegralImageTests.buffer((0..<40).map { y in (0..<50).map { x in UInt8((x + y) % 7) } })
        let src = Image(buffer: buffer)
        let image = IntegralImage.processor(extent: src.extent).apply(to: [src], extent: src.extent).applying(
            TestKernels.invert)
        let cached = RenderContext(options: RenderOptions(workingColorSpace: nil, cacheIntermediates: true))
        let first = try cached.createBuffer(image, format: .rgbaFloat, colorSpace: nil)
        var b = PixelBuffer(width: 50, height: 40, format: .rgbaFloat)
        let stats = try cached.render(image, to: &b)
        #expect(stats.cacheHits > 0 && stats.intermediates == 0)
        #expect(b.components(as: Float.self) == first.components(as: Float.self))
        #expect(cached.cachedBytes > 0)

        let uncached = RenderContext(options: RenderOptions(workingColorSpace: nil, cacheIntermediates: false))
        _ = try uncached.createBuffer(image, format: .rgbaFloat, colorSpace: nil)
        let again = try uncached.render(image, to: &b)
        #expect(again.cacheHits == 0 && again.intermediates > 0)

        let explicit = TestKernels.blurred(src.insertingIntermediate(cache: true), radius: 1)
        _ = try uncached.createBuffer(explicit, from: src.extent)
        let third = try uncached.render(explicit, to: &b)
        #expect(third.cacheHits > 0)
    }

    @Test("an async render stops when its task is cancelled")
    func cancellation() async throws {
        let context = RenderContext()
        let image = TestKernels.blurred(
            Image(buffer: PixelBuffer(width: 2000, height: 2000, format: .rgbaHalf)), radius: 4)
        let task = Task { try await context.createBuffer(image, from: Rect(x: 0, y: 0, width: 2000, height: 2000)) }
        task.cancel()
        await #expect(throws: RenderError.cancelled) { try await task.value }
    }

    @Test("streaming render hands over strips in order that reassemble the full render")
    func streaming() throws {
        let image = Self.busyGraph()
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let full = try context.createBuffer(image, format: .rgba8, colorSpace: .sRGB)
        var assembled: [UInt8] = []
        var nextRow = 0
        try context.render(image, format: .rgba8, colorSpace: .sRGB, rowsPerStrip: 37) { strip in
            #expect(strip.rows.lowerBound == nextRow)
            nextRow = strip.rows.upperBound
            assembled += strip.buffer.components(as: UInt8.self)
        }
        #expect(nextRow == 250)
        #expect(assembled == full.components(as: UInt8.self))
    }

    @Test("bad requests throw errors that say what is wrong")
    func errors() throws {
        let context = RenderContext()
        #expect(throws: RenderError.infiniteExtent) { try context.createBuffer(Image(color: .white)) }
        let src = Image(buffer: PixelBuffer(width: 4, height: 4, format: .rgba8))
        var small = PixelBuffer(width: 3, height: 3, format: .rgba8)
        #expect(throws: RenderError.self) {
            try context.render(src, to: &small, bounds: Rect(x: 0, y: 0, width: 4, height: 4))
        }
        struct Boom: Error {}
        let failing = ImageProcessor(description: "fails", roi: { _, r in r }, process: { _, _ in throw Boom() })
        #expect(throws: RenderError.self) { try context.createBuffer(src.applying(failing, extent: src.extent)) }
        let e = RenderError.sizeMismatch(bounds: Rect(x: 0, y: 0, width: 4, height: 4), width: 3, height: 3)
        #expect(e.description.contains("3×3"))
    }
}
