import LuxColor
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// The seed's integral image, computed by an ``ImageProcessor`` (session 505, "Extending Core Image
/// using CIImageProcessor").
enum IntegralImage {
    /// Sums the red, green and blue codes (0…255) of an RGBA8 input above and to the left of each
    /// output pixel, inclusive, measured from the origin of `extent`; alpha is 1 (an opaque result, so the
    /// sums are not divided by alpha on output).
    static func processor(extent: Rect) -> ImageProcessor {
        ImageProcessor(
            description: "integralImage", argumentDigest: "origin=\(extent.minX),\(extent.minY)",
            inputFormat: .rgba8, outputFormat: .rgbaFloat,
            roi: { _, rect in Rect(minX: extent.minX, minY: extent.minY, maxX: rect.maxX, maxY: rect.maxY) },
            process: { inputs, output in
                let input = inputs[0]
                // The seed's shifts: where the output region starts inside the input region.
                let xShift = Int(output.region.minX - input.region.minX)
                let yShift = Int(output.region.minY - input.region.minY)
                let w = input.width
                var sums = [Double](repeating: 0, count: 4 * w)
                for j in 0..<(yShift + output.height) {
                    let src = input.row(j, as: UInt8.self)
                    var rowSum = SIMD4<Double>()
                    for i in 0..<w {
                        rowSum += SIMD4(
                            Double(src[4 * i]), Double(src[4 * i + 1]), Double(src[4 * i + 2]), Double(src[4 * i + 3]))
                        for c in 0..<4 { sums[4 * i + c] += rowSum[c] }
                    }
                    guard j >= yShift else { continue }
                    let dst = output.row(j - yShift, as: Float.self)
                    for i in 0..<output.width {
                        for c in 0..<3 { dst[4 * i + c] = Float(sums[4 * (i + xShift) + c]) }
                        dst[4 * i + 3] = 1
                    }
                }
            }
        )
    }
}

@Suite struct IntegralImageTests {
    static let seedInput: [[UInt8]] = [
        [1, 4, 5, 3, 2],
        [0, 2, 4, 6, 3],
        [3, 7, 8, 2, 1],
        [6, 8, 3, 4, 7],
        [7, 2, 1, 0, 3],
    ]
    static let seedIntegral: [[Float]] = [
        [1, 5, 10, 13, 15],
        [1, 7, 16, 25, 30],
        [4, 17, 34, 45, 51],
        [10, 31, 51, 66, 79],
        [17, 40, 61, 76, 92],
    ]

    /// An RGBA8 buffer whose red, green and blue hold `values` and alpha is 255.
    static func buffer(_ values: [[UInt8]]) -> PixelBuffer {
        let h = values.count
        let w = values[0].count
        var comps: [UInt8] = []
        for row in values { for v in row { comps += [v, v, v, 255] } }
        return PixelBuffer(width: w, height: h, format: .rgba8, components: comps)
    }

    @Test("the seed's 5×5 integral image table, exactly", arguments: [16, 2])
    func seedTable(tileSize: Int) throws {
        let source = Image(buffer: Self.buffer(Self.seedInput))
        let integral = IntegralImage.processor(extent: source.extent).apply(to: [source], extent: source.extent)
        // No colour management: the codes reach the processor unchanged and its sums reach the output.
        let context = RenderContext(options: RenderOptions(workingColorSpace: nil, tileSize: max(tileSize, 16)))
        let out = try context.createBuffer(integral, format: .rgbaFloat, colorSpace: nil)
        let values = out.components(as: Float.self)
        for y in 0..<5 {
            for x in 0..<5 {
                #expect(values[4 * (y * 5 + x)] == Self.seedIntegral[y][x], "(\(x), \(y))")
            }
        }
        // The seed's box-sum identity: 2+4+6+7+8+2+8+3+4 == 66 − 10 − 13 + 1.
        #expect(values[4 * (3 * 5 + 3)] - values[4 * (3 * 5 + 0)] - values[4 * (0 * 5 + 3)] + values[0] == 44)
    }

    @Test("tiled integral image equals a direct sum (regions of interest reach back to the origin)")
    func tiledMatchesDirectSum() throws {
        let w = 70
        let h = 45
        var rng = SplitMix(seed: 7)
        let values = (0..<h).map { _ in (0..<w).map { _ in UInt8(truncatingIfNeeded: rng.next() % 16) } }
        let source = Image(buffer: Self.buffer(values))
        let integral = IntegralImage.processor(extent: source.extent).apply(to: [source], extent: source.extent)
        let context = RenderContext(options: RenderOptions(workingColorSpace: nil, threadCount: 2, tileSize: 16))
        let out = try context.createBuffer(integral, format: .rgbaFloat, colorSpace: nil).components(as: Float.self)
        var ok = true
        for y in 0..<h {
            for x in 0..<w {
                var s = 0
                for j in 0...y { for i in 0...x { s += Int(values[j][i]) } }
                if out[4 * (y * w + x)] != Float(s) { ok = false }
            }
        }
        #expect(ok)
    }
}
