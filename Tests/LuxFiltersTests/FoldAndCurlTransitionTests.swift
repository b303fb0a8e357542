import Foundation
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

extension TransitionTests {
    static let backside = Image(buffer: randomBuffer(width: size, height: size, seed: 13))

    static func accordion(_ time: Double) -> Filters.AccordionFoldTransition {
        Filters.AccordionFoldTransition {
            $0.target = target
            $0.bottomHeight = 16
            $0.numberOfFolds = 2
            $0.foldShadowAmount = 0.4
            $0.time = time
        }
    }

    static func pageCurl(_ time: Double) -> Filters.PageCurlTransition {
        Filters.PageCurlTransition {
            $0.target = target
            $0.backside = backside
            $0.extent = Rect(x: 0, y: 0, width: 64, height: 64)
            $0.radius = 8
            $0.time = time
        }
    }

    static func pageCurlWithShadow(_ time: Double) -> Filters.PageCurlWithShadowTransition {
        Filters.PageCurlWithShadowTransition {
            $0.target = target
            $0.extent = Rect(x: 0, y: 0, width: 64, height: 64)
            $0.radius = 8
            $0.shadowSize = 0.5
            $0.shadowAmount = 0.6
            $0.shadowExtent = Rect(x: 0, y: 0, width: 64, height: 30)
            $0.time = time
        }
    }

    /// Bilinear interpolation of `c` along row `y` at the continuous column `x` (pixel centres at `i + 0.5`).
    static func alongRow(_ c: [Float], y: Int, x: Double) -> SIMD4<Double> {
        let i = Int((x - 0.5).rounded(.down))
        let f = x - 0.5 - Double(i)
        let a = i >= 0 && i < size ? pixel(c, y * size + i) : .zero
        let b = i + 1 >= 0 && i + 1 < size ? pixel(c, y * size + i + 1) : .zero
        return a * (1 - f) + b * f
    }

    static func largest(_ d: SIMD4<Double>) -> Double { max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) }

    @Test(
        "AccordionFold: the fold squeezes rows towards the band by 1 − time, every second slat darkened; coverage grows"
    )
    func accordionFold() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let out = try renderFloat(Self.transition("accordion", time: 0.5))
        // Band top b = 64 − 16 = 48, folded height F = 48 over 4 slats of 12 rows; at time 0.5 the fold spans rows
        // 24…48 and row centre y reads row b − 2·(b − y); sin θ = √(1 − 0.5²), so dark slats keep 1 − 0.4·0.8660254.
        let dark = 1 - 0.4 * (0.75).squareRoot()
        for x in [3, 40] {
            for y in 0..<Self.size {
                let p = y * Self.size + x
                let yc = Double(y) + 0.5
                if yc < 24 {
                    #expect(pixel(out, p) == pixel(t, p), "(\(x), \(y))")
                    continue
                }
                var before = pixel(s, p)
                if yc < 48 {
                    let from = 48 - 2 * (48 - yc)
                    let j = Int((from - 0.5).rounded(.down))
                    let f = from - 0.5 - Double(j)
                    before = pixel(s, j * Self.size + x) * (1 - f) + pixel(s, (j + 1) * Self.size + x) * f
                    if Int(((48 - from) / 12).rounded(.down)) % 2 == 1 {
                        before = SIMD4(before.x * dark, before.y * dark, before.z * dark, before.w)
                    }
                }
                let expected = before + (pixel(t, p) - before) * 0.5
                #expect(Self.largest(pixel(out, p) - expected) < 1e-5, "(\(x), \(y))")
            }
        }
        var previous = Set<Int>()
        for time in [0.2, 0.4, 0.6, 0.8] {
            let now = Self.targetPixels(try renderFloat(Self.transition("accordion", time: time)), t)
            #expect(now.isStrictSuperset(of: previous), "time \(time)")
            previous = now
        }
    }

    @Test(
        "PageCurl: a row through the cylinder against its mapping; the back at φ = 5π/6 hand-computed; coverage grows")
    func pageCurlGeometry() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let b = try renderFloat(Self.backside)
        // Angle 0: u = x + 0.5 over L = 64; the line is at f = time·(64 + 8) = 35.5.
        let f = 35.5
        let out = try renderFloat(Self.transition("curl", time: f / 72))
        // Column 31 (u = 31.5, d = 4 = R·sin(π/6)) shows the back at φ = π − π/6: u₀ = 35.5 − 8·5π/6 = 14.5560.
        let hand = Self.alongRow(b, y: 20, x: 14.556_049)
        #expect(Self.largest(pixel(out, 20 * Self.size + 31) - hand) < 1e-4)
        var kinds = [0, 0, 0, 0, 0]
        for x in 0..<Self.size {
            let u = Double(x) + 0.5
            let d = f - u
            let p = 20 * Self.size + x
            let expected: SIMD4<Double>
            if d > 8 {
                (expected, kinds[0]) = (pixel(t, p), kinds[0] + 1)
            } else if d >= 0 {
                let upper = f - 8 * (Double.pi - asin(d / 8))
                let lower = f - 8 * asin(d / 8)
                if upper >= 0 {
                    (expected, kinds[1]) = (Self.alongRow(b, y: 20, x: upper), kinds[1] + 1)
                } else {
                    (expected, kinds[2]) = (Self.alongRow(s, y: 20, x: lower), kinds[2] + 1)
                }
            } else {
                let over = 2 * f - Double.pi * 8 - u
                if over >= 0 {
                    // Laid over the page at rest (the back's edge pixel is partly transparent).
                    let back = Self.alongRow(b, y: 20, x: over)
                    (expected, kinds[3]) = (back + pixel(s, p) * (1 - back.w), kinds[3] + 1)
                } else {
                    (expected, kinds[4]) = (pixel(s, p), kinds[4] + 1)
                }
            }
            #expect(Self.largest(pixel(out, p) - expected) < 1e-4, "x \(x)")
        }
        // The target to column 26; the back on the upper half 27…35 (u₀ ≥ 0 throughout); the back lying upside down
        // over 36…45 (u₀ = 2f − 8π − u ≥ 0); the page at rest from 46.
        #expect(kinds == [27, 9, 0, 10, 18])
        var previous = Set<Int>()
        for time in [0.2, 0.4, 0.6, 0.8] {
            let now = Self.targetPixels(try renderFloat(Self.transition("curl", time: time)), t)
            #expect(now.isStrictSuperset(of: previous), "time \(time)")
            previous = now
        }
    }

    @Test("PageCurlWithShadow: the target darkened by 1 − amount·(1 − e/w) within w of the cylinder, 0 elsewhere")
    func pageCurlShadow() throws {
        let t = try renderFloat(Self.target)
        // R = 8, w = 0.5·8 = 4; the line at f = time·(64 + 8 + 4) = 40, the cylinder's edge at 32.
        let out = try renderFloat(Self.transition("curlShadow", time: 40.0 / 76))
        for y in [5, 20, 29, 30, 45] {
            for x in 0..<32 {
                let p = y * Self.size + x
                let e = 32 - (Double(x) + 0.5)
                // Inside the shadow's extent (rows above 30) and within 4 pixels: column 30 (e = 1.5) keeps 0.625.
                let k = y < 30 && e < 4 ? 1 - 0.6 * (1 - e / 4) : 1
                let expected = SIMD4(pixel(t, p).x * k, pixel(t, p).y * k, pixel(t, p).z * k, pixel(t, p).w)
                if k == 1 {
                    #expect(pixel(out, p) == pixel(t, p), "(\(x), \(y))")
                } else {
                    #expect(Self.largest(pixel(out, p) - expected) < 1e-5, "(\(x), \(y))")
                }
            }
        }
        let p = 20 * Self.size + 30
        #expect(abs(pixel(out, p).x - 0.625 * pixel(t, p).x) < 1e-5)
    }
}
