import LuxColor
import LuxPixels
import Testing

@testable import LuxScene

/// The camera's fast path (still layers rendered once, resampled along the camera's path for each exposure)
/// against the reference renderer, which paints every layer at every instant of the exposure.
@Suite struct ExposureRadianceTests {
    static let lens = ThinLens.phoneWide
    static let sensorWidth = 4032 * 0.0014

    static func request(width: Int, start: Double, duration: Double, focus: Double) -> RenderRequest {
        RenderRequest(
            width: width, height: width * 3 / 4, exposureStart: start, exposureDuration: duration,
            optics: RenderRequest.Optics(lens: lens, focusDistance: focus, sensorWidth: sensorWidth))
    }

    /// The CFA mosaic of the fast path.
    static func mosaic(_ e: ExposureRadiance, threads: Int = 1) -> [Float] {
        var out = [Float](repeating: 0, count: e.width * e.height)
        out.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            e.mosaicRows(0..<e.height, pattern: .rggb) { y, row in
                (base + y * e.width).update(from: row, count: e.width)
            }
        }
        return out
    }

    /// The same mosaic sampled from the reference renderer's three channels.
    static func mosaic(_ image: RadianceImage) -> [Float] {
        var out = [Float](repeating: 0, count: image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                out[y * image.width + x] = image.value(x: x, y: y)[CFAPattern.rggb.channel(x: x, y: y).rawValue]
            }
        }
        return out
    }

    /// Mean and largest difference relative to the mean level.
    static func compare(_ a: [Float], _ b: [Float]) -> (mean: Double, worst: Double) {
        let level = b.reduce(0.0) { $0 + Double($1) } / Double(b.count)
        var sum = 0.0
        var worst = 0.0
        for (x, y) in zip(a, b) {
            let d = abs(Double(x) - Double(y)) / level
            sum += d
            worst = max(worst, d)
        }
        return (sum / Double(a.count), worst)
    }

    @Test("On a tripod the cached radiance reproduces the reference render to half-float precision")
    func tripodMatchesReference() throws {
        let scene = Scene.stillLife()
        let request = Self.request(width: 320, start: 0, duration: 1.0 / 30, focus: 0.6)
        let cache = RadianceCache()
        let fast = Self.mosaic(cache.exposure(of: scene, sceneID: 1, request: request, threads: 2))
        let reference = Self.mosaic(try SceneRenderer(scene: scene).render(request, threads: 2))
        let (mean, worst) = Self.compare(fast, reference)
        #expect(mean < 3e-4 && worst < 4e-3, "mean \(mean), worst \(worst)")
    }

    @Test("With hand-held shake the resampled frame matches the reference's time-sampled motion blur")
    func shakeMatchesReference() throws {
        var scene = Scene.stillLife()
        scene.cameraMotion = CameraMotion(shakeRMSDegrees: 0.3, seed: 4)
        // Focused on the vase: the book, table and wall are a few pixels out of focus, the vase sharp.
        let request = Self.request(width: 480, start: 0.2, duration: 1.0 / 15, focus: 0.6)
        let fast = Self.mosaic(RadianceCache().exposure(of: scene, sceneID: 1, request: request, threads: 2))
        let reference = Self.mosaic(try SceneRenderer(scene: scene).render(request, threads: 2))
        let (mean, worst) = Self.compare(fast, reference)
        // The reference integrates motion in steps of up to ¾ pixel, the fast path in quarter pixels with
        // cubic interpolation: they differ a little at sharp edges, nowhere else.
        #expect(mean < 0.01 && worst < 0.25, "mean \(mean), worst \(worst)")
    }

    @Test("A pan smears an edge over the distance the camera turns during the exposure")
    func panSmearsEdge() throws {
        // A sharp vertical edge 1 m away; the camera pans 20°/s for 1/10 s.
        var scene = Scene(
            name: "edge",
            layers: [
                SceneLayer(
                    name: "edge", distance: 1,
                    shapes: [
                        Shape(.everywhere, color: SurfaceColor(reflectance: 0.8)),
                        Shape(
                            .rectangle(origin: SIMD2(-1, -1), size: SIMD2(1.5, 3)),
                            color: SurfaceColor(reflectance: 0.05)),
                    ])
            ], light: Light(.d65, lux: 1000))
        scene.cameraMotion = CameraMotion(panDegreesPerSecond: SIMD2(20, 0))
        let width = 1008
        let duration = 0.1
        var request = RenderRequest(width: width, height: 756, exposureStart: 0, exposureDuration: duration)
        request.response = .cie1931
        let e = RadianceCache().exposure(of: scene, sceneID: 1, request: request, threads: 2)
        let m = Self.mosaic(e)
        // Green sites of even rows (odd columns) carry Y: the edge profile at two-pixel spacing.
        var profile = [Double](repeating: 0, count: width / 2)
        for y in stride(from: 200, to: 556, by: 2) {
            for j in 0..<(width / 2) { profile[j] += Double(m[y * width + 2 * j + 1]) }
        }
        let d = (1..<profile.count).map { abs(profile[$0] - profile[$0 - 1]) }
        let total = d.reduce(0, +)
        let mean = d.enumerated().reduce(0) { $0 + Double($1.offset) * $1.element } / total
        let variance =
            d.enumerated().reduce(0) { $0 + (Double($1.offset) - mean) * (Double($1.offset) - mean) * $1.element }
            / total
        let sigma = 2 * variance.squareRoot()  // back to pixels
        // Travel: 20°/s × 0.1 s turned, times the focal length in pixels (4.25 mm over 1.4 µm × 4032/1008).
        let travel = 2 * Double.pi / 180 * (Self.lens.focalLength / Self.sensorWidth) * Double(width)
        // A box of width L has variance L²/12; the pixel adds 1/12, sampling at two-pixel spacing 4/12.
        let expected = ((travel * travel + 1 + 4) / 12).squareRoot()
        #expect(abs(sigma / expected - 1) < 0.05, "σ \(sigma), expected \(expected) (travel \(travel) px)")
    }

    @Test("Moving layers are rendered per exposure over the cached still layers, as the reference does")
    func movingLayerMatchesReference() throws {
        var scene = Scene.stillLife()
        scene.layers[4].motion = LayerMotion(velocity: SIMD2(0.3, 0))  // the orange rolls
        scene.cameraMotion = CameraMotion(shakeRMSDegrees: 0.1, seed: 2)
        let request = Self.request(width: 400, start: 0.5, duration: 1.0 / 20, focus: 0.35)
        let e = RadianceCache().exposure(of: scene, sceneID: 1, request: request, threads: 2)
        #expect(e.overlay != nil)
        let (mean, worst) = Self.compare(
            Self.mosaic(e), Self.mosaic(try SceneRenderer(scene: scene).render(request, threads: 2)))
        #expect(mean < 0.01 && worst < 0.25, "mean \(mean), worst \(worst)")
    }

    @Test("A sliding camera (parallax) renders every layer per exposure, as the reference does")
    func slidingCameraMatchesReference() throws {
        var scene = Scene.stillLife()
        scene.cameraMotion = CameraMotion(shakeRMSDegrees: 0.1, shakeTranslationRMSMillimetres: 2, seed: 3)
        let request = Self.request(width: 400, start: 0.5, duration: 1.0 / 20, focus: 0.6)
        let e = RadianceCache().exposure(of: scene, sceneID: 1, request: request, threads: 2)
        #expect(e.overlay != nil)
        let (mean, worst) = Self.compare(
            Self.mosaic(e), Self.mosaic(try SceneRenderer(scene: scene).render(request, threads: 2)))
        #expect(mean < 0.01 && worst < 0.25, "mean \(mean), worst \(worst)")
    }

    @Test("The cache is reused while scene, lens and light stay the same, and renders again when any changes")
    func cacheReuse() throws {
        var scene = Scene.stillLife()
        scene.cameraMotion = .handheld
        let cache = RadianceCache()
        var request = Self.request(width: 200, start: 0, duration: 1.0 / 60, focus: 0.6)
        _ = cache.exposure(of: scene, sceneID: 1, request: request, threads: 1)
        for k in 1...5 {
            request.exposureStart = Double(k) / 30
            _ = cache.exposure(of: scene, sceneID: 1, request: request, threads: 1)
        }
        #expect(cache.renderCount == 1)
        _ = cache.exposure(of: scene, sceneID: 2, request: request, threads: 1)  // the scene changed
        #expect(cache.renderCount == 2)
        #expect(cache.entryCount == 1)  // the first scene's view is dropped, not kept until the byte limit
        request.optics?.focusDistance = 1  // the lens moved
        let moved = cache.exposure(of: scene, sceneID: 2, request: request, threads: 1)
        #expect(cache.renderCount == 3)
        // The new lens state's view replaces the old one's and reuses its memory: one full-size view, not two,
        // with the same radiance as a view rendered into fresh memory.
        #expect(cache.entryCount == 1)
        let fresh = RadianceCache().exposure(of: scene, sceneID: 2, request: request, threads: 1)
        #expect(Self.mosaic(moved) == Self.mosaic(fresh))
        request.flash = Flash()
        _ = cache.exposure(of: scene, sceneID: 2, request: request, threads: 1)
        #expect(cache.renderCount == 4)
        // A pan far beyond the margin needs a new view.
        scene.cameraMotion = CameraMotion(panDegreesPerSecond: SIMD2(20, 0))
        request.exposureStart = 2
        _ = cache.exposure(of: scene, sceneID: 3, request: request, threads: 1)
        request.exposureStart = 3
        _ = cache.exposure(of: scene, sceneID: 3, request: request, threads: 1)
        #expect(cache.renderCount == 6)
    }

    @Test("removeViews(width:height:) forgets the views of one size only; that size renders again")
    func removingViewsOfOneSize() throws {
        let scene = Scene.stillLife()
        let cache = RadianceCache()
        let still = Self.request(width: 240, start: 0, duration: 1.0 / 60, focus: 0.6)
        let stream = Self.request(width: 120, start: 0, duration: 1.0 / 60, focus: 0.6)
        _ = cache.exposure(of: scene, sceneID: 1, request: still, threads: 1)
        _ = cache.exposure(of: scene, sceneID: 1, request: stream, threads: 1)
        #expect(cache.renderCount == 2 && cache.entryCount == 2)
        cache.removeViews(width: still.width, height: still.height)
        #expect(cache.entryCount == 1)
        _ = cache.exposure(of: scene, sceneID: 1, request: stream, threads: 1)
        #expect(cache.renderCount == 2)  // the other size's view is still there
        _ = cache.exposure(of: scene, sceneID: 1, request: still, threads: 1)
        #expect(cache.renderCount == 3 && cache.entryCount == 2)
    }

    @Test("The resampled mosaic is bit-identical on any number of threads and any split into rows")
    func determinism() {
        var scene = Scene.stillLife()
        scene.cameraMotion = CameraMotion(shakeRMSDegrees: 0.2, seed: 9)
        let request = Self.request(width: 320, start: 0.1, duration: 1.0 / 30, focus: 1)
        let a = Self.mosaic(RadianceCache().exposure(of: scene, sceneID: 1, request: request, threads: 1))
        let e = RadianceCache().exposure(of: scene, sceneID: 1, request: request, threads: 3)
        var b = [Float](repeating: 0, count: a.count)
        b.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for rows in [0..<37, 37..<100, 100..<240] {
                e.mosaicRows(rows, pattern: .rggb) { y, row in (base + y * 320).update(from: row, count: 320) }
            }
        }
        #expect(a.map(\.bitPattern) == b.map(\.bitPattern))
    }
}
