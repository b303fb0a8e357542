import Foundation
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// Reductions against sums, extremes and counts computed directly in the test.
@Suite struct ReductionTests {
    static let buffer = randomBuffer(width: 53, height: 37, seed: 111, alpha: true)
    static let grid = Grid(buffer)
    static let source = Image(buffer: buffer)

    /// Renders a reduction's premultiplied result (1×1, n×1 or 1×n at the origin).
    static func premultiplied(_ image: Image) throws -> [SIMD4<Double>] {
        let v = try renderFloat(image)
        return (0..<(v.count / 4)).map { p in
            let o = pixel(v, p)
            return SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w)
        }
    }

    static func close(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ t: Double = 1e-6) -> Bool {
        let d = a - b
        return max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) <= t
    }

    @Test("AreaAverage is the mean of the premultiplied pixels, at (0, 0); outside the image counts as transparent")
    func areaAverage() throws {
        for rect in [Rect.null, Rect(x: 5, y: 3, width: 20, height: 11), Rect(x: 40, y: -5, width: 30, height: 10)] {
            let out = Self.source.areaAverage(extent: rect)
            #expect(out.extent == Rect(width: 1, height: 1))
            let r = rect.isEmpty ? Rect(width: 53, height: 37) : rect
            var sum = SIMD4<Double>()
            for y in Int(r.minY)..<Int(r.maxY) { for x in Int(r.minX)..<Int(r.maxX) { sum += Self.grid[x, y] } }
            let mean = sum / (r.width * r.height)
            let got = try Self.premultiplied(out)[0]
            #expect(Self.close(got, mean), "\(rect): \(got) vs \(mean)")
        }
    }

    @Test("AreaMaximum/Minimum are per-component extremes; the alpha variants return the extreme-alpha pixel")
    func extremes() throws {
        var mx = Self.grid[0, 0]
        var mn = mx
        var hi = mx
        var lo = mx
        for y in 0..<37 {
            for x in 0..<53 {
                let p = Self.grid[x, y]
                mx = pointwiseMax(mx, p)
                mn = pointwiseMin(mn, p)
                if p.w > hi.w { hi = p }
                if p.w < lo.w { lo = p }
            }
        }
        #expect(Self.close(try Self.premultiplied(Self.source.areaMaximum())[0], mx))
        #expect(Self.close(try Self.premultiplied(Self.source.areaMinimum())[0], mn))
        #expect(Self.close(try Self.premultiplied(Self.source.areaMaximumAlpha())[0], hi))
        #expect(Self.close(try Self.premultiplied(Self.source.areaMinimumAlpha())[0], lo))
    }

    @Test("reductions over several bands of rows equal direct sums and extremes, bit-identical on 1 and 3 threads")
    func manyBands() throws {
        // 300 rows: four full bands of 64 rows and a short one, reduced in parallel and combined in order.
        let buffer = randomBuffer(width: 29, height: 300, seed: 7, alpha: true)
        let grid = Grid(buffer)
        let source = Image(buffer: buffer)
        var sum = SIMD4<Double>()
        var mx = grid[0, 0]
        var lo = mx
        for y in 0..<300 {
            for x in 0..<29 {
                let p = grid[x, y]
                sum += p
                mx = pointwiseMax(mx, p)
                if p.w < lo.w { lo = p }
            }
        }
        for (image, expected) in [
            (source.areaAverage(), sum / (29 * 300)), (source.areaMaximum(), mx), (source.areaMinimumAlpha(), lo),
        ] {
            func render(threads: Int) throws -> [Float] {
                let context = RenderContext(
                    options: RenderOptions(workingColorSpace: nil, workingFormat: .rgbaFloat, threadCount: threads))
                return try renderFloat(image, context: context)
            }
            let one = try render(threads: 1)
            #expect(try render(threads: 3) == one)
            let o = pixel(one, 0)
            let got = SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w)
            #expect(Self.close(got, expected), "\(got) vs \(expected)")
        }
    }

    @Test("ColumnAverage and RowAverage are the means of each column and row of the region")
    func lineAverages() throws {
        let r = Rect(x: 4, y: 6, width: 30, height: 20)
        let cols = try Self.premultiplied(Self.source.columnAverage(extent: r))
        let rows = try Self.premultiplied(Self.source.rowAverage(extent: r))
        #expect(cols.count == 30 && rows.count == 20)
        for i in 0..<30 {
            var s = SIMD4<Double>()
            for y in 6..<26 { s += Self.grid[4 + i, y] }
            #expect(Self.close(cols[i], s / 20), "column \(i)")
        }
        for j in 0..<20 {
            var s = SIMD4<Double>()
            for x in 4..<34 { s += Self.grid[x, 6 + j] }
            #expect(Self.close(rows[j], s / 30), "row \(j)")
        }
    }

    @Test("AreaHistogram holds the fraction of pixels per bin (a direct count), times scale")
    func histogram() throws {
        let bins = 16
        let out = try renderFloat(Self.source.areaHistogram(scale: 2, count: bins))
        #expect(out.count == 4 * bins)
        let c = Self.buffer.components(as: Float.self)
        var expected = [[Double]](repeating: [Double](repeating: 0, count: bins), count: 3)
        for p in 0..<(53 * 37) {
            for ch in 0..<3 {
                let v = Double(c[4 * p + ch])
                expected[ch][min(Int(v * Double(bins)), bins - 1)] += 2 / Double(53 * 37)
            }
        }
        for b in 0..<bins {
            for ch in 0..<3 { #expect(abs(Double(out[4 * b + ch]) - expected[ch][b]) < 1e-6, "bin \(b) channel \(ch)") }
            #expect(out[4 * b + 3] == 1)
        }
    }

    @Test("HistogramDisplayFilter draws bars of height·(v − low)/(high − low) from the bottom")
    func histogramDisplay() throws {
        let bins: [Float] = [0.5, 0.25, 1, 1, 0, 0.75, 0.1, 1]
        let histogram = Image(buffer: PixelBuffer(width: 2, height: 1, format: .rgbaFloat, components: bins))
        let out = try renderFloat(histogram.histogramDisplay(height: 8, highLimit: 1, lowLimit: 0))
        #expect(out.count == 4 * 2 * 8)
        // Column 0: red 4 px, green 2 px, blue 8 px. Column 1: red 0, green 6, blue 0.8 px (a pixel is lit when its
        // centre lies under the bar's top, so the bottom row).
        for y in 0..<8 {
            let fromBottom = 8 - y
            let c0 = Array(out[(4 * 2 * y)..<(4 * 2 * y + 3)])
            let c1 = Array(out[(4 * 2 * y + 4)..<(4 * 2 * y + 7)])
            #expect(c0 == [fromBottom <= 4 ? 1 : 0, fromBottom <= 2 ? 1 : 0, 1], "row \(y)")
            #expect(c1 == [0, fromBottom <= 6 ? 1 : 0, fromBottom == 1 ? 1 : 0], "row \(y)")
        }
    }

    @Test(
        "AreaAverage of a real photo agrees with vips avg",
        .enabled(if: ExternalTool.isAvailable("vips") && TestPhoto.toolsAvailable, "needs vips and djpeg"))
    func vipsAverage() throws {
        let photo = try TestPhoto.crop(x: 1000, y: 800, width: 640, height: 480)
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try NetPBM.writePPM(photo, to: dir + "/in.ppm")
        let text = String(decoding: try ExternalTool.run("vips", ["avg", dir + "/in.ppm"]).output, as: UTF8.self)
        let theirs = try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        let context = RenderContext(options: RenderOptions(workingColorSpace: nil, workingFormat: .rgbaFloat))
        let v = try renderFloat(Image(buffer: photo).areaAverage(), context: context)
        let ours = Double(v[0] + v[1] + v[2]) / 3 * 255
        #expect(abs(ours - theirs) < 1e-3, "\(ours) vs \(theirs)")
    }
}
