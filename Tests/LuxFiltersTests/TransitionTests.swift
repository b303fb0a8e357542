import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// Transitions show the source at time 0 and the target at time 1, and in between what their documented rules say.
@Suite struct TransitionTests {
    static let size = 64
    static let source = Image(buffer: randomBuffer(width: size, height: size, seed: 11))
    static let target = Image(buffer: randomBuffer(width: size, height: size, seed: 12))
    /// A horizontal ramp mask: luma (x + 0.5) / size.
    static let mask: Image = {
        var c = [Float](repeating: 1, count: 4 * size * size)
        for y in 0..<size {
            for x in 0..<size { for ch in 0..<3 { c[4 * (y * size + x) + ch] = (Float(x) + 0.5) / Float(size) } }
        }
        return Image(buffer: PixelBuffer(width: size, height: size, format: .rgbaFloat, components: c))
    }()

    static func transition(_ name: String, time: Double) -> Image {
        switch name {
        case "dissolve": source.dissolveTransition(to: target, time: time)
        case "disintegrate":
            source.applyingFilter(
                Filters.DisintegrateWithMaskTransition {
                    $0.target = target
                    $0.mask = mask
                    $0.time = time
                })
        case "swipe": source.swipeTransition(to: target, time: time, angle: 0.7, width: 12)
        default:
            source.applyingFilter(
                Filters.BarsSwipeTransition {
                    $0.target = target
                    $0.angle = 0.4
                    $0.width = 7
                    $0.time = time
                })
        }
    }

    @Test(
        "time 0 gives the source and time 1 the target, exactly",
        arguments: ["dissolve", "disintegrate", "bars", "swipe"])
    func ends(name: String) throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        #expect(try renderFloat(Self.transition(name, time: 0)) == s)
        #expect(try renderFloat(Self.transition(name, time: 1)) == t)
    }

    @Test("Dissolve at 0.3 is source + 0.3·(target − source) per component")
    func dissolve() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let out = try renderFloat(Self.transition("dissolve", time: 0.3))
        for i in 0..<out.count { #expect(abs(Double(out[i]) - (Double(s[i]) + 0.3 * Double(t[i] - s[i]))) < 1e-6) }
    }

    @Test("DisintegrateWithMask reveals the target where the mask is below time (columns left of 0.4·size)")
    func disintegrate() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let out = try renderFloat(Self.transition("disintegrate", time: 0.4))
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let p = y * Self.size + x
                let expected = (Double(x) + 0.5) / Double(Self.size) < 0.4 ? pixel(t, p) : pixel(s, p)
                #expect(pixel(out, p) == expected)
            }
        }
    }

    @Test("BarsSwipe: target where u < time·(L + offset) − offset·(bar mod 2), hand-computed geometry")
    func bars() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let out = try renderFloat(Self.transition("bars", time: 0.45))
        // Angle 0.4 over a 64-pixel square: u runs from 0 (top-left corner) to 64·(cos 0.4 + sin 0.4).
        let c = 0.921_060_994_002_885_1
        let sn = 0.389_418_342_308_650_5
        let length = 64 * (c + sn)
        var switched = 0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let px = Double(x) + 0.5
                let py = Double(y) + 0.5
                let bar = Int(((-sn * px + c * py) / 7).rounded(.down))
                let u = px * c + py * sn
                let front = 0.45 * (length + 10) - (bar & 1 == 0 ? 0 : 10)
                guard abs(u - front) > 1e-3 else { continue }
                let p = y * Self.size + x
                #expect(pixel(out, p) == (u < front ? pixel(t, p) : pixel(s, p)), "(\(x), \(y))")
                switched += u < front ? 1 : 0
            }
        }
        #expect(switched > 1000 && switched < 3000)
    }

    @Test("Swipe: k = clamp((time·(L + width) − u)/width, 0, 1) and the edge tinted by opacity·(1 − |2k − 1|)")
    func swipe() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let out = try renderFloat(
            Self.source.applyingFilter(
                Filters.SwipeTransition {
                    $0.target = Self.target
                    $0.extent = Rect(x: 0, y: 0, width: 64, height: 64)
                    $0.time = 0.5
                    $0.width = 16
                    $0.opacity = 0.5
                    $0.color = Color(red: 1, green: 0, blue: 0)
                }))
        // Angle 0: u = x + 0.5 over L = 64, the edge's middle at time·(64 + 16) − 8 = 32.
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let k = min(max((40 - (Double(x) + 0.5)) / 16, 0), 1)
                let a = 0.5 * (1 - abs(2 * k - 1))
                let p = y * Self.size + x
                let mix: SIMD4<Double> = pixel(s, p) + (pixel(t, p) - pixel(s, p)) * k
                let expected: SIMD4<Double> = mix + (SIMD4<Double>(1, 0, 0, 1) - mix) * a
                let d: SIMD4<Double> = pixel(out, p) - expected
                #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-5, "(\(x), \(y))")
            }
        }
    }

    @Test("image inputs answer to inputTargetImage and inputMaskImage")
    func coreImageKeys() throws {
        let byName = try FilterRegistry.builtIn.apply(
            "CIDisintegrateWithMaskTransition", to: Self.source,
            parameters: [
                "inputTargetImage": .image(Self.target), "inputMaskImage": .image(Self.mask), "inputTime": 0.4,
            ])
        #expect(try renderFloat(byName) == renderFloat(Self.transition("disintegrate", time: 0.4)))
    }
}

/// Pixellate gives constant cells holding the image's colour at each cell's centre.
@Suite struct PixellateTests {
    @Test("cells of scale × scale aligned on center are constant and equal the source at the cell centre")
    func cells() throws {
        let size = 60
        let ramp = coordinateRamp(size: size)
        let out = try renderFloat(ramp.pixellate(center: Point(x: 3, y: 5), scale: 6))
        for y in 8..<(size - 8) {
            for x in 8..<(size - 8) {
                let cx = ((Double(x) + 0.5 - 3) / 6).rounded(.down) * 6 + 3 + 3
                let cy = ((Double(y) + 0.5 - 5) / 6).rounded(.down) * 6 + 5 + 3
                let p = pixel(out, y * size + x)
                #expect(abs(p.x - cx) < 1e-4 && abs(p.y - cy) < 1e-4, "(\(x), \(y))")
            }
        }
    }
}
