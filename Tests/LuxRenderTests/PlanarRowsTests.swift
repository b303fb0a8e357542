import LuxColor
import LuxPixels
import LuxRender
import Testing

/// Processors exchanging ``PixelLayout/planarRows`` buffers: every combination of layouts, readers and the cache
/// gives the pixels of a closed-form pattern and of a smoothing computed here by hand.
@Suite struct PlanarRowsTests {
    static let width = 37
    static let height = 23
    static let extent = Rect(x: 0, y: 0, width: width, height: height)

    /// The pattern: values below 0 and above 1 among them, alpha 1.
    @Sendable static func value(_ x: Int, _ y: Int, _ c: Int) -> Float {
        c == 3 ? 1 : Float((x * 7 + y * 11 + c * 5) % 71) / 63 - 0.25
    }

    /// Component `c` of pixel `(i, j)` of a processor input, in either layout.
    static func read(_ input: ImageProcessorInput, _ i: Int, _ j: Int, _ c: Int) -> Float {
        if input.layout == .interleaved { return input.row(j, as: Float.self)[4 * i + c] }
        return input.planes(j).plane(c)[i]
    }

    /// Sets component `c` of pixel `(i, j)` of a processor output, in either layout.
    static func write(_ v: Float, _ output: ImageProcessorOutput, _ i: Int, _ j: Int, _ c: Int) {
        if output.layout == .interleaved {
            output.row(j, as: Float.self)[4 * i + c] = v
        } else {
            output.planes(j).plane(c)[i] = v
        }
    }

    /// The pattern written by a processor in `layout` (the same description and digest for both layouts).
    static func pattern(_ layout: PixelLayout) -> Image {
        ImageProcessor(description: "pattern", inputFormat: nil, outputLayout: layout, roi: { _, r in r }) { _, out in
            for j in 0..<out.height {
                for i in 0..<out.width {
                    for c in 0..<4 {
                        write(value(Int(out.region.minX) + i, Int(out.region.minY) + j, c), out, i, j, c)
                    }
                }
            }
        }.apply(to: [], extent: extent, isOpaque: true)
    }

    /// `¼ left + ½ centre + ¼ right` of every component, by a processor reading and writing `layout`.
    static func smoothed(_ image: Image, _ layout: PixelLayout) -> Image {
        ImageProcessor(
            description: "smooth", inputLayout: layout, outputLayout: layout,
            roi: { _, r in r.insetBy(dx: -1, dy: 0) }
        ) { inputs, out in
            let input = inputs[0]
            let dx = Int(out.region.minX - input.region.minX)
            let dy = Int(out.region.minY - input.region.minY)
            for j in 0..<out.height {
                for i in 0..<out.width {
                    for c in 0..<4 {
                        let l = read(input, i + dx - 1, j + dy, c)
                        let m = read(input, i + dx, j + dy, c)
                        let r = read(input, i + dx + 1, j + dy, c)
                        write(0.25 * l + 0.5 * m + 0.25 * r, out, i, j, c)
                    }
                }
            }
        }.apply(to: [image], extent: extent)
    }

    /// The hand-computed smoothing of the pattern over the extent: transparent beyond the pattern's edges, or the
    /// edge pixels repeated when `clamped`.
    static func expectedSmoothing(clamped: Bool) -> [Float] {
        func v(_ x: Int, _ y: Int, _ c: Int) -> Float {
            if clamped { return value(min(max(x, 0), width - 1), y, c) }
            return x < 0 || x >= width ? 0 : value(x, y, c)
        }
        var out: [Float] = []
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<4 { out.append(0.25 * v(x - 1, y, c) + 0.5 * v(x, y, c) + 0.25 * v(x + 1, y, c)) }
            }
        }
        return out
    }

    static func context(cache: Bool = false) -> RenderContext {
        RenderContext(
            options: RenderOptions(
                workingColorSpace: nil, workingFormat: .rgbaFloat, outputPremultiplied: true,
                cacheIntermediates: cache, threadCount: 2, tileSize: 16))
    }

    static func render(_ image: Image, _ context: RenderContext, from rect: Rect = extent) throws -> [Float] {
        try context.createBuffer(image, from: rect, format: .rgbaFloat, colorSpace: nil).components(as: Float.self)
    }

    @Test("a program reads a planar-rows output: copied, clamped, to float, half and 8-bit targets")
    func programReads() throws {
        let context = Self.context()
        let rect = Rect(x: -3, y: -2, width: Self.width + 7, height: Self.height + 5)
        var expected: [Float] = []
        for y in -2..<(Self.height + 3) {
            for x in -3..<(Self.width + 4) {
                expected += (0..<4).map {
                    Self.value(min(max(x, 0), Self.width - 1), min(max(y, 0), Self.height - 1), $0)
                }
            }
        }
        let planar = Self.pattern(.planarRows)
        #expect(try Self.render(planar, context) == Self.render(Self.pattern(.interleaved), context))
        #expect(try Self.render(planar.clampedToExtent(), context, from: rect) == expected)
        for format in [PixelFormat.rgbaHalf, .rgba8] {
            let a = try context.createBuffer(planar.clampedToExtent(), from: rect, format: format, colorSpace: nil)
            let b = try context.createBuffer(
                Self.pattern(.interleaved).clampedToExtent(), from: rect, format: format, colorSpace: nil)
            #expect(a.components(as: UInt8.self) == b.components(as: UInt8.self), "\(format)")
        }
    }

    @Test("every producer and consumer layout gives the hand-computed smoothing, unclamped and clamped")
    func processorsRead() throws {
        let context = Self.context()
        for producer in [PixelLayout.interleaved, .planarRows] {
            for consumer in [PixelLayout.interleaved, .planarRows] {
                let source = Self.pattern(producer)
                let plain = try Self.render(Self.smoothed(source, consumer), context)
                #expect(plain == Self.expectedSmoothing(clamped: false), "\(producer) → \(consumer)")
                let clamped = try Self.render(Self.smoothed(source.clampedToExtent(), consumer), context)
                #expect(clamped == Self.expectedSmoothing(clamped: true), "\(producer) → \(consumer), clamped")
            }
        }
    }

    @Test("a planar-rows processor reads a program's output and feeds a general kernel")
    func programsAround() throws {
        let context = Self.context()
        // A program (an offset) between the pattern and the smoothing; its rows are stored as planes.
        func offsetSmoothing(_ layout: PixelLayout) throws -> [Float] {
            try Self.render(
                Self.smoothed(Self.pattern(.interleaved).applying(TestKernels.offset(0.5)), layout), context)
        }
        var expected = Self.expectedSmoothing(clamped: false)
        for i in expected.indices where i % 4 != 3 {
            // ¼(v₋ + ½) + ½(v + ½) + ¼(v₊ + ½) with transparent neighbours beyond the edges contributing nothing.
            let x = (i / 4) % Self.width
            let missing: Float = (x == 0 ? 0.25 : 0) + (x == Self.width - 1 ? 0.25 : 0)
            expected[i] += 0.5 * (1 - missing)
        }
        let planar = try offsetSmoothing(.planarRows)
        #expect(try planar == offsetSmoothing(.interleaved))
        #expect(zip(planar, expected).allSatisfy { abs($0 - $1) <= 1e-6 })
        // Planar all the way (the offset then runs in the pattern's own rows), also through a clamp, and with the
        // pattern cached (then the offset must leave the cached rows alone: the second render reads them again).
        for cache in [false, true] {
            let context = Self.context(cache: cache)
            let offset = Self.pattern(.planarRows).applying(TestKernels.offset(0.5))
            for _ in 0..<2 {
                #expect(try Self.render(Self.smoothed(offset, .planarRows), context) == planar, "cache \(cache)")
                let clamped = try Self.render(Self.smoothed(offset.clampedToExtent(), .planarRows), context)
                #expect(try clamped == Self.render(Self.smoothed(offset.clampedToExtent(), .interleaved), context))
            }
        }
        // A neighbourhood kernel reading the planar output gets it converted.
        let blurPlanar = TestKernels.blurred(
            Self.smoothed(Self.pattern(.planarRows), .planarRows).clampedToExtent(), radius: 1)
        let blurInterleaved = TestKernels.blurred(
            Self.smoothed(Self.pattern(.interleaved), .interleaved).clampedToExtent(), radius: 1)
        #expect(try Self.render(blurPlanar, context) == Self.render(blurInterleaved, context))
        let text = try context.describe(
            blurPlanar, bounds: Rect(x: 0, y: 0, width: 8, height: 8), detail: .programs)
        #expect(text.contains("planar"), "\(text)")
    }

    @Test("cached outputs are found again in their own layout, never in the other")
    func caching() throws {
        let context = Self.context(cache: true)
        let expected = Self.expectedSmoothing(clamped: false)
        for layout in [PixelLayout.planarRows, .interleaved, .planarRows] {
            let image = Self.smoothed(Self.pattern(layout), layout)
            #expect(try Self.render(image, context) == expected, "\(layout), first render")
            var buffer = PixelBuffer(width: Self.width, height: Self.height, format: .rgbaFloat)
            let stats = try context.render(image, to: &buffer, colorSpace: nil)
            #expect(stats.cacheHits > 0, "\(layout)")
            #expect(buffer.components(as: Float.self) == expected, "\(layout), cached render")
        }
    }

    @Test("an 8-bit, colour-matched output stored straight from a cached planar intermediate leaves the cache intact")
    func convertedOutputKeepsCache() throws {
        // The oracle: the same pattern from an interleaved processor, rendered without a cache.
        let options = { (cache: Bool) in RenderOptions(cacheIntermediates: cache, threadCount: 2, tileSize: 16) }
        let expected = try RenderContext(options: options(false)).createBuffer(
            Self.pattern(.interleaved), from: Self.extent, format: .rgba8, colorSpace: .displayP3)
        let context = RenderContext(options: options(true))
        for pass in 0..<2 {
            let planar = try context.createBuffer(
                Self.pattern(.planarRows), from: Self.extent, format: .rgba8, colorSpace: .displayP3)
            let same = planar.components(as: UInt8.self) == expected.components(as: UInt8.self)
            #expect(same, "pass \(pass)")
        }
    }
}
