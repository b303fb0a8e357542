import Foundation
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import Testing

@Suite struct GeometryTests {
    /// A smooth opaque test image (so bilinear sampling is close to the underlying function).
    static func smooth(width: Int = 80, height: Int = 60) -> (Image, (Double, Double) -> SIMD3<Double>) {
        func f(_ x: Double, _ y: Double) -> SIMD3<Double> {
            SIMD3(0.5 + 0.4 * Foundation.sin(x / 9), 0.5 + 0.4 * Foundation.cos(y / 7), 0.3 + 0.005 * (x + y))
        }
        var c: [Float] = []
        for y in 0..<height {
            for x in 0..<width {
                let v = f(Double(x) + 0.5, Double(y) + 0.5)
                c += [Float(v.x), Float(v.y), Float(v.z), 1]
            }
        }
        return (Image(buffer: PixelBuffer(width: width, height: height, format: .rgbaFloat, components: c)), f)
    }

    @Test("AffineClamp and Clamp extend edge pixels to infinity")
    func clamps() throws {
        let (image, _) = Self.smooth()
        let t = AffineTransform(translationX: 10.5, y: -3)
        #expect(image.affineClamp(t).extent.isInfinite)
        let a = try renderFloat(image.affineClamp(t), Rect(x: -20, y: -20, width: 130, height: 100))
        let b = try renderFloat(
            image.clampedToExtent().transformed(by: t), Rect(x: -20, y: -20, width: 130, height: 100))
        #expect(a == b)
        let clamp = try Self.smooth().0.applyingFilter("Clamp", parameters: ["extent": [10, 10, 20, 20]])
        let v = try renderFloat(clamp, Rect(x: 0, y: 0, width: 40, height: 40))
        let src = try renderFloat(image)
        // (0, 0) shows (10, 10); (39, 39) shows (29, 29).
        #expect(Array(v[0..<4]) == Array(src[(4 * (10 * 80 + 10))..<(4 * (10 * 80 + 10) + 4)]))
        #expect(
            Array(v[(4 * (39 * 40 + 39))..<(4 * (39 * 40 + 39) + 4)])
                == Array(src[(4 * (29 * 80 + 29))..<(4 * (29 * 80 + 29) + 4)]))
    }

    @Test("PerspectiveTransform onto a rectangle equals the affine scale; the centre lands where the diagonals cross")
    func perspective() throws {
        let (image, f) = Self.smooth()
        // A rectangle target: the map is affine.
        let rect = Quadrilateral(Rect(x: 10, y: 20, width: 160, height: 90))
        let p = try renderFloat(image.perspectiveTransform(rect), Rect(x: 10, y: 20, width: 160, height: 90))
        let affine = AffineTransform(scaleX: 2, y: 1.5).translatedBy(x: 10, y: 20)
        let q = try renderFloat(image.transformed(by: affine), Rect(x: 10, y: 20, width: 160, height: 90))
        var worst: Float = 0
        for i in p.indices { worst = max(worst, abs(p[i] - q[i])) }
        #expect(worst < 1e-4, "\(worst)")

        // A true quadrilateral: the image's centre (40, 30) goes to the intersection of the diagonals.
        let quad = Quadrilateral(
            topLeft: Point(x: 20, y: 10), topRight: Point(x: 150, y: 30), bottomRight: Point(x: 130, y: 120),
            bottomLeft: Point(x: 10, y: 90))
        let out = image.perspectiveTransform(quad)
        #expect(out.extent == Rect(x: 10, y: 10, width: 140, height: 110))
        // Diagonals TL–BR and TR–BL: solve TL + s·(BR − TL) = TR + t·(BL − TR).
        let (a, b, c, d) = (quad.topLeft, quad.bottomRight, quad.topRight, quad.bottomLeft)
        let det = (b.x - a.x) * (-(d.y - c.y)) + (d.x - c.x) * (b.y - a.y)
        let s = ((c.x - a.x) * (-(d.y - c.y)) + (d.x - c.x) * (c.y - a.y)) / det
        let centre = Point(x: a.x + s * (b.x - a.x), y: a.y + s * (b.y - a.y))
        let px = Int(centre.x)
        let py = Int(centre.y)
        let v = try renderFloat(out, Rect(x: px, y: py, width: 1, height: 1))
        // The pixel holding the crossing shows the image near its centre (within the pixel's half-width footprint).
        let e = f(40, 30)
        #expect(abs(Double(v[0]) - e.x) < 0.06 && abs(Double(v[1]) - e.y) < 0.06, "\(v) vs \(e)")
        // Outside the quadrilateral (its bounding box's corner) is transparent.
        let corner = try renderFloat(out, Rect(x: 148, y: 118, width: 1, height: 1))
        #expect(corner[3] == 0)
    }

    @Test("PerspectiveCorrection undoes PerspectiveTransform")
    func correction() throws {
        let (image, _) = Self.smooth()
        let quad = Quadrilateral(
            topLeft: Point(x: 20, y: 10), topRight: Point(x: 160, y: 25), bottomRight: Point(x: 150, y: 125),
            bottomLeft: Point(x: 15, y: 100))
        let tilted = image.perspectiveTransform(quad)
        let straight = Filters.PerspectiveCorrection(image: tilted, quadrilateral: quad)
        let target = straight.targetRectangle
        // Map the corrected rectangle back onto the source rectangle and compare interiors.
        let back = straight.outputImage.transformed(
            by: AffineTransform(translationX: -target.minX, y: -target.minY).scaledBy(
                x: 80 / target.width, y: 60 / target.height))
        let a = try renderFloat(back, Rect(x: 8, y: 8, width: 64, height: 44))
        let b = try renderFloat(image, Rect(x: 8, y: 8, width: 64, height: 44))
        var worst: Float = 0
        for i in a.indices { worst = max(worst, abs(a[i] - b[i])) }
        #expect(worst < 0.03, "\(worst)")
    }

    @Test("StraightenFilter keeps the extent and the centre, rotates counter-clockwise and leaves no empty corner")
    func straighten() throws {
        let (image, _) = Self.smooth()
        let out = image.straighten(angle: 0.2)
        #expect(out.extent == image.extent)
        let v = try renderFloat(out)
        for p in 0..<(80 * 60) { #expect(v[4 * p + 3] > 0.999) }
        #expect(try renderFloat(image.straighten(angle: 0)) == renderFloat(image))
        // A dot right of centre moves up (counter-clockwise on screen, y down).
        var c = [Float](repeating: 0, count: 4 * 81 * 61)
        for p in 0..<(81 * 61) { c[4 * p + 3] = 1 }
        for (x, y) in [(60, 30), (61, 30), (60, 31), (61, 31)] { c[4 * (y * 81 + x)] = 1 }
        let dot = Image(buffer: PixelBuffer(width: 81, height: 61, format: .rgbaFloat, components: c)).straighten(
            angle: 0.5)
        let d = try renderFloat(dot)
        var best = (0, 0, Float(0))
        for y in 0..<61 { for x in 0..<81 where d[4 * (y * 81 + x)] > best.2 { best = (x, y, d[4 * (y * 81 + x)]) } }
        #expect(best.1 < 25 && best.0 > 55, "dot at \(best)")
        let k = Filters.StraightenFilter.coverScale(width: 80, height: 60, angle: 0.2)
        #expect(abs(k - (Foundation.cos(0.2) + Foundation.sin(0.2) * 80 / 60)) < 1e-12)
    }

    @Test("NinePartStretched keeps corners, stretches the middle; NinePartTiled repeats it")
    func ninePart() throws {
        let (image, _) = Self.smooth()
        let src = try renderFloat(image)
        let stretched = image.ninePartStretched(
            breakpoint0: Point(x: 20, y: 15), breakpoint1: Point(x: 50, y: 40), growAmount: [30, 25])
        #expect(stretched.extent == Rect(width: 110, height: 85))
        let s = try renderFloat(stretched)
        func at(_ v: [Float], _ w: Int, _ x: Int, _ y: Int) -> [Float] {
            Array(v[(4 * (y * w + x))..<(4 * (y * w + x) + 4)])
        }
        // Top-left corner and bottom-right corner (shifted by the growth) are copies.
        for (x, y) in [(3, 4), (19, 14), (0, 0)] { #expect(at(s, 110, x, y) == at(src, 80, x, y)) }
        for (x, y) in [(79, 59), (60, 45)] { #expect(at(s, 110, x + 30, y + 25) == at(src, 80, x, y)) }
        // The middle: destination x in [20, 80) shows source 20 + (x − 20)·30/60.
        let g = Grid(PixelBuffer(width: 80, height: 60, format: .rgbaFloat, components: src))
        for x in [25, 44, 70] {
            let sx = 20 + (Double(x) + 0.5 - 20) * 0.5
            let e = g.sample(sx, 5.5)
            #expect(abs(Double(at(s, 110, x, 5)[0]) - e.x) < 1e-5, "x \(x)")
        }
        let tiled = image.ninePartTiled(
            breakpoint0: Point(x: 20, y: 15), breakpoint1: Point(x: 50, y: 40), growAmount: [30, 25], flipYTiles: true)
        let t = try renderFloat(tiled)
        // Horizontal repetition with period 30; vertical mirrored: row 15 + k and 64 − k (second tile, flipped).
        #expect(at(t, 110, 25, 5) == at(t, 110, 55, 5))
        #expect(at(t, 110, 25, 5) == at(src, 80, 25, 5))
        #expect(at(t, 110, 3, 20) == at(t, 110, 3, 59))
    }
}
