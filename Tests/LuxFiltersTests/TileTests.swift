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
    /// Red and green are the pixel centre's x and y.
    static let ramp: Image = {
        var c = [Float](repeating: 1, count: 4 * size * size)
        for y in 0..<size {
            for x in 0..<size {
                c[4 * (y * size + x)] = Float(x) + 0.5
                c[4 * (y * size + x) + 1] = Float(y) + 0.5
            }
        }
        return Image(buffer: PixelBuffer(width: size, height: size, format: .rgbaFloat, components: c))
    }()

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
}
