import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import Testing

/// The seed's "fast variable box blur": an integral image (ImageProcessor) read by a box-blur
/// GeneralKernel whose radius is scaled by a RadialGradient mask.
enum VariableBoxBlur {
    /// Integral of all four (premultiplied) channels from the origin of `extent`, summed in Double.
    static func integral(_ image: Image) -> Image {
        let e = image.extent
        let p = ImageProcessor(
            description: "integralImage", argumentDigest: "", inputFormat: .rgbaFloat, outputFormat: .rgbaFloat,
            roi: { _, rect in Rect(minX: e.minX, minY: e.minY, maxX: rect.maxX, maxY: rect.maxY) },
            process: { inputs, output in
                let input = inputs[0]
                let xShift = Int(output.region.minX - input.region.minX)
                let yShift = Int(output.region.minY - input.region.minY)
                var columns = [SIMD4<Double>](repeating: .zero, count: input.width)
                for j in 0..<(yShift + output.height) {
                    let src = input.row(j, as: Float.self)
                    var rowSum = SIMD4<Double>()
                    for i in 0..<input.width {
                        rowSum += SIMD4(
                            Double(src[4 * i]), Double(src[4 * i + 1]), Double(src[4 * i + 2]), Double(src[4 * i + 3]))
                        columns[i] += rowSum
                    }
                    guard j >= yShift else { continue }
                    let dst = output.row(j - yShift, as: Float.self)
                    for i in 0..<output.width {
                        let v = columns[i + xShift]
                        for c in 0..<4 { dst[4 * i + c] = Float(v[c]) }
                    }
                }
            }
        )
        return p.apply(to: [image], extent: e)
    }

    /// The blur radius at a mask value.
    @inline(__always)
    static func radius(mask: Float, scale: Float) -> Int { Int((mask * scale).rounded()) }

    /// Box mean over the part of the (2r+1)² box inside the extent, from four integral reads.
    static func blur(_ image: Image, mask: Image, scale: Float) -> Image {
        let e = image.extent
        let (ex0, ey0, ex1, ey1) = (Int(e.minX), Int(e.minY), Int(e.maxX), Int(e.maxY))
        let maxR = Double(scale.rounded(.up)) + 1
        let kernel = GeneralKernel(name: "variableBoxBlur", inputCount: 2) { row in
            let ii = row.sampler(0)
            let m = row.sampler(1)
            func at(_ x: Int, _ y: Int) -> SIMD4<Float> { x < ex0 || y < ey0 ? .zero : ii.pixel(x: x, y: y) }
            for i in 0..<row.count {
                let x = row.x + i
                let y = row.y
                let mv = m.pixel(x: x, y: y)
                let r = radius(mask: mv.w > 0 ? mv.x / mv.w : 0, scale: scale)
                let x0 = max(x - r, ex0)
                let x1 = min(x + r, ex1 - 1)
                let y0 = max(y - r, ey0)
                let y1 = min(y + r, ey1 - 1)
                let sum = at(x1, y1) - at(x0 - 1, y1) - at(x1, y0 - 1) + at(x0 - 1, y0 - 1)
                row.store(sum / Float((x1 - x0 + 1) * (y1 - y0 + 1)), at: i)
            }
        }
        return kernel.apply(extent: e, inputs: [integral(image), mask], arguments: "scale=\(scale)") { index, rect in
            index == 0 ? rect.insetBy(dx: -maxR, dy: -maxR).intersection(e) : rect
        }
    }
}

@Suite struct VariableBoxBlurTests {
    @Test("the seed's variable box blur equals a brute-force box blur")
    func matchesBruteForce() throws {
        let w = 120
        let h = 90
        let buffer = randomBuffer(width: w, height: h, seed: 11)
        let image = Image(buffer: buffer)
        let center = Point(x: 70, y: 40)
        let r0 = 10.0
        let r1 = 60.0
        let scale: Float = 6
        let mask = Image.radialGradient(center: center, radius0: r0, radius1: r1, color0: .black, color1: .white)
        let blurred = VariableBoxBlur.blur(image, mask: mask, scale: scale)
        let context = RenderContext(
            options: RenderOptions(workingColorSpace: nil, workingFormat: .rgbaFloat, threadCount: 2, tileSize: 32))
        let out = try renderFloat(blurred, context: context)

        // Independent reference: the gradient from its definition, then a direct box mean.
        let src = buffer.components(as: Float.self)
        var compared = 0
        var worst: Float = 0
        for y in 0..<h {
            for x in 0..<w {
                let dx = Double(x) + 0.5 - center.x
                let dy = Double(y) + 0.5 - center.y
                let t = min(max(((dx * dx + dy * dy).squareRoot() - r0) / (r1 - r0), 0), 1)
                let exact = t * Double(scale)
                if abs(exact - exact.rounded(.down) - 0.5) < 1e-3 { continue }  // rounding ties: skip
                let r = Int(exact.rounded())
                var sum = SIMD4<Float>()
                var n = 0
                for j in max(y - r, 0)...min(y + r, h - 1) {
                    for i in max(x - r, 0)...min(x + r, w - 1) {
                        sum += SIMD4(
                            src[4 * (j * w + i)], src[4 * (j * w + i) + 1], src[4 * (j * w + i) + 2],
                            src[4 * (j * w + i) + 3])
                        n += 1
                    }
                }
                let e = sum / Float(n)
                for c in 0..<4 { worst = max(worst, abs(out[4 * (y * w + x) + c] - e[c])) }
                compared += 1
            }
        }
        #expect(compared > w * h * 9 / 10)
        #expect(worst < 2e-3, "max error \(worst)")
        // The blur really varies: the centre pixel is sharp (radius 0), a corner is blurred.
        #expect(abs(out[4 * (40 * w + 70)] - src[4 * (40 * w + 70)]) < 2e-3)
        #expect(abs(out[0] - src[0]) > 1e-3)
    }

    @Test("the tree shows the processor, the kernel and the gradient")
    func tree() throws {
        let image = Image(buffer: randomBuffer(width: 50, height: 40, seed: 12, colorSpace: .sRGB))
        let mask = Image.radialGradient(
            center: Point(x: 25, y: 20), radius0: 5, radius1: 20, color0: .black, color1: .white)
        let text = try RenderContext().describe(VariableBoxBlur.blur(image, mask: mask, scale: 4))
        #expect(text.contains("kernel variableBoxBlur(scale=4.0) roi=[0 0 50 40]"), "\(text)")
        #expect(text.contains("processor integralImage () roi=[0 0 50 40]"), "\(text)")
        #expect(text.contains("colorkernel radialGradient("), "\(text)")
        #expect(text.contains("program RGBAf processor integralImage"), "\(text)")
    }
}
