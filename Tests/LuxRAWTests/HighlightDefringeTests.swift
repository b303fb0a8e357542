import LuxPixels
import LuxRAW
import LuxRender
import LuxTestSupport
import Testing

@Suite struct HighlightDefringeTests {
    /// White-balance gains of a daylight raw (red 2.5, green 1, blue 1.5).
    static let gains = SIMD3<Float>(2.5, 1, 1.5)

    /// A 48 × 32 white-balanced camera-RGB field: a clipped window (columns 8…15, every photosite at the clip) with a
    /// magenta fringe just right of it (columns 16…19), a red patch left of it (columns 4…7) and the same magenta
    /// far away (columns 36…39).
    static func field() -> PixelBuffer {
        var b = PixelBuffer(width: 48, height: 32, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        b.withUnsafeMutablePlane { plane in
            for y in 0..<32 {
                let row = plane.row(y, as: Float.self)
                for x in 0..<48 {
                    let c: SIMD3<Float> =
                        switch x {
                        case 4..<8: SIMD3(0.6, 0.2, 0.2)
                        case 8..<16: gains
                        case 16..<20, 36..<40: SIMD3(0.5, 0.3, 0.45)
                        default: SIMD3(0.3, 0.3, 0.3)
                        }
                    for k in 0..<3 { row[4 * x + k] = c[k] }
                    row[4 * x + 3] = 1
                }
            }
        }
        return b
    }

    @Test(
        "Magenta within the radius of a clipped photosite turns neutral (green raised to min(R, B), R + G + B kept); red there and magenta far away stay"
    )
    func fadesMagentaNearClip() throws {
        let image = Image(buffer: Self.field(), colorSpace: .extendedLinearSRGB)
        let out = try RenderContext().createBuffer(
            HighlightDefringe(radius: 4, gains: Self.gains).apply(to: image), format: .rgbaFloat,
            colorSpace: .extendedLinearSRGB)
        func near(_ a: SIMD4<Float>, _ b: SIMD3<Float>) -> Bool {
            abs(a.x - b.x) < 1e-4 && abs(a.y - b.y) < 1e-4 && abs(a.z - b.z) < 1e-4
        }
        // m = min(0.5, 0.45) − 0.3 = 0.15: R and B lose m/3, G gains 2m/3 → (0.45, 0.4, 0.4), sum 1.25 as before.
        for x in 16..<20 {
            let p = out.pixel(x: x, y: 16)
            #expect(near(p, SIMD3(0.45, 0.4, 0.4)), "fringe at \(x): \(p)")
        }
        for x in 4..<8 { #expect(near(out.pixel(x: x, y: 16), SIMD3(0.6, 0.2, 0.2)), "red at \(x)") }
        for x in 36..<40 { #expect(near(out.pixel(x: x, y: 16), SIMD3(0.5, 0.3, 0.45)), "far magenta at \(x)") }
        // The window's own magenta part, min(2.5, 1.5) − 1 = 0.5, goes too: (2.5 − 1/6, 1 + 1/3, 1.5 − 1/6).
        let window = out.pixel(x: 12, y: 16)
        #expect(abs((window.x + window.y + window.z) - 5) < 1e-3 && abs(window.y - window.z) < 1e-4, "\(window)")
    }

    @Test("Below the fade's start nothing changes: a raw peak of 0.85 leaves the magenta beside it")
    func leavesUnclippedAlone() throws {
        var b = Self.field()
        b.withUnsafeMutablePlane { plane in
            for y in 0..<32 {
                let row = plane.row(y, as: Float.self)
                for x in 8..<16 {
                    for k in 0..<3 { row[4 * x + k] = 0.85 * Self.gains[k] }
                }
            }
        }
        let out = try RenderContext().createBuffer(
            HighlightDefringe(radius: 4, gains: Self.gains).apply(
                to: Image(buffer: b, colorSpace: .extendedLinearSRGB)),
            format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        let p = out.pixel(x: 17, y: 16)
        #expect(abs(p.x - 0.5) < 1e-4 && abs(p.y - 0.3) < 1e-4 && abs(p.z - 0.45) < 1e-4, "\(p)")
    }

    @Test(
        "Fused into noise reduction it gives the bits of the two stages in turn, at tile seams and image edges",
        arguments: [16, 64])
    func fusedIntoNoiseReduction(tileSize: Int) throws {
        // The field with noise, and clipped windows touching the top-left corner and the right edge.
        var b = Self.field()
        var random = SplitMix(seed: 7)
        b.withUnsafeMutablePlane { plane in
            for y in 0..<32 {
                let row = plane.row(y, as: Float.self)
                for x in 0..<48 {
                    let clipped = (x < 3 && y < 5) || (x >= 45 && (10..<14).contains(y))
                    for k in 0..<3 {
                        let noise = random.unit() - 0.5
                        row[4 * x + k] = clipped ? Self.gains[k] : row[4 * x + k] * (1 + 0.2 * noise)
                    }
                }
            }
        }
        let image = Image(buffer: b, colorSpace: .extendedLinearSRGB)
        let defringe = HighlightDefringe(radius: 4, gains: Self.gains)
        let nr = NoiseReduction(
            luminanceAmount: 0.6, colorAmount: 0.8, noiseModel: SIMD2(2e-3, 1e-5), gains: Self.gains)
        var fusedNR = nr
        fusedNR.defringe = defringe
        let context = RenderContext(options: RenderOptions(cacheIntermediates: false, tileSize: tileSize))
        func render(_ image: Image) throws -> [UInt32] {
            let out = try context.createBuffer(image, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
            return (0..<32).flatMap { y in
                (0..<48).flatMap { x in
                    let p = out.pixel(x: x, y: y)
                    return [p.x.bitPattern, p.y.bitPattern, p.z.bitPattern]
                }
            }
        }
        let separate = try render(nr.apply(to: defringe.apply(to: image)))
        let fused = try render(fusedNR.apply(to: image))
        #expect(fused == separate)
        // Not a no-op: the fringe beside the window is faded, and noise reduction changed the field.
        #expect(separate != (try render(nr.apply(to: image))))
        #expect(separate != (try render(defringe.apply(to: image))))
    }
}
