import Foundation
import Lux
import Testing

// Sources/Lux/Documentation.docc/WritingFiltersAndKernels.md: the filter type lives at file scope.
struct Vignette: DeclaredFilter {
    static let declaration = FilterDeclaration<Self>(
        "SimpleVignette", categories: [.stylize], summary: "Darkens the corners.",
        .image(\.image),
        .parameter("strength", \.strength, slider: 0...1, allowed: 0...2, summary: "How dark."))
    var image = Image.empty
    var strength = 0.8
    var outputImage: Image {
        let e = image.extent
        let s = Float(strength)
        let cx = Float(e.midX)
        let cy = Float(e.midY)
        let invR2 = 1 / Float(e.width * e.width + e.height * e.height) * 4
        let kernel = ColorKernel(name: "simpleVignette", preservesAlpha: true) { row in
            let p = row.pixels
            let dy = Float(row.y) + 0.5 - cy
            for i in 0..<row.count {
                let dx = Float(row.x + i) + 0.5 - cx
                let k = max(0, 1 - s * (dx * dx + dy * dy) * invR2)
                p.red[i] *= k
                p.green[i] *= k
                p.blue[i] *= k
            }
        }
        return image.applying(kernel, arguments: "strength=\(strength)")
    }
}

/// The snippets of WritingFiltersAndKernels.md, each checked against a brute-force computation in the test.
@Suite struct WritingFiltersAndKernelsSnippets {
    /// A 640 × 480 picture of linear values (stored as extended linear sRGB, the working space: no conversion).
    static func picture() -> Image {
        var b = PixelBuffer(width: 640, height: 480, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        for y in 0..<480 {
            for x in 0..<640 { b.setPixel(SIMD4(Float(x % 7) / 7, Float(y % 5) / 5, 0.5, 1), x: x, y: y) }
        }
        return Image(buffer: b)
    }
    static let context = RenderContext(options: RenderOptions(workingFormat: .rgbaFloat, tileSize: 64))
    static func render(_ image: Image) throws -> PixelBuffer {
        try context.createBuffer(
            image, from: Rect(x: 0, y: 0, width: 640, height: 480), format: .rgbaFloat, colorSpace: nil)
    }

    @Test func colorKernel() throws {
        let image = Self.picture()

        let cx: Float = 320
        let cy: Float = 240
        let strength: Float = 0.8
        let invR2: Float = 1 / (400 * 400)
        let vignette = ColorKernel(name: "vignette", alphaHandling: .premultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            let dy = Float(row.y) + 0.5 - cy
            for i in 0..<row.count {
                let dx = Float(row.x + i) + 0.5 - cx
                let k = max(0, 1 - strength * (dx * dx + dy * dy) * invR2)
                p.red[i] *= k
                p.green[i] *= k
                p.blue[i] *= k
            }
        }
        let out = image.applying(vignette, arguments: "strength=\(strength)")

        let o = try Self.render(out)
        let i = try Self.render(image)
        for (x, y) in [(0, 0), (320, 240), (600, 50)] {
            let dx = Float(x) + 0.5 - cx
            let dy = Float(y) + 0.5 - cy
            let k = max(0, 1 - strength * (dx * dx + dy * dy) * invR2)
            #expect(abs(o.pixel(x: x, y: y).x - i.pixel(x: x, y: y).x * k) < 1e-5)
            #expect(o.pixel(x: x, y: y).w == 1)
        }
    }

    @Test func warpKernel() throws {
        let image = Self.picture()

        let width = Float(image.extent.width)
        let mirror = WarpKernel(name: "mirror") { row in
            for i in 0..<row.count {
                row.sourceX[i] = width - (Float(row.x + i) + 0.5)
                row.sourceY[i] = Float(row.y) + 0.5
            }
        }
        let flipped = mirror.apply(extent: image.extent, image: image, arguments: "width=\(width)", sampling: .nearest)
        { rect in
            Rect(x: Double(width) - rect.maxX, y: rect.minY, width: rect.width, height: rect.height)
        }

        let o = try Self.render(flipped)
        let i = try Self.render(image)
        for (x, y) in [(0, 0), (13, 240), (639, 479)] { #expect(o.pixel(x: x, y: y) == i.pixel(x: 639 - x, y: y)) }
    }

    @Test func generalKernel() throws {
        let image = Self.picture()

        let box3 = GeneralKernel(name: "box3") { row in
            let s = row.sampler(0)
            for i in 0..<row.count {
                var sum = SIMD4<Float>()
                for dy in -1...1 { for dx in -1...1 { sum += s.pixel(x: row.x + i + dx, y: row.y + dy) } }
                row.store(sum / 9, at: i)
            }
        }
        let blurred = box3.apply(extent: image.extent, inputs: [image]) { _, rect in rect.insetBy(dx: -1, dy: -1) }

        let o = try Self.render(blurred)
        let i = try Self.render(image)
        for (x, y) in [(10, 10), (64, 63), (300, 200)] {  // tile edges included (tiles are 64 pixels)
            var sum = SIMD4<Float>()
            for dy in -1...1 { for dx in -1...1 { sum += i.pixel(x: x + dx, y: y + dy) } }
            #expect(abs(o.pixel(x: x, y: y).x - sum.x / 9) < 1e-5)
        }
    }

    /// The seed's 5 × 5 table, and a larger picture against a brute-force sum, rendered in 64-pixel tiles.
    @Test func integralImage() throws {
        let table: [[Float]] = [
            [1, 4, 5, 3, 2], [0, 2, 4, 6, 3], [3, 7, 8, 2, 1], [6, 8, 3, 4, 7], [7, 2, 1, 0, 3],
        ]
        let expected: [[Float]] = [
            [1, 5, 10, 13, 15], [1, 7, 16, 25, 30], [4, 17, 34, 45, 51], [10, 31, 51, 66, 79], [17, 40, 61, 76, 92],
        ]
        var b = PixelBuffer(width: 5, height: 5, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        for y in 0..<5 { for x in 0..<5 { b.setPixel(SIMD4(table[y][x], table[y][x], table[y][x], 1), x: x, y: y) } }
        for (source, check) in [(Image(buffer: b), true), (Self.picture(), false)] {

            let extent = source.extent
            let integral = ImageProcessor(
                description: "integralImage", inputFormat: .rgbaFloat, outputFormat: .rgbaFloat,
                roi: { _, rect in Rect(minX: extent.minX, minY: extent.minY, maxX: rect.maxX, maxY: rect.maxY) },
                process: { inputs, output in
                    let input = inputs[0]
                    let xShift = Int(output.region.minX - input.region.minX)  // where the tile starts inside the input
                    let yShift = Int(output.region.minY - input.region.minY)
                    let sums = output.scratch(byteCount: input.width * 4 * MemoryLayout<Float>.size)
                        .bindMemory(to: Float.self, capacity: input.width * 4)
                    sums.initialize(repeating: 0, count: input.width * 4)  // column sums of the rows so far
                    for j in 0..<input.height {
                        let row = input.row(j, as: Float.self)
                        // This row's sums up to column i.
                        var r: Float = 0
                        var g: Float = 0
                        var b: Float = 0
                        for i in 0..<input.width {
                            r += row[4 * i]
                            g += row[4 * i + 1]
                            b += row[4 * i + 2]
                            sums[4 * i] += r
                            sums[4 * i + 1] += g
                            sums[4 * i + 2] += b
                        }
                        guard j >= yShift else { continue }
                        let out = output.row(j - yShift, as: Float.self)
                        for i in 0..<output.width {
                            let k = 4 * (i + xShift)
                            out[4 * i] = sums[k]
                            out[4 * i + 1] = sums[k + 1]
                            out[4 * i + 2] = sums[k + 2]
                            out[4 * i + 3] = 1
                        }
                    }
                }
            )
            let sums = integral.apply(to: [source], extent: extent)

            let w = Int(extent.width)
            let h = Int(extent.height)
            let o = try Self.context.createBuffer(sums, format: .rgbaFloat, colorSpace: nil)
            if check {
                for y in 0..<5 { for x in 0..<5 { #expect(o.pixel(x: x, y: y).x == expected[y][x], "(\(x), \(y))") } }
            } else {
                let i = try Self.render(source)
                for (x, y) in [(0, 0), (63, 64), (64, 64), (200, 130), (w - 1, h - 1)] {
                    var total = 0.0
                    for yy in 0...y { for xx in 0...x { total += Double(i.pixel(x: xx, y: yy).y) } }
                    #expect(abs(Double(o.pixel(x: x, y: y).y) - total) <= total * 1e-5 + 1e-3, "(\(x), \(y))")
                }
            }
        }
    }

    @Test func filter() throws {
        let image = Self.picture()

        let typed = image.applyingFilter(Vignette { $0.strength = 0.5 })
        let registry = FilterRegistry.builtIn.adding(Vignette.self)
        let styled = try registry.apply("SimpleVignette", to: image, parameters: ["strength": 0.5])

        #expect(try Self.render(typed).pixel(x: 5, y: 7) == Self.render(styled).pixel(x: 5, y: 7))
        #expect(Vignette.descriptor.parameter(named: "strength")?.defaultValue?.description == "0.8")
        let o = try Self.render(styled)
        let i = try Self.render(image)
        #expect(abs(o.pixel(x: 320, y: 240).x - i.pixel(x: 320, y: 240).x) < 1e-3)  // the centre is untouched
        #expect(o.pixel(x: 0, y: 0).z < i.pixel(x: 0, y: 0).z * 0.6)  // the corner is darker
        #expect(registry.names.contains("SimpleVignette") && registry.names.contains("GaussianBlur"))
    }
}
