import LuxColor
import LuxPixels
import RealModule
import Testing

@testable import LuxScene

/// Measures the blur of a vertical edge: the standard deviation (pixels) of the derivative of the
/// row-averaged profile (channel Y).
func edgeSigma(_ image: RadianceImage) -> Double {
    let w = image.width
    let h = image.height
    var profile = [Double](repeating: 0, count: w)
    for y in (h / 4)..<(3 * h / 4) { for x in 0..<w { profile[x] += Double(image.value(x: x, y: y).y) } }
    let d = (1..<w).map { abs(profile[$0] - profile[$0 - 1]) }
    let total = d.reduce(0, +)
    let mean = d.enumerated().reduce(0) { $0 + Double($1.offset) * $1.element } / total
    let variance =
        d.enumerated().reduce(0) { $0 + (Double($1.offset) - mean) * (Double($1.offset) - mean) * $1.element } / total
    return variance.squareRoot()
}

/// A frame-filling layer at `distance`: white on the right, black on the left of x = 0.5.
func edgeScene(distance: Double, motion: LayerMotion = .none) -> Scene {
    Scene(
        name: "edge",
        layers: [
            SceneLayer(
                name: "edge", distance: distance,
                shapes: [
                    Shape(.everywhere, color: SurfaceColor(reflectance: 0.8)),
                    Shape(
                        .rectangle(origin: SIMD2(-1, -1), size: SIMD2(1.5, 3)), color: SurfaceColor(reflectance: 0.05)),
                ], motion: motion)
        ], light: Light(.d65, lux: 1000))
}

/// A full-resolution (4032 px wide frame) window of `size` pixels centred on the frame's centre.
func centreWindow(_ size: Int, optics: RenderRequest.Optics? = nil, duration: Double = 0) -> RenderRequest {
    var r = RenderRequest(width: size, height: size / 2, exposureDuration: duration, optics: optics)
    let px = 1.0 / 4032
    r.regionSize = SIMD2(Double(size) * px, Double(size / 2) * px)
    r.regionOrigin = SIMD2(0.5, 0.375) - r.regionSize / 2
    return r
}

/// Every sample of an image's three planes, plane by plane and row by row.
func samples(_ image: RadianceImage) -> [Float] {
    var out: [Float] = []
    for p in 0..<3 {
        for y in 0..<image.height { out += UnsafeBufferPointer(start: image.storage.row(p, y), count: image.width) }
    }
    return out
}

@Suite struct RendererTests {
    let lens = ThinLens.phoneWide
    let sensorWidth = 4032 * 0.0014

    @Test("A grey card's luminance is ρE/π cd/m²")
    func luminanceUnits() throws {
        let scene = Scene.grayCard(light: Light(.d65, lux: 1000), reflectance: 0.18)
        let img = try SceneRenderer(scene: scene).render(RenderRequest(width: 64, height: 48))
        let y = img.mean(x: 0, y: 0, width: 64, height: 48).y
        #expect(abs(y - 0.18 * 1000 / Double.pi) < 1e-3)
    }

    @Test("Rendered ColorChecker patches have their published Lab values (D50)")
    func colorCheckerPatches() throws {
        let scene = Scene.colorChecker(light: Light(.d50, lux: 1000))
        let img = try SceneRenderer(scene: scene).render(RenderRequest(width: 400, height: 300))
        let white = SurfaceColor.white.xyz(under: .d50) * (1000 / Double.pi)
        for i in 0..<24 {
            let p = Scene.colorCheckerPatch(i)
            let x = Int((p.origin.x + p.size.x * 0.3) * 400)
            let y = Int((p.origin.y + p.size.y * 0.3) * 400)
            let xyz = img.mean(x: x, y: y, width: 10, height: 10)
            let lab = Lab.fromXYZ(xyz / white * WhitePoint.iccD50XYZ, white: WhitePoint.d50)
            let e = ((lab - ColorChecker.classic24[i].lab) * (lab - ColorChecker.classic24[i].lab)).sum().squareRoot()
            #expect(e < 0.02, "patch \(i + 1): \(lab)")
        }
    }

    // 0.2 m is 12 px of σ: rendered on a card six times coarser and interpolated back.
    @Test("Defocus blur follows the thin-lens circle of confusion", arguments: [0.2, 0.45, 0.7, 2.0])
    func defocusMatchesThinLens(distance: Double) throws {
        let focus = 1.0
        let optics = RenderRequest.Optics(lens: lens, focusDistance: focus, sensorWidth: sensorWidth)
        let img = try SceneRenderer(scene: edgeScene(distance: distance)).render(centreWindow(200, optics: optics))
        let measured = (edgeSigma(img) * edgeSigma(img) - 1.0 / 12).squareRoot()  // remove the pixel's own box
        let expected = lens.blurDiameter(objectDistance: distance, focusDistance: focus) / 0.0014 / 2.4
        #expect(abs(measured / expected - 1) < 0.05, "σ \(measured) px, expected \(expected)")
    }

    @Test("Objects inside the depth of field are sharper than the circle of confusion, outside they are not")
    func depthOfFieldSharpness() throws {
        var lens = self.lens
        lens.circleOfConfusion = 4 * 0.0014  // 4 pixels: large enough to measure cleanly
        let focus = 1.2
        let dof = lens.depthOfField(focusDistance: focus)
        let optics = RenderRequest.Optics(lens: lens, focusDistance: focus, sensorWidth: sensorWidth)
        func blurDiameterPixels(_ d: Double) throws -> Double {
            let img = try SceneRenderer(scene: edgeScene(distance: d)).render(centreWindow(160, optics: optics))
            let s = edgeSigma(img)
            return 2.4 * max(0, s * s - 1.0 / 12).squareRoot()
        }
        let threshold = lens.circleOfConfusion / 0.0014
        for d in [dof.lowerBound * 1.03, focus, dof.upperBound * 0.97] {
            #expect(try blurDiameterPixels(d) < threshold, "distance \(d) is inside \(dof)")
        }
        for d in [dof.lowerBound * 0.9, dof.upperBound * 1.15] {
            #expect(try blurDiameterPixels(d) > threshold, "distance \(d) is outside \(dof)")
        }
    }

    @Test("Motion during the exposure smears an edge over the distance travelled")
    func motionBlur() throws {
        // 0.005 frame widths per 1/100 s over 4032 px = 20.16 px of travel.
        let motion = LayerMotion(velocity: SIMD2(0.5, 0))
        let img = try SceneRenderer(scene: edgeScene(distance: 1, motion: motion)).render(
            centreWindow(200, duration: 0.01))
        let travel = 0.5 * 0.01 * 4032
        let s = edgeSigma(img)
        // A box of width L has variance L²/12; the pixel adds 1/12.
        let expected = ((travel * travel + 1) / 12).squareRoot()
        #expect(abs(s / expected - 1) < 0.05, "σ \(s), expected \(expected)")
    }

    @Test("Flash light falls off with the square of the distance")
    func flashInverseSquare() throws {
        let layers = [
            SceneLayer(name: "far", distance: 2, shapes: [Shape(.everywhere, color: .white)]),
            SceneLayer(
                name: "near", distance: 1,
                shapes: [Shape(.rectangle(origin: .zero, size: SIMD2(0.5, 0.75)), color: .white)]),
        ]
        let scene = Scene(name: "dark", layers: layers, light: Light(.d65, lux: 0))
        var request = RenderRequest(width: 80, height: 60)
        request.flash = Flash(illuminanceAtOneMetre: 100)
        let img = try SceneRenderer(scene: scene).render(request)
        let near = img.mean(x: 10, y: 10, width: 10, height: 10).y
        let far = img.mean(x: 60, y: 10, width: 10, height: 10).y
        #expect(abs(near - 100 / Double.pi) < 1e-3)
        #expect(abs(near / far - 4) < 1e-4)
    }

    @Test("Renders are bit-identical on 1, 2 and 3 threads")
    func determinism() throws {
        var scene = Scene.stillLife()
        scene.cameraMotion = .handheld
        let optics = RenderRequest.Optics(lens: lens, focusDistance: 0.6, sensorWidth: sensorWidth)
        let request = RenderRequest(
            width: 320, height: 240, exposureStart: 0.1, exposureDuration: 1.0 / 15, optics: optics)
        let renderer = SceneRenderer(scene: scene)
        let a = try renderer.render(request, threads: 1)
        for threads in [2, 3] {
            let b = try renderer.render(request, threads: threads)
            #expect(samples(a).map(\.bitPattern) == samples(b).map(\.bitPattern))
        }
    }

    @Test("Layers rendered on coarse cards match the same layers rendered on the grid", arguments: [0.16, 0.25])
    func coarseCardsMatchGrid(focus: Double) throws {
        // Focused close, every layer of the still life is 5…20 px out of focus at full resolution (cards 2…10
        // times coarser); a shaking camera also exercises the time samples on the coarse cards.
        var scene = Scene.stillLife()
        scene.cameraMotion = CameraMotion(shakeRMSDegrees: 0.1, seed: 5)
        let optics = RenderRequest.Optics(lens: lens, focusDistance: focus, sensorWidth: sensorWidth)
        var request = centreWindow(640, optics: optics, duration: 1.0 / 30)
        request.regionOrigin = SIMD2(0.3, 0.3)
        let coarse = try SceneRenderer(scene: scene).render(request, threads: 2)
        request.allowsCoarseCards = false
        let grid = try SceneRenderer(scene: scene).render(request, threads: 2)
        let coarseSamples = samples(coarse)
        let gridSamples = samples(grid)
        let n = coarseSamples.count
        var level = 0.0
        var sum = 0.0
        var worst = 0.0
        for i in 0..<n { level += Double(gridSamples[i]) }
        level /= Double(n)
        for i in 0..<n {
            let d = abs(Double(coarseSamples[i]) - Double(gridSamples[i])) / level
            sum += d
            worst = max(worst, d)
        }
        // Both approximate the Gaussian to about 1 % of an edge's step (see the next test), from either side.
        #expect(sum / Double(n) < 2e-3 && worst < 2e-2, "mean \(sum / Double(n)), worst \(worst)")
    }

    @Test("A strongly defocused edge has the profile of the Gaussian blur, on a coarse card as on the grid")
    func defocusedEdgeProfile() throws {
        // 0.2 m with focus at 1 m: σ = 12 px, a card six times coarser.
        let optics = RenderRequest.Optics(lens: lens, focusDistance: 1, sensorWidth: sensorWidth)
        let sigma = lens.blurDiameter(objectDistance: 0.2, focusDistance: 1) / 0.0014 / 2.4
        for coarse in [true, false] {
            var request = centreWindow(200, optics: optics)
            request.allowsCoarseCards = coarse
            let img = try SceneRenderer(scene: edgeScene(distance: 0.2)).render(request)
            var profile = [Double](repeating: 0, count: img.width)
            for y in 0..<img.height { for x in 0..<img.width { profile[x] += Double(img.value(x: x, y: y).y) } }
            let dark = 0.05 * 1000 / Double.pi * Double(img.height)
            let light = 0.8 * 1000 / Double.pi * Double(img.height)
            // The edge lies on the boundary between pixels 99 and 100; the pixel's box adds 1/12 to the variance.
            let s = (sigma * sigma + 1.0 / 12).squareRoot()
            var worst = 0.0
            for x in 50..<150 {
                let expected = 0.5 * (1 + Double.erf((Double(x) + 0.5 - 100) / (s * 2.0.squareRoot())))
                worst = max(worst, abs((profile[x] - dark) / (light - dark) - expected))
            }
            #expect(worst < 0.012, "coarse cards \(coarse): largest difference \(worst) of the step (σ \(sigma) px)")
        }
    }

    @Test("Renders with coarse cards are bit-identical on 1, 2 and 3 threads")
    func coarseDeterminism() throws {
        var scene = Scene.stillLife()
        scene.cameraMotion = .handheld
        let optics = RenderRequest.Optics(lens: lens, focusDistance: 0.2, sensorWidth: sensorWidth)
        var request = centreWindow(480, optics: optics, duration: 1.0 / 30)
        request.regionOrigin = SIMD2(0.45, 0.45)
        let renderer = SceneRenderer(scene: scene)
        let a = try renderer.render(request, threads: 1)
        for threads in [2, 3] {
            let b = try renderer.render(request, threads: threads)
            #expect(samples(a).map(\.bitPattern) == samples(b).map(\.bitPattern))
        }
    }

    @Test("Hand-held shake has the configured RMS angle")
    func shakeRMS() {
        let motion = CameraMotion(shakeRMSDegrees: 0.05, seed: 3)
        var sum = SIMD3<Double>.zero
        let n = 20_000
        for k in 0..<n {
            let a = motion.angles(at: Double(k) * 0.01) * (180 / Double.pi)
            sum += a * a
        }
        let rms = (sum / Double(n)).squareRoot()
        #expect(abs(rms.x / 0.05 - 1) < 0.15 && abs(rms.y / 0.05 - 1) < 0.15)
        #expect(CameraMotion.tripod.angles(at: 3) == .zero)
    }

    @Test("Unknown scene names throw an error listing the known ones")
    func unknownScene() {
        #expect(throws: SceneError.self) { try Scene.named("moon") }
        #expect(Scene.catalogNames.allSatisfy { (try? Scene.named($0)) != nil })
    }

    @Test("Image-backed scenes keep the image's colours under D65")
    func imageScene() throws {
        var buffer = PixelBuffer(width: 40, height: 30, format: .rgbaFloat, colorSpace: .linearSRGB)
        for y in 0..<30 {
            for x in 0..<40 {
                buffer.setPixel(x < 20 ? SIMD4(0.5, 0.2, 0.1, 1) : SIMD4(0.18, 0.18, 0.18, 1), x: x, y: y)
            }
        }
        let scene = Scene.image(try SceneImage(buffer: buffer), light: Light(.d65, lux: 1000))
        let truth = try scene.groundTruth(width: 40, height: 30, colorSpace: .linearSRGB)
        let left = truth.pixel(x: 5, y: 15)
        let right = truth.pixel(x: 35, y: 15)
        #expect(abs(left.x - 0.5) < 2e-3 && abs(left.y - 0.2) < 2e-3 && abs(left.z - 0.1) < 2e-3)
        #expect(abs(right.x - 0.18) < 2e-3 && abs(right.z - 0.18) < 2e-3)
    }
}
