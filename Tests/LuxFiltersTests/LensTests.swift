import Foundation
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// The glass lenses, StretchCrop and Droste against formulas evaluated here: on a coordinate ramp each output pixel
/// tells where it read.
@Suite struct LensTests {
    static let size = 96
    static let ramp = coordinateRamp(size: size)

    /// Checks each pixel read `expected(x, y)` (pixel centre in, source position out) where that lies a pixel inside
    /// the ramp; returns how many were checked.
    @discardableResult
    static func expectReads(
        _ image: Image, _ comment: String, width: Int = size, height: Int = size, tolerance: Double = 2e-3,
        expected: (Double, Double) -> (Double, Double)?
    ) throws -> Int {
        let out = try renderFloat(image, Rect(width: width, height: height))
        var checked = 0
        var worst = 0.0
        for y in 0..<height {
            for x in 0..<width {
                guard let (sx, sy) = expected(Double(x) + 0.5, Double(y) + 0.5) else { continue }
                guard sx > 1, sy > 1, sx < Double(size - 1), sy < Double(size - 1) else { continue }
                let p = pixel(out, y * width + x)
                worst = max(worst, abs(p.x - sx), abs(p.y - sy))
                checked += 1
            }
        }
        #expect(worst < tolerance, "\(comment): worst error \(worst) pixels over \(checked)")
        return checked
    }

    /// Where a vertical ray through `(px, py)` meets the image after refracting into glass of index `n` at a
    /// surface of height `z` and unit normal `normal` (x, y, z): Snell's law in vector form.
    static func refracted(_ px: Double, _ py: Double, z: Double, normal: SIMD3<Double>, n: Double) -> (Double, Double) {
        let incident = SIMD3<Double>(0, 0, -1)
        let eta = 1 / n
        let cosI = -(normal * incident).sum()
        let k = 1 - eta * eta * (1 - cosI * cosI)
        let t = eta * incident + (eta * cosI - k.squareRoot()) * normal
        let travel = z / -t.z
        return (px + travel * t.x, py + travel * t.y)
    }

    @Test("TorusLensDistortion: each pixel under the ring reads where a refracted vertical ray meets the image")
    func torus() throws {
        let (c, ringRadius, a, n) = (Point(x: 47.5, y: 49.5), 28.0, 14.0, 1.7)
        let image = Self.ramp.torusLensDistortion(center: c, radius: ringRadius, width: 2 * a, refraction: n)
        #expect(image.extent == Self.ramp.extent)
        let checked = try Self.expectReads(image, "torus") { x, y in
            let (dx, dy) = (x - c.x, y - c.y)
            let r = (dx * dx + dy * dy).squareRoot()
            let d = r - ringRadius
            guard abs(d) < a else { return (x, y) }
            let z = (a * a - d * d).squareRoot()
            let normal = SIMD3(dx / r * d / a, dy / r * d / a, z / a)
            return Self.refracted(x, y, z: z, normal: normal, n: n)
        }
        #expect(checked > 8000)
        // Hand-computed: on the ray along +x, half-way out in the tube (d = 7), sin θᵢ = ½, sin θₜ = 1/3.4, z = 7√3;
        // the ray lands 7√3·tan(30° − 17.1046°) = 2.7758 pixels nearer the middle circle. That is pixel (82, 49).
        let out = try renderFloat(image, Rect(width: Self.size, height: Self.size))
        let p = pixel(out, 49 * Self.size + 82)
        #expect(abs(p.x - (82.5 - 2.7758)) < 2e-3 && abs(p.y - 49.5) < 1e-3, "\(p)")
    }

    @Test("GlassLozenge: each pixel under the capsule reads where a refracted vertical ray meets the image")
    func lozenge() throws {
        let (p0, p1, a, n) = (Point(x: 30, y: 40), Point(x: 66, y: 58), 18.0, 1.5)
        let image = Self.ramp.glassLozenge(point0: p0, point1: p1, radius: a, refraction: n)
        let checked = try Self.expectReads(image, "lozenge") { x, y in
            // The nearest point of the segment, by sampling it finely then refining.
            var best = (t: 0.0, d2: Double.infinity)
            for k in 0...4000 {
                let t = Double(k) / 4000
                let (qx, qy) = (p0.x + t * (p1.x - p0.x), p0.y + t * (p1.y - p0.y))
                let d2 = (x - qx) * (x - qx) + (y - qy) * (y - qy)
                if d2 < best.d2 { best = (t, d2) }
            }
            let (qx, qy) = (p0.x + best.t * (p1.x - p0.x), p0.y + best.t * (p1.y - p0.y))
            let d = best.d2.squareRoot()
            guard d < a, d > 0 else { return (x, y) }
            let z = (a * a - d * d).squareRoot()
            let normal = SIMD3((x - qx) / a, (y - qy) / a, z / a)
            return Self.refracted(x, y, z: z, normal: normal, n: n)
        }
        #expect(checked > 8000)
    }

    @Test(
        "StretchCrop: the crop between the frame and the target's shape fills size, the wider axis stretched sinusoidally"
    )
    func stretchCrop() throws {
        // 96×96 to 160×90 with half the crop: the 16:9 region is 96×54, half-way gives 96×75. x is stretched more
        // (160/96 > 90/75), so x follows t + 0.4·sin(2πt)/(2π) and y is linear.
        let image = Self.ramp.stretchCrop(size: [160, 90], cropAmount: 0.5, centerStretchAmount: 0.4)
        #expect(image.extent == Rect(x: 0, y: 0, width: 160, height: 90))
        let checked = try Self.expectReads(image, "stretchCrop", width: 160, height: 90) { x, y in
            let t = x / 160
            return (48 + 96 * (t + 0.4 * sin(2 * Double.pi * t) / (2 * Double.pi) - 0.5), 48 + 75 * (y / 90 - 0.5))
        }
        #expect(checked > 12000)
        // Column 40 (t = 40.5/160) reads 48 + 96·(t + 0.4·sin(2πt)/(2π) − 0.5) = 30.4104.
        let out = try renderFloat(image, Rect(x: 40, y: 45, width: 1, height: 1))
        #expect(abs(pixel(out, 0).x - 30.4104) < 2e-3)
    }

    /// Reduces `(sx, sy)` (relative to the inset's centre) into the band between the inset (half sizes `hw`, `hh`)
    /// and the inset scaled by `f`.
    static func intoBand(_ sx: Double, _ sy: Double, hw: Double, hh: Double, f: Double) -> (Double, Double)? {
        var (x, y) = (sx, sy)
        for _ in 0..<200 where abs(x) < hw && abs(y) < hh { (x, y) = (x * f, y * f) }
        for _ in 0..<200 where abs(x) > f * hw || abs(y) > f * hh { (x, y) = (x / f, y / f) }
        // Too near a rectangle's edge, rounding may pick the other level.
        let nearEdge =
            abs(abs(x) - hw) < 0.01 && abs(y) <= hh || abs(abs(y) - hh) < 0.01 && abs(x) <= hw
            || abs(abs(x) - f * hw) < 0.01 || abs(abs(y) - f * hh) < 0.01
        return nearEdge ? nil : (x, y)
    }

    @Test("Droste with no strands and one period is the picture recursed into its inset: the band reads itself")
    func drosteIdentity() throws {
        // Inset 36…60 × 40…56 about (48, 48): f = min(48/12, 48/8) = 4.
        let image = Self.ramp.droste(
            insetPoint0: Point(x: 36, y: 40), insetPoint1: Point(x: 60, y: 56), strands: 0, periodicity: 1)
        try Self.expectReads(image, "identity", tolerance: 5e-3) { x, y in
            guard let (sx, sy) = Self.intoBand(x - 48, y - 48, hw: 12, hh: 8, f: 4) else { return nil }
            return (48 + sx, 48 + sy)
        }
        let out = try renderFloat(image, Rect(width: Self.size, height: Self.size))
        // (90.5, 47.5) is in the band and reads itself; (50.5, 48.5), at (2.5, 0.5) from the centre, is inside the
        // inset at 4× too ((10, 2)), so it reads 16× farther out: (88, 56).
        #expect(abs(pixel(out, 47 * Self.size + 90).x - 90.5) < 2e-3)
        let inner = pixel(out, 48 * Self.size + 50)
        #expect(abs(inner.x - 88) < 5e-3 && abs(inner.y - 56) < 5e-3, "\(inner)")
    }

    @Test(
        "Droste reads c + exp(β·(log(z/zoom) − i·rotation)) reduced into the band, β = periodicity − i·strands·ln f/2π")
    func drosteSpiral() throws {
        let (strands, periodicity, rotation, zoom) = (1.0, 2.0, 0.3, 1.2)
        let image = Self.ramp.droste(
            insetPoint0: Point(x: 36, y: 40), insetPoint1: Point(x: 60, y: 56), strands: strands,
            periodicity: periodicity, rotation: rotation, zoom: zoom)
        let beta = (re: periodicity, im: -strands * log(4.0) / (2 * Double.pi))
        let checked = try Self.expectReads(image, "spiral", tolerance: 5e-3) { x, y in
            let (dx, dy) = (x - 48, y - 48)
            let zeta = (re: log(hypot(dx, dy) / zoom), im: atan2(dy, dx) - rotation)
            let w = (re: beta.re * zeta.re - beta.im * zeta.im, im: beta.re * zeta.im + beta.im * zeta.re)
            guard let (sx, sy) = Self.intoBand(exp(w.re) * cos(w.im), exp(w.re) * sin(w.im), hw: 12, hh: 8, f: 4)
            else { return nil }
            return (48 + sx, 48 + sy)
        }
        #expect(checked > 4000)
    }

    @Test(
        "rendering a part equals the same part of the whole (the ROIs cover every source position)",
        arguments: ["torus", "lozenge", "stretch", "droste", "drosteSpiral"])
    func regionOfInterest(name: String) throws {
        let image =
            switch name {
            case "torus": Self.ramp.torusLensDistortion(center: Point(x: 40, y: 50), radius: 20, width: 16)
            case "lozenge":
                Self.ramp.glassLozenge(point0: Point(x: 20, y: 30), point1: Point(x: 60, y: 50), radius: 15)
            case "stretch": Self.ramp.stretchCrop(size: [96, 96], cropAmount: 0.3, centerStretchAmount: 0.8)
            case "droste":
                Self.ramp.droste(insetPoint0: Point(x: 36, y: 40), insetPoint1: Point(x: 60, y: 56), periodicity: 2)
            default:
                Self.ramp.droste(
                    insetPoint0: Point(x: 40, y: 42), insetPoint1: Point(x: 56, y: 54), strands: 2, periodicity: 1,
                    rotation: 0.4, zoom: 1.3)
            }
        let whole = try renderFloat(image, Rect(width: Self.size, height: Self.size))
        // Every 16-pixel part: Droste's parts away from the centre read only what their probed source positions
        // (padded) cover, across the spiral's seams.
        for y0 in stride(from: 0, through: Self.size - 16, by: 16) {
            for x0 in stride(from: 0, through: Self.size - 16, by: 16) {
                let part = try renderFloat(image, Rect(x: x0, y: y0, width: 16, height: 16))
                for y in 0..<16 {
                    for x in 0..<16 {
                        #expect(pixel(part, y * 16 + x) == pixel(whole, (y + y0) * Self.size + x + x0), "\(name)")
                    }
                }
            }
        }
    }
}
