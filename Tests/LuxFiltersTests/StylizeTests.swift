import Foundation
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// The cell filters on a coordinate ramp (red = x, green = y of the pixel centre), so each output pixel tells which
/// point of the source its cell took: HexagonalPixelate against a brute-force nearest lattice point, Crystallize by
/// the defining property of a Voronoi diagram.
@Suite struct StylizeTests {
    static let size = 64
    static let ramp = coordinateRamp(size: size)

    static func isInside(_ x: Double, _ y: Double) -> Bool {
        x > 1 && y > 1 && x < Double(size - 1) && y < Double(size - 1)
    }

    @Test(
        "HexagonalPixelate: every pixel takes the source at its nearest centre of the lattice c + s·(i + j/2, j·√3/2)")
    func hexagons() throws {
        let c = Point(x: 30.3, y: 28.7)
        let scale = 7.0
        let out = try renderFloat(Self.ramp.hexagonalPixelate(center: c, scale: scale))
        var checked = 0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let px = Double(x) + 0.5
                let py = Double(y) + 0.5
                var best = (0.0, 0.0)
                var bestDistance = Double.infinity
                var second = Double.infinity
                for j in -8...8 {
                    for i in -8...8 {
                        let qx = c.x + scale * (Double(i) + Double(j) / 2)
                        let qy = c.y + scale * Double(j) * 3.0.squareRoot() / 2
                        let d = ((qx - px) * (qx - px) + (qy - py) * (qy - py)).squareRoot()
                        if d < bestDistance {
                            second = bestDistance
                            bestDistance = d
                            best = (qx, qy)
                        } else if d < second {
                            second = d
                        }
                    }
                }
                // Pixels on a hexagon's edge may go either way.
                guard second - bestDistance > 1e-3, Self.isInside(best.0, best.1) else { continue }
                let p = pixel(out, y * Self.size + x)
                #expect(abs(p.x - best.0) < 1e-3 && abs(p.y - best.1) < 1e-3, "(\(x), \(y))")
                checked += 1
            }
        }
        #expect(checked > 2000)
    }

    @Test("Crystallize: cells are constant and each pixel's site is at least as near as every other site")
    func crystals() throws {
        let out = try renderFloat(Self.ramp.crystallize(radius: 9, center: Point(x: 4, y: 6)))
        var sites: Set<SIMD2<Float>> = []
        for p in 0..<(Self.size * Self.size) { sites.insert(SIMD2(out[4 * p], out[4 * p + 1])) }
        // About (64 / 9)² sites; sites outside the ramp read transparent and are left out.
        let inside = sites.filter { Self.isInside(Double($0.x), Double($0.y)) }
        #expect(inside.count > 25 && inside.count < 80, "\(inside.count) sites")
        var checked = 0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let p = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
                let own = SIMD2(out[4 * (y * Self.size + x)], out[4 * (y * Self.size + x) + 1])
                guard inside.contains(own) else { continue }
                let d = ((own - p) * (own - p)).sum()
                let nearer = inside.filter { (($0 - p) * ($0 - p)).sum() < d - 1e-3 }
                #expect(nearer.isEmpty, "(\(x), \(y)) took \(own) but \(nearer.first!) is nearer")
                checked += 1
            }
        }
        #expect(checked > 3000)
    }

    @Test("Pointillize: dots of one site colour within radius of their site, no nearer site, clear between them")
    func pointillize() throws {
        let radius = 5.0
        let out = try renderFloat(Self.ramp.pointillize(radius: radius, center: Point(x: 3, y: 7)))
        // Fully covered pixels tell their site (the ramp's value there).
        var sites: Set<SIMD2<Float>> = []
        for p in 0..<(Self.size * Self.size) where out[4 * p + 3] == 1 {
            sites.insert(SIMD2(out[4 * p], out[4 * p + 1]))
        }
        let inside = sites.filter { Self.isInside(Double($0.x), Double($0.y)) }
        // One site per 7.5-pixel square: about (64 / 7.5)² = 73.
        #expect(inside.count > 45 && inside.count < 95, "\(inside.count) sites")
        var dots = 0
        var gaps = 0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let p = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
                let q = pixel(out, y * Self.size + x)
                let nearest = inside.map { (($0 - p) * ($0 - p)).sum().squareRoot() }.min() ?? .infinity
                if q.w == 1 {
                    let own = SIMD2(Float(q.x), Float(q.y))
                    guard inside.contains(own) else { continue }
                    let d = ((own - p) * (own - p)).sum().squareRoot()
                    #expect(d <= Float(radius) - 0.5 + 1e-3, "(\(x), \(y)) is \(d) from its site")
                    #expect(d <= nearest + 1e-3, "(\(x), \(y)) took \(own), not the nearest site")
                    dots += 1
                } else if q.w == 0, x > 8, y > 8, x < Self.size - 8, y < Self.size - 8 {
                    // Away from the border every site near the pixel was seen.
                    #expect(nearest >= Float(radius) + 0.5 - 1e-3, "(\(x), \(y)) is clear \(nearest) from a site")
                    gaps += 1
                }
            }
        }
        #expect(dots > 2000 && gaps > 50, "\(dots) dot pixels, \(gaps) clear ones")
    }

    @Test(
        "rendering a part equals the same part of the whole (the ROIs cover every source position)",
        arguments: [
            "hexagonal", "crystallize", "bumpLinear", "sixfold", "triangle", "kaleidoscope", "perspective", "mirrors",
            "affine", "pointillize",
        ])
    func regionOfInterest(name: String) throws {
        let c = Point(x: 30.5, y: 20.25)
        let image =
            switch name {
            case "hexagonal": Self.ramp.hexagonalPixelate(center: c, scale: 11)
            case "crystallize": Self.ramp.crystallize(radius: 13, center: c)
            case "pointillize": Self.ramp.pointillize(radius: 7, center: c)
            case "bumpLinear": Self.ramp.bumpDistortionLinear(center: c, radius: 20, angle: 0.6, scale: -0.9)
            case "sixfold": Self.ramp.sixfoldReflectedTile(center: c, angle: 0.3, width: 25)
            case "mirrors": Self.ramp.kaleidoscope(count: 5, center: c, angle: 0.7)
            case "affine": Self.ramp.affineTile(AffineTransform(rotationAngle: 0.4).scaledBy(x: 0.7, y: 0.5))
            case "kaleidoscope": Self.ramp.triangleKaleidoscope(point: c, size: 30, rotation: 0.5, decay: 0.7)
            case "perspective":
                Self.ramp.perspectiveTile(
                    Quadrilateral(
                        topLeft: Point(x: 5, y: 8), topRight: Point(x: 50, y: 2), bottomRight: Point(x: 44, y: 40),
                        bottomLeft: Point(x: 12, y: 30)))
            default: Self.ramp.triangleTile(center: c, angle: -0.2, width: 30)
            }
        let whole = try renderFloat(image, Rect(width: Self.size, height: Self.size))
        // Every 12-pixel part: parts inside one copy of a tile read less of the image than parts across copies.
        for y0 in stride(from: 0, through: Self.size - 12, by: 12) {
            for x0 in stride(from: 0, through: Self.size - 12, by: 12) {
                let part = try renderFloat(image, Rect(x: x0, y: y0, width: 12, height: 12))
                for y in 0..<12 {
                    for x in 0..<12 {
                        #expect(pixel(part, y * 12 + x) == pixel(whole, (y + y0) * Self.size + x + x0), "\(name)")
                    }
                }
            }
        }
    }

    @Test(
        "Bloom and Gloom equal image + intensity·(screen or multiply of image and vips' Gaussian − image)",
        .enabled(
            if: ExternalTool.isAvailable("vips") && ExternalTool.isAvailable("djpeg"),
            "needs vips and djpeg (libvips-tools, libjpeg-turbo-progs)"),
        arguments: ["bloom", "gloom"])
    func glow(name: String) throws {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let crop = try TestPhoto.crop(width: 160, height: 120)
        try NetPBM.writePPM(crop, to: dir + "/in.ppm")
        // vips blurs with edge copying, as the filters do.
        try ExternalTool.run(
            "vips", ["gaussblur", dir + "/in.ppm", dir + "/out.v", "6", "--precision", "float", "--min-ampl", "0.001"])
        try ExternalTool.run("vips", ["rawsave", dir + "/out.v", dir + "/out.raw"])
        let raw = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.raw"))
        let blurred = raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let image = Image(buffer: crop)
        let filtered = name == "bloom" ? image.bloom(radius: 6, intensity: 0.7) : image.gloom(radius: 6, intensity: 0.7)
        let out = try renderFloat(filtered)
        let input = try renderFloat(image)
        var sum = 0.0
        for p in 0..<(160 * 120) {
            for c in 0..<3 {
                let a = Double(input[4 * p + c])
                let b = Double(blurred[3 * p + c]) / 255
                let blend = name == "bloom" ? a + b - a * b : a * b
                sum += abs(Double(out[4 * p + c]) - (a + 0.7 * (blend - a))) * 255
            }
        }
        let mean = sum / Double(160 * 120 * 3)
        #expect(mean <= 0.3, "\(name): mean difference \(mean) levels")
    }

    @Test("Edges is intensity·√(Gx² + Gy²) of the Sobel kernels per component, edges extended, alpha 1")
    func edges() throws {
        let (w, h) = (23, 17)
        let input = try renderFloat(Image(buffer: randomBuffer(width: w, height: h, seed: 5)))
        let out = try renderFloat(Image(buffer: randomBuffer(width: w, height: h, seed: 5)).edges(intensity: 2.5))
        func v(_ x: Int, _ y: Int, _ c: Int) -> Double {
            Double(input[4 * (min(max(y, 0), h - 1) * w + min(max(x, 0), w - 1)) + c])
        }
        var worst = 0.0
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    let gx =
                        v(x + 1, y - 1, c) - v(x - 1, y - 1, c) + 2 * (v(x + 1, y, c) - v(x - 1, y, c))
                        + v(x + 1, y + 1, c) - v(x - 1, y + 1, c)
                    let gy =
                        v(x - 1, y + 1, c) - v(x - 1, y - 1, c) + 2 * (v(x, y + 1, c) - v(x, y - 1, c))
                        + v(x + 1, y + 1, c) - v(x + 1, y - 1, c)
                    worst = max(worst, abs(Double(out[4 * (y * w + x) + c]) - 2.5 * (gx * gx + gy * gy).squareRoot()))
                }
                #expect(out[4 * (y * w + x) + 3] == 1)
            }
        }
        #expect(worst < 1e-4, "worst \(worst)")
    }

    @Test("SpotLight multiplies by brightness·L.z·(−L·S)^concentration·color (SVG feSpotLight), hand-computed")
    func spotLight() throws {
        let gray = Image(
            buffer: PixelBuffer(
                width: 8, height: 8, format: .rgbaFloat, components: [Float](repeating: 0.5, count: 256)))
        let light = gray.spotLight(
            position: SIMD3(4, 4, 10), pointsAt: SIMD3(4, 4, 0), brightness: 2, concentration: 3,
            color: Color(red: 1, green: 0.5, blue: 0.25))
        let out = try renderFloat(light)
        // Pixel (0, 0): centre (0.5, 0.5); L = (3.5, 3.5, 10)/|…|, S = (0, 0, −1): L.z = −L·S = 10/√124.5.
        let cosine = 10 / 124.5.squareRoot()
        let f = 2 * cosine * pow(cosine, 3)
        let p = pixel(out, 0)
        #expect(abs(p.x - 0.5 * f) < 1e-5 && abs(p.y - 0.25 * f) < 1e-5 && abs(p.z - 0.125 * f) < 1e-5)
        // Directly below the light the factor is the brightness; alpha is kept.
        let q = try renderFloat(light, Rect(x: 3, y: 3, width: 2, height: 2))
        #expect(abs(pixel(q, 0).x - 0.5 * 2 * pow(10 / 100.5.squareRoot(), 4)) < 1e-4 && pixel(q, 0).w == 0.5)
    }

    /// A 20 × 10 opaque step: black in columns 0…9, white in 10…19.
    static let step = Image(
        buffer: PixelBuffer(
            width: 20, height: 10, format: .rgbaFloat,
            components: (0..<200).flatMap { p -> [Float] in p % 20 < 10 ? [0, 0, 0, 1] : [1, 1, 1, 1] }))

    @Test("LineOverlay on a clean step: Sobel luma 4 beside the step gives opaque black there, transparency elsewhere")
    func lineOverlay() throws {
        // Noise level 0.001 and sharpness 0 make the noise reduction the identity on a clean step.
        let out = try renderFloat(
            Self.step.applyingFilter(
                Filters.LineOverlay {
                    $0.nrNoiseLevel = 0.001
                    $0.nrSharpness = 0
                }))
        for p in 0..<200 {
            let onEdge = p % 20 == 9 || p % 20 == 10
            #expect(pixel(out, p).w == (onEdge ? 1 : 0), "column \(p % 20)")
            if onEdge { #expect(pixel(out, p).x == 0) }
        }
    }

    @Test("EdgeWork without blur: black strokes beside the step (luma 4 ≥ 0.5), white elsewhere, opaque")
    func edgeWork() throws {
        let out = try renderFloat(Self.step.edgeWork(radius: 0))
        for p in 0..<200 {
            let v: Double = p % 20 == 9 || p % 20 == 10 ? 0 : 1
            #expect(pixel(out, p) == SIMD4(v, v, v, 1), "column \(p % 20)")
        }
    }

    @Test("ComicEffect is the CMYK halftone where there are no edges and black beside a step")
    func comic() throws {
        let out = try renderFloat(Self.step.comicEffect())
        let halftone = try renderFloat(Self.step.cmykHalftone(center: .zero))
        for p in 0..<200 {
            if p % 20 < 6 || p % 20 > 13 { #expect(pixel(out, p) == pixel(halftone, p), "column \(p % 20)") }
            if p % 20 == 9 || p % 20 == 10 { #expect(pixel(out, p) == SIMD4(0, 0, 0, 1), "column \(p % 20)") }
        }
    }

    @Test("HeightFieldFromMask across a step: √(1 − (1 − t)²), t = 2Φ(x/σ) − 1 from the Gaussian-blurred edge")
    func heightField() throws {
        let mask = Image(
            buffer: PixelBuffer(
                width: 80, height: 6, format: .rgbaFloat,
                components: (0..<480).flatMap { p -> [Float] in p % 80 < 40 ? [0, 0, 0, 1] : [1, 1, 1, 1] }))
        let out = try renderFloat(mask.heightFieldFromMask(radius: 4))
        var checked = 0
        for x in 0..<80 {
            let b = 0.5 * (1 + erf((Double(x) + 0.5 - 40) / (4 * 2.0.squareRoot())))
            let t = min(max(2 * b - 1, 0), 1)
            let h = pixel(out, 2 * 80 + x)
            #expect(h.w == 1)
            if b < 0.499 { #expect(h.x == 0, "column \(x)") }
            guard t > 0.2 else { continue }
            #expect(abs(h.x - (1 - (1 - t) * (1 - t)).squareRoot()) < 5e-3, "column \(x)")
            checked += 1
        }
        #expect(checked > 30)
    }

    @Test("ShadedMaterial on a tilted plane reads the sphere at its centre + (nx, ny)·half its size, hand-computed")
    func shadedMaterial() throws {
        let height = Image(
            buffer: PixelBuffer(
                width: 60, height: 10, format: .rgbaFloat,
                components: (0..<600).flatMap { p -> [Float] in
                    let v = 0.01 * Float(p % 60)
                    return [v, v, v, 1]
                }))
        let sphere = coordinateRamp(size: 40)
        let out = try renderFloat(height.shadedMaterial(shading: sphere, scale: 30))
        // Slope 0.01 per pixel times 30: normal (−0.3, 0, 1)/√1.09.
        let expected = 20 - 0.3 / 1.09.squareRoot() * 20
        for y in 0..<10 {
            for x in 1..<59 {
                let p = pixel(out, y * 60 + x)
                #expect(abs(p.x - expected) < 1e-3 && abs(p.y - 20) < 1e-3, "(\(x), \(y))")
            }
        }
    }
}
