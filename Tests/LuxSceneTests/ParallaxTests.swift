import Testing

@testable import LuxScene

/// A sliding camera moves near layers more than far ones.
@Suite struct ParallaxTests {
    /// A far layer (2 m) filling the frame and a near one (0.5 m) over its top half, each dark left of x = 0.5 and
    /// light right of it.
    static func twoEdges(motion: CameraMotion) -> Scene {
        let dark = SurfaceColor(reflectance: 0.05)
        let light = SurfaceColor(reflectance: 0.8)
        return Scene(
            name: "two edges",
            layers: [
                SceneLayer(
                    name: "far", distance: 2,
                    shapes: [
                        Shape(.everywhere, color: light),
                        Shape(.rectangle(origin: SIMD2(-1, -1), size: SIMD2(1.5, 3)), color: dark),
                    ]),
                SceneLayer(
                    name: "near", distance: 0.5,
                    shapes: [
                        Shape(.rectangle(origin: SIMD2(-1, -1), size: SIMD2(1.5, 1.375)), color: dark),
                        Shape(.rectangle(origin: SIMD2(0.5, -1), size: SIMD2(1.5, 1.375)), color: light),
                    ]),
            ], light: Light(.d65, lux: 1000), cameraMotion: motion)
    }

    /// The column (pixels, sub-pixel) of the vertical edge in a 200 × 100 window centred at (0.5, `y`) of `scene`
    /// seen at `time`, 2000 pixels per frame width: the centroid of the row-averaged profile's derivative.
    static func edge(_ scene: Scene, y: Double, time: Double) throws -> Double {
        var request = RenderRequest(width: 200, height: 100, exposureStart: time)
        request.regionSize = SIMD2(200, 100) / 2000
        request.regionOrigin = SIMD2(0.5, y) - request.regionSize / 2
        let image = try SceneRenderer(scene: scene).render(request)
        var profile = [Double](repeating: 0, count: image.width)
        for row in 20..<80 { for x in 0..<image.width { profile[x] += Double(image.value(x: x, y: row).y) } }
        let d = (1..<image.width).map { profile[$0] - profile[$0 - 1] }
        let total = d.reduce(0, +)
        return d.enumerated().reduce(0) { $0 + (Double($1.offset) + 1) * $1.element } / total
    }

    @Test(
        "A camera sliding by ΔT moves a layer at distance Z by f·ΔT/Z: the layer at 0.5 m moves 4 times as far as the one at 2 m"
    )
    func nearMovesMoreThanFar() throws {
        let motion = CameraMotion(shakeTranslationRMSMillimetres: 2, seed: 7)
        #expect(motion.translates && !motion.isStill && motion.angles(at: 0.3) == .zero)
        let scene = Self.twoEdges(motion: motion)
        let (t0, t1) = (0.0, 0.3)
        let slide = motion.translation(at: t1) - motion.translation(at: t0)
        #expect(abs(slide.x) > 0.0005, "the camera slid \(slide) m")
        let near = try Self.edge(scene, y: 0.1875, time: t1) - Self.edge(scene, y: 0.1875, time: t0)
        let far = try Self.edge(scene, y: 0.5625, time: t1) - Self.edge(scene, y: 0.5625, time: t0)
        // f = 4.25 mm on a 5.6448 mm wide sensor (the renderer's default without optics): f/width frame widths per
        // unit of T/Z; the camera moving right moves the picture left.
        let f = 4.25 / 5.6448
        let expectedNear = -slide.x * f / 0.5 * 2000
        // Within 1 %: the rasteriser's anti-aliased coverage places an edge to about a tenth of a pixel.
        #expect(abs(near / expectedNear - 1) < 0.01, "near edge moved \(near) px, f·ΔT/Z = \(expectedNear) px")
        #expect(abs(near / far - 4) < 0.04, "near \(near) px, far \(far) px")
        // A tripod keeps both edges where they are.
        let still = Self.twoEdges(motion: .tripod)
        #expect(abs(try Self.edge(still, y: 0.1875, time: t1) - Self.edge(still, y: 0.1875, time: t0)) < 1e-9)
    }
}
