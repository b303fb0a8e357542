import Foundation
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// The tiles by their symmetry groups: on a coordinate ramp (each output pixel tells where it read), the output is
/// invariant under the group's generators, and the base tile is the input unchanged.
@Suite struct TileTests {
    static let size = 64
    static let ramp = coordinateRamp(size: size)

    static let window = 120
    static let center = Point(x: 10, y: 12)

    /// The output over `0..<window` squared, as a lookup of (red, green) by pixel.
    static func render(_ image: Image) throws -> (Int, Int) -> SIMD2<Double>? {
        let out = try renderFloat(image, Rect(width: window, height: window))
        return { x, y in
            guard x >= 0, y >= 0, x < window, y < window else { return nil }
            let p = pixel(out, y * window + x)
            return SIMD2(p.x, p.y)
        }
    }

    /// Checks `out(g(x, y)) == out(x, y)` for every pixel whose image is in the window.
    static func expectInvariant(
        _ out: (Int, Int) -> SIMD2<Double>?, _ name: String, _ g: (Int, Int) -> (Int, Int)
    ) {
        var worst = 0.0
        var checked = 0
        for y in 0..<window {
            for x in 0..<window {
                let (gx, gy) = g(x, y)
                guard let a = out(x, y), let b = out(gx, gy) else { continue }
                worst = max(worst, abs(a.x - b.x), abs(a.y - b.y))
                checked += 1
            }
        }
        #expect(worst < 1e-3 && checked >= 400, "\(name): worst \(worst) over \(checked)")
    }

    /// Checks that pixels of the base tile (away from its edges) read themselves.
    static func expectBaseIsInput(_ out: (Int, Int) -> SIMD2<Double>?, _ name: String) {
        for y in 14..<30 {
            for x in 12..<28 {
                let p = out(x, y)!
                #expect(
                    abs(p.x - (Double(x) + 0.5)) < 1e-3 && abs(p.y - (Double(y) + 0.5)) < 1e-3, "\(name) (\(x), \(y))")
            }
        }
    }

    // Pixel maps of the generators, for the tile frame at (10, 12) with width 20 (pixel x covers x … x + 1).
    static func mirrorX(_ x: Int, _ y: Int) -> (Int, Int) { (19 - x, y) }  // across x = 10
    static func mirrorY(_ x: Int, _ y: Int) -> (Int, Int) { (x, 23 - y) }  // across y = 12
    static func diagonal(_ x: Int, _ y: Int) -> (Int, Int) { (y - 2, x + 2) }  // across the diagonal through (10, 12)
    static func quarterTurn(_ x: Int, _ y: Int) -> (Int, Int) { (10 + 12 - 1 - y, 12 - 10 + x) }  // about (10, 12)
    static func shift(_ dx: Int, _ dy: Int) -> (Int, Int) -> (Int, Int) { { x, y in (x + dx, y + dy) } }

    @Test("FourfoldTranslatedTile repeats every width in both directions; the base tile is the input")
    func translated() throws {
        let out = try Self.render(Self.ramp.fourfoldTranslatedTile(center: Self.center, width: 20))
        Self.expectInvariant(out, "x", Self.shift(20, 0))
        Self.expectInvariant(out, "y", Self.shift(0, 20))
        Self.expectBaseIsInput(out, "translated")
    }

    @Test("A tile value's lattice fields read and write as its own: set through it, the tiling has period width")
    func latticeFieldsAsTheFiltersOwn() throws {
        let tile = Filters.FourfoldTranslatedTile {
            $0.center = Self.center
            $0.width = 16
        }
        #expect(tile.center == Self.center && tile.lattice.width == 16 && tile.angle == 0)
        let out = try Self.render(Self.ramp.applyingFilter(tile))
        Self.expectInvariant(out, "x", Self.shift(16, 0))
        Self.expectInvariant(out, "y", Self.shift(0, 16))
    }

    @Test("FourfoldReflectedTile and ParallelogramTile are invariant under the tile-edge mirrors and period 2·width")
    func reflected() throws {
        for image in [
            Self.ramp.fourfoldReflectedTile(center: Self.center, width: 20),
            Self.ramp.parallelogramTile(center: Self.center, width: 20),
        ] {
            let out = try Self.render(image)
            Self.expectInvariant(out, "mirror x", Self.mirrorX)
            Self.expectInvariant(out, "mirror y", Self.mirrorY)
            Self.expectInvariant(out, "period", Self.shift(40, 40))
            Self.expectBaseIsInput(out, "reflected")
        }
    }

    @Test("FourfoldRotatedTile is invariant under quarter turns about the lattice points, period 2·width")
    func rotated() throws {
        let out = try Self.render(Self.ramp.fourfoldRotatedTile(center: Self.center, width: 20))
        Self.expectInvariant(out, "quarter turn", Self.quarterTurn)
        Self.expectInvariant(out, "period", Self.shift(40, 0))
        Self.expectBaseIsInput(out, "rotated")
    }

    @Test("EightfoldReflectedTile is invariant under the edge mirrors and the diagonal mirror")
    func eightfold() throws {
        let out = try Self.render(Self.ramp.eightfoldReflectedTile(center: Self.center, width: 20))
        Self.expectInvariant(out, "mirror x", Self.mirrorX)
        Self.expectInvariant(out, "mirror y", Self.mirrorY)
        Self.expectInvariant(out, "diagonal", Self.diagonal)
        // Below the diagonal (v < u) the base tile is the input.
        let p = out(25, 15)!
        #expect(abs(p.x - 25.5) < 1e-3 && abs(p.y - 15.5) < 1e-3)
    }

    @Test("GlideReflectedTile is invariant under the glide (mirror about u = ¼, one row down) and period 2 rows")
    func glide() throws {
        let out = try Self.render(Self.ramp.glideReflectedTile(center: Self.center, width: 20))
        Self.expectInvariant(out, "glide", { x, y in (29 - x, y + 20) })
        Self.expectInvariant(out, "rows", Self.shift(0, 40))
        Self.expectInvariant(out, "columns", Self.shift(20, 0))
        Self.expectBaseIsInput(out, "glide")
    }

    @Test("a turned tiling keeps the base tile: pixels inside it read themselves")
    func turned() throws {
        let out = try Self.render(Self.ramp.fourfoldReflectedTile(center: Point(x: 8, y: 4), angle: 0.3, width: 40))
        // (20, 20) is inside the tile turned by 0.3 from (8, 4) (tile coordinates ≈ (0.41, 0.29)).
        let p = out(20, 20)!
        #expect(abs(p.x - 20.5) < 1e-3 && abs(p.y - 20.5) < 1e-3)
    }

    @Test("Kaleidoscope with 4 sectors is invariant under quarter turns and the mirror through its first edge")
    func kaleidoscope() throws {
        let c = Point(x: 40, y: 40)
        let out = try Self.render(Self.ramp.kaleidoscope(count: 4, center: c, angle: 0))
        Self.expectInvariant(out, "quarter turn", { x, y in (40 + 40 - 1 - y, 40 - 40 + x) })
        Self.expectInvariant(out, "mirror", { x, y in (x, 79 - y) })
        // In the first half-sector (0 ≤ φ ≤ 45°) pixels read themselves.
        let p = out(60, 45)!
        #expect(abs(p.x - 60.5) < 1e-3 && abs(p.y - 45.5) < 1e-3)
    }

    @Test("AffineTile at half scale repeats every 32 pixels and reads T⁻¹(q)")
    func affine() throws {
        let out = try Self.render(Self.ramp.affineTile(AffineTransform(scaleX: 0.5, y: 0.5)))
        Self.expectInvariant(out, "x", Self.shift(32, 0))
        Self.expectInvariant(out, "y", Self.shift(0, 32))
        let p = out(10, 20)!
        #expect(abs(p.x - 21) < 1e-3 && abs(p.y - 41) < 1e-3)
        #expect(Self.ramp.affineTile(AffineTransform(scaleX: 0.5, y: 0.5)).extent.isInfinite)
    }

    /// A linear map of the plane, as the rows `(a, b)`, `(c, d)`.
    typealias Linear = (a: Double, b: Double, c: Double, d: Double)

    static func rotation(_ theta: Double) -> Linear { (cos(theta), -sin(theta), sin(theta), cos(theta)) }
    /// The mirror across the line through the origin at `theta`.
    static func mirror(_ theta: Double) -> Linear {
        (cos(2 * theta), sin(2 * theta), sin(2 * theta), -cos(2 * theta))
    }

    /// Checks that every pixel of the window read a point of the base region that lies in its orbit under the
    /// wallpaper group: in tile units (`center` (10, 12), width 20), `s = M·p + i·e₁ + j·e₂` for one map `M` of the
    /// point group and whole numbers `i`, `j` — a fold into a fundamental domain, checked without folding.
    static func expectFold(
        _ image: Image, _ name: String, pointGroup: [Linear], lattice e: (SIMD2<Double>, SIMD2<Double>),
        inBase: (Double, Double) -> Bool
    ) throws {
        let out = try render(image)
        let det = e.0.x * e.1.y - e.0.y * e.1.x
        var outside = 0
        var strays = 0
        for y in 0..<window {
            for x in 0..<window {
                let p = ((Double(x) + 0.5 - center.x) / 20, (Double(y) + 0.5 - center.y) / 20)
                let r = out(x, y)!
                let s = ((r.x - center.x) / 20, (r.y - center.y) / 20)
                if !inBase(s.0, s.1) { outside += 1 }
                let inOrbit = pointGroup.contains { m in
                    let dx = s.0 - (m.a * p.0 + m.b * p.1)
                    let dy = s.1 - (m.c * p.0 + m.d * p.1)
                    let i = (dx * e.1.y - dy * e.1.x) / det
                    let j = (e.0.x * dy - e.0.y * dx) / det
                    return abs(i - i.rounded()) < 1e-3 && abs(j - j.rounded()) < 1e-3
                }
                if !inOrbit { strays += 1 }
            }
        }
        #expect(
            outside == 0 && strays == 0, "\(name): \(outside) pixels read outside the base, \(strays) off their orbit")
    }

    static let h = 3.0.squareRoot() / 2
    static let hexagonal = (SIMD2(1.0, 0), SIMD2(0.5, h))
    static let sixTurns = (0..<6).map { rotation(Double($0) * .pi / 3) }
    static let tolerance = 1e-4

    /// The triangle of the hexagon around the lattice point at the origin between its corners at ±30°.
    static func inSector(_ u: Double, _ v: Double) -> Bool {
        u <= 0.5 + tolerance && abs(v) <= u / 3.0.squareRoot() + tolerance
    }

    @Test("SixfoldRotatedTile folds every pixel into the 60° triangle of a hexagon along its p6 orbit")
    func sixfoldRotated() throws {
        let image = Self.ramp.sixfoldRotatedTile(center: Self.center, width: 20)
        try Self.expectFold(image, "p6", pointGroup: Self.sixTurns, lattice: Self.hexagonal, inBase: Self.inSector)
        let p = try Self.render(image)(16, 13)!
        #expect(abs(p.x - 16.5) < 1e-3 && abs(p.y - 13.5) < 1e-3, "the base reads itself")
    }

    @Test("SixfoldReflectedTile folds every pixel into half that triangle along its p6m orbit")
    func sixfoldReflected() throws {
        let image = Self.ramp.sixfoldReflectedTile(center: Self.center, width: 20)
        let group = Self.sixTurns + (0..<6).map { Self.mirror(Double($0) * .pi / 6) }
        try Self.expectFold(image, "p6m", pointGroup: group, lattice: Self.hexagonal) { u, v in
            Self.inSector(u, v) && v >= -Self.tolerance
        }
        let p = try Self.render(image)(16, 13)!
        #expect(abs(p.x - 16.5) < 1e-3 && abs(p.y - 13.5) < 1e-3, "the base reads itself")
    }

    @Test("TriangleTile folds every pixel into the equilateral triangle along its p3m1 orbit (mirrors in its sides)")
    func triangle() throws {
        let image = Self.ramp.triangleTile(center: Self.center, width: 20)
        let group =
            (0..<3).map { Self.rotation(Double($0) * 2 * .pi / 3) } + (0..<3).map { Self.mirror(Double($0) * .pi / 3) }
        let lattice = (SIMD2(0, 2 * Self.h), SIMD2(1.5, Self.h))
        try Self.expectFold(image, "p3m1", pointGroup: group, lattice: lattice) { u, v in
            let t = Self.tolerance
            return v >= -t && 2 * Self.h * u - v >= -t && 2 * Self.h * (1 - u) - v >= -t
        }
        let p = try Self.render(image)(20, 16)!
        #expect(abs(p.x - 20.5) < 1e-3 && abs(p.y - 16.5) < 1e-3, "the base reads itself")
    }

    @Test("TriangleKaleidoscope without decay folds like TriangleTile about its triangle (centroid at point)")
    func triangleKaleidoscope() throws {
        // The triangle with a corner at (10, 12), side 20, unturned, has its centroid at (20, 12 + 20·√3/6).
        let point = Point(x: 20, y: 12 + 20 * 3.0.squareRoot() / 6)
        let image = Self.ramp.triangleKaleidoscope(point: point, size: 20, rotation: 0, decay: 1)
        let group =
            (0..<3).map { Self.rotation(Double($0) * 2 * .pi / 3) } + (0..<3).map { Self.mirror(Double($0) * .pi / 3) }
        try Self.expectFold(
            image, "kaleidoscope", pointGroup: group, lattice: (SIMD2(0, 2 * Self.h), SIMD2(1.5, Self.h))
        ) {
            u, v in
            let t = Self.tolerance
            return v >= -t && 2 * Self.h * u - v >= -t && 2 * Self.h * (1 - u) - v >= -t
        }
    }

    @Test("TriangleKaleidoscope fades by decay^(distance/size) from its centre")
    func triangleKaleidoscopeDecay() throws {
        let gray = Image(
            buffer: PixelBuffer(
                width: 64, height: 64, format: .rgbaFloat,
                components: [Float](
                    (0..<(64 * 64)).flatMap { _ in [0.8, 0.8, 0.8, 1] })))
        let point = Point(x: 32, y: 30)
        let out = try renderFloat(
            gray.triangleKaleidoscope(point: point, size: 40, rotation: 0.3, decay: 0.6), Rect(width: 120, height: 120))
        var worst = 0.0
        for y in stride(from: 0, to: 120, by: 3) {
            for x in stride(from: 0, to: 120, by: 3) {
                let d =
                    ((Double(x) + 0.5 - 32) * (Double(x) + 0.5 - 32) + (Double(y) + 0.5 - 30) * (Double(y) + 0.5 - 30))
                    .squareRoot()
                worst = max(worst, abs(pixel(out, y * 120 + x).x - 0.8 * pow(0.6, d / 40)))
            }
        }
        #expect(worst < 1e-5, "worst \(worst)")
    }

    @Test(
        "PerspectiveTile with a parallelogram is the affine tiling: p − TL = u·(TR − TL) + v·(BL − TL) reads frac(u, v)"
    )
    func perspectiveTile() throws {
        let quad = Quadrilateral(
            topLeft: Point(x: 10, y: 5), topRight: Point(x: 40, y: 8), bottomRight: Point(x: 36, y: 33),
            bottomLeft: Point(x: 6, y: 30))
        let out = try Self.render(Self.ramp.perspectiveTile(quad))
        var checked = 0
        for y in 0..<Self.window {
            for x in 0..<Self.window {
                let (px, py) = (Double(x) + 0.5 - 10, Double(y) + 0.5 - 5)
                let u = (px * 25 + py * 4) / 762
                let v = (30 * py - 3 * px) / 762
                let sx = 64 * (u - u.rounded(.down))
                let sy = 64 * (v - v.rounded(.down))
                guard sx > 1, sy > 1, sx < 63, sy < 63 else { continue }
                let p = out(x, y)!
                #expect(abs(p.x - sx) < 5e-3 && abs(p.y - sy) < 5e-3, "(\(x), \(y))")
                checked += 1
            }
        }
        #expect(checked > 8000)
    }
}
