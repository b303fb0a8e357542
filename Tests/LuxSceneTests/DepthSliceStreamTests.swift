import LuxColor
import LuxPixels
import Testing

@testable import LuxScene

/// A depth slice of a photograph is painted over its whole box, but the vertical blur skips the rows where the slice
/// has no pixels: those rows come out of its layer stream empty, not as computed zeros.
@Suite struct DepthSliceStreamTests {
    /// A grey photograph, near (0.5 m) in its top and bottom quarters and far (5 m) between them.
    static func bandedScene() throws -> Scene {
        let (w, h) = (512, 384)
        var colors = PixelBuffer(width: w, height: h, format: .rgbaFloat, colorSpace: .linearSRGB)
        var depth = PixelBuffer(width: w, height: h, format: .rgbaFloat)
        for y in 0..<h {
            let near = y < h / 4 || y >= 3 * h / 4
            for x in 0..<w {
                colors.setPixel(SIMD4(0.4, 0.4, 0.4, 1), x: x, y: y)
                depth.setPixel(SIMD4(repeating: near ? 0.5 : 5), x: x, y: y)
            }
        }
        return Scene.image(try SceneImage(buffer: colors, depthMap: depth), light: Light(.d65, lux: 1000), slices: 2)
    }

    @Test("The near slice's stream is empty between its two bands (beyond the blur's reach), and not within them")
    func emptyRowsBetweenBands() throws {
        let scene = try Self.bandedScene()
        #expect(scene.layers.count == 2)
        let optics = RenderRequest.Optics(lens: .phoneWide, focusDistance: 1, sensorWidth: 4032 * 0.0014)
        let request = RenderRequest(width: 1024, height: 768, optics: optics)
        let renderer = SceneRenderer(scene: scene)
        // The near slice (the layers run far to near) is blurred and planned on one card over both bands.
        let plan = try #require(renderer.layerPlans(request, layers: [1], atRest: true).first ?? nil)
        let blur = try #require(plan.blur)
        #expect(plan.scale == 1)
        #expect(plan.box.y0 <= 0 && plan.box.y0 + plan.box.height >= 768, "\(plan.box)")
        let stream = LayerStream(plan: plan, firstRow: 0, lastRow: plan.box.height - 1)
        var empty = Set<Int>()
        for k in 0..<plan.box.height where stream.row(k) == nil { empty.insert(k + plan.box.y0) }
        // Grid rows 0..<192 and 576..<768 hold the near bands; the blur reaches `support` rows beyond them (and the
        // nearest-texel depth test half a texel, 1 grid row).
        let reach = blur.support + 2
        #expect((192 + reach)..<(576 - reach) ~= 300)
        #expect(((192 + reach)..<(576 - reach)).allSatisfy { empty.contains($0) }, "\(empty.sorted().prefix(5))…")
        #expect(!(0..<192).contains { empty.contains($0) })
        #expect(!(576..<768).contains { empty.contains($0) })
    }

    @Test("A horizontal blur over a run of columns (content and reach) matches the whole row's, after a longer run")
    func horizontalRun() throws {
        let plan = try #require(BlurPlan(sigma: 3))
        let (n, planes) = (300, 4)
        let blur = HorizontalBlur(plan: plan, count: n)
        let reference = HorizontalBlur(plan: plan, count: n)
        defer {
            blur.deallocate()
            reference.deallocate()
        }
        // A full row of ones first: the run after it must not read that row's pixels from the padding.
        var ones = [Float](repeating: 1, count: planes * n)
        ones.withUnsafeMutableBufferPointer { blur.apply($0.baseAddress!, planes: planes, stride: n) }
        var row = [Float](repeating: 0, count: planes * n)
        for p in 0..<planes { for x in 100..<140 { row[p * n + x] = Float(p + 1) * Float(x % 7) } }
        var whole = row
        var run = row
        whole.withUnsafeMutableBufferPointer { reference.apply($0.baseAddress!, planes: planes, stride: n) }
        let columns = (100 - plan.support)..<(140 + plan.support)
        run.withUnsafeMutableBufferPointer {
            blur.apply($0.baseAddress!, planes: planes, stride: n, columns: columns)
        }
        let worst = zip(whole, run).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-4, "largest difference \(worst)")
        for p in 0..<planes {
            #expect((0..<n).filter { !columns.contains($0) }.allSatisfy { run[p * n + $0] == 0 })
            #expect(whole[p * n + 100 - plan.support / 2] > 0)
        }
    }
}
