import Foundation
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// The light generators against their documented formulas evaluated here, their symmetries and, for Sunbeams, the
/// total light of the analytic integral.
@Suite struct LightGeneratorTests {
    static let size = 100
    static let center = Point(x: 50, y: 50)
    static let color = Color(red: 1, green: 0.8, blue: 0.6)

    /// The output's premultiplied pixels over `0..<size` squared.
    static func render(_ image: Image) throws -> [SIMD4<Double>] {
        let out = try renderFloat(image, Rect(width: size, height: size))
        return (0..<(size * size)).map { i in
            let p = pixel(out, i)
            return SIMD4(p.x * p.w, p.y * p.w, p.z * p.w, p.w)
        }
    }

    static func generated(_ filter: some DeclaredFilter) -> Image { filter.outputImage }

    /// The documented striation pattern.
    static func striation(_ phi: Double, time: Double, contrast: Double) -> Double {
        let m = [7.0, 11, 17, 23]
        let p = [0.3, 1.9, 4.1, 2.6]
        let v = [1, -1.3, 0.7, -0.5]
        let n = (0..<4).map { cos(m[$0] * phi + p[$0] + 2 * Double.pi * v[$0] * time) }.reduce(0, +) / 4
        return pow(max(0.5 + 0.5 * n, 0), contrast)
    }

    static func expectClose(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ tolerance: Double, _ comment: String) -> Bool {
        let d = max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z), abs(a.w - b.w))
        return d <= tolerance * max(1, abs(b.x))
    }

    @Test("StarShineGenerator: core ε/(ε + (r/R)²) plus two rays e^opacity·exp(−(b/w)² − |a|/(scale·R)), times colour")
    func starShine() throws {
        let (radius, scale, angle, opacity, width, epsilon) = (12.0, 2.0, 0.5, -1.0, 3.0, -1.5)
        let image = Self.generated(
            Filters.StarShineGenerator {
                $0.center = Self.center
                $0.color = Self.color
                $0.radius = radius
                $0.crossScale = scale
                $0.crossAngle = angle
                $0.crossOpacity = opacity
                $0.crossWidth = width
                $0.epsilon = epsilon
            })
        #expect(image.extent.isInfinite)
        let out = try Self.render(image)
        var bad = 0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let (dx, dy) = (Double(x) + 0.5 - 50, Double(y) + 0.5 - 50)
                let eps = exp(epsilon)
                let core = eps / (eps + (dx * dx + dy * dy) / (radius * radius))
                // The rays along (cos, sin)·angle and at right angles, by projection.
                var rays = 0.0
                for theta in [angle, angle + Double.pi / 2] {
                    let along = dx * cos(theta) + dy * sin(theta)
                    let across = -dx * sin(theta) + dy * cos(theta)
                    rays += exp(opacity) * exp(-(across / width) * (across / width) - abs(along) / (scale * radius))
                }
                let i = core + rays
                let expected = SIMD4(i, 0.8 * i, 0.6 * i, min(i, 1))
                if !Self.expectClose(out[y * Self.size + x], expected, 1e-4, "") { bad += 1 }
            }
        }
        #expect(bad == 0, "\(bad) pixels off the formula")
    }

    @Test("StarShineGenerator with its rays on the axes is invariant under quarter turns and the axis mirrors")
    func starShineSymmetry() throws {
        let out = try Self.render(
            Self.generated(
                Filters.StarShineGenerator {
                    $0.center = Self.center
                    $0.crossAngle = 0
                    $0.radius = 10
                    $0.crossScale = 3
                }))
        var worst = 0.0
        let n = Self.size
        for y in 0..<n {
            for x in 0..<n {
                let a = out[y * n + x]
                for b in [out[y * n + (n - 1 - x)], out[(n - 1 - y) * n + x], out[x * n + (n - 1 - y)]] {
                    worst = max(worst, abs(a.x - b.x), abs(a.w - b.w))
                }
            }
        }
        #expect(worst < 1e-5, "worst \(worst)")
    }

    static func sunbeams(strength: Double, time: Double = 0, radius: Double = 10, reach: Double = 3) -> Image {
        Self.generated(
            Filters.SunbeamsGenerator {
                $0.center = Self.center
                $0.color = Self.color
                $0.sunRadius = radius
                $0.maxStriationRadius = reach
                $0.striationStrength = strength
                $0.striationContrast = 1.5
                $0.time = time
            })
    }

    @Test(
        "SunbeamsGenerator: 1 in the disc, (R/r)²·(1 − (r − R)/(R(m − 1)))·((1 − k) + k·s(φ)) outside",
        arguments: [0, 0.3])
    func sunbeams(time: Double) throws {
        let out = try Self.render(Self.sunbeams(strength: 0.7, time: time))
        var bad = 0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let (dx, dy) = (Double(x) + 0.5 - 50, Double(y) + 0.5 - 50)
                let r = (dx * dx + dy * dy).squareRoot()
                let i =
                    r <= 10
                    ? 1
                    : (10 / r) * (10 / r) * max(0, 1 - (r - 10) / 20)
                        * (0.3 + 0.7 * Self.striation(atan2(dy, dx), time: time, contrast: 1.5))
                if !Self.expectClose(out[y * Self.size + x], SIMD4(i, 0.8 * i, 0.6 * i, min(i, 1)), 1e-4, "") {
                    bad += 1
                }
            }
        }
        #expect(bad == 0, "\(bad) pixels off the formula")
    }

    @Test("SunbeamsGenerator without striation holds the light πR² + 2πR²(ln m − 1 + ln m/(m − 1)) of the integral")
    func sunbeamsEnergy() throws {
        // R = 10, m = 3: 100π + 200π·(ln 3 − 1 + ln 3 / 2) = 721.3.
        let out = try Self.render(Self.sunbeams(strength: 0))
        let total = out.map(\.x).reduce(0, +)
        let expected = 100 * Double.pi + 200 * Double.pi * (log(3.0) - 1 + log(3.0) / 2)
        #expect(abs(total - expected) / expected < 0.01, "total \(total), expected \(expected)")
    }

    @Test("LenticularHaloGenerator: three striated parabolic rings, red outermost; overlap 1 makes them one")
    func lenticularHalo() throws {
        let (radius, width, overlap) = (30.0, 16.0, 0.5)
        func halo(_ overlap: Double) -> Image {
            Self.generated(
                Filters.LenticularHaloGenerator {
                    $0.center = Self.center
                    $0.color = Self.color
                    $0.haloRadius = radius
                    $0.haloWidth = width
                    $0.haloOverlap = overlap
                    $0.striationStrength = 0.4
                    $0.striationContrast = 2
                    $0.time = 0.2
                })
        }
        let out = try Self.render(halo(overlap))
        var bad = 0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let (dx, dy) = (Double(x) + 0.5 - 50, Double(y) + 0.5 - 50)
                let r = (dx * dx + dy * dy).squareRoot()
                let spread = (1 - overlap) * width / 2
                let striated = 0.6 + 0.4 * Self.striation(atan2(dy, dx), time: 0.2, contrast: 2)
                let ring = { (middle: Double) in max(0, 1 - pow((r - middle) / (width / 2), 2)) * striated }
                let (ir, ig, ib) = (ring(radius + spread), ring(radius), ring(radius - spread))
                let expected = SIMD4(ir, 0.8 * ig, 0.6 * ib, min(max(ir, ig, ib), 1))
                if !Self.expectClose(out[y * Self.size + x], expected, 1e-4, "") { bad += 1 }
            }
        }
        #expect(bad == 0, "\(bad) pixels off the formula")
        // Along +x from the centre the red ring peaks 4 pixels beyond the green one, the blue 4 before.
        let row = (0..<Self.size).map { out[50 * Self.size + $0] }
        let peak = { (channel: (SIMD4<Double>) -> Double) in
            (50..<Self.size).max { channel(row[$0]) < channel(row[$1]) }!
        }
        #expect(peak(\.x) - peak(\.y) == 4 && peak(\.y) - peak(\.z) == 4, "\(peak(\.x)) \(peak(\.y)) \(peak(\.z))")
        let one = try Self.render(halo(1))
        #expect(one.allSatisfy { abs($0.x * 0.8 - $0.y) < 1e-6 && abs($0.x * 0.6 - $0.z) < 1e-6 })
    }
}
