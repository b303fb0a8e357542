import Foundation
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
                    $0.shadowRadius = 4
                    $0.shadowOffset = Point(x: -3, y: 0)
                })
        case "swipe": source.swipeTransition(to: target, time: time, angle: 0.7, width: 12)
        case "mod": source.applyingFilter(mod(time))
        case "copy": source.applyingFilter(copyMachine(time))
        case "ripple": source.applyingFilter(ripple(time))
        case "accordion": source.applyingFilter(accordion(time))
        case "curl": source.applyingFilter(pageCurl(time))
        case "curlShadow": source.applyingFilter(pageCurlWithShadow(time))
        case "flash":
            source.applyingFilter(
                Filters.FlashTransition {
                    $0.target = target
                    $0.center = Point(x: 32, y: 32)
                    $0.extent = Rect(x: 0, y: 0, width: 64, height: 64)
                    $0.time = time
                })
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
        arguments: [
            "dissolve", "disintegrate", "bars", "swipe", "mod", "copy", "flash", "ripple", "accordion", "curl",
            "curlShadow",
        ])
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

    @Test("DisintegrateWithMask reveals the target where the mask is below time, shadowed by 0.65·Φ((x + 3 − 26)/4)")
    func disintegrate() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let out = try renderFloat(Self.transition("disintegrate", time: 0.4))
        var worst = 0.0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let p = y * Self.size + x
                guard (Double(x) + 0.5) / Double(Self.size) < 0.4 else {
                    #expect(pixel(out, p) == pixel(s, p))
                    continue
                }
                // The picture stands from column 26; its shadow, moved 3 pixels left, at the pixel centre x + 0.5.
                let shade = 0.65 * 0.5 * erfc(-(Double(x) + 0.5 + 3 - 26) / (4 * 2.0.squareRoot()))
                let e = pixel(t, p)
                let expected = SIMD4(e.x * (1 - shade), e.y * (1 - shade), e.z * (1 - shade), e.w)
                // Rows within 3σ of the mask's top and bottom edges get less shadow (nothing stands beyond them).
                if y >= 12, y < Self.size - 12 {
                    let d = pixel(out, p) - expected
                    worst = max(worst, abs(d.x), abs(d.y), abs(d.z), abs(d.w))
                } else {
                    #expect(pixel(out, p).w == e.w)
                }
            }
        }
        #expect(worst < 0.01, "worst \(worst)")
    }

    @Test("DisintegrateWithMask's shadow offset is a displacement: Core Image's (0, −10) is Lux's (0, 10)")
    func disintegrateOffsetFromCoreImage() throws {
        let d = try FilterRegistry.builtIn.descriptor(named: "DisintegrateWithMaskTransition")
        let offset = try #require(d.parameters.first { $0.name == "shadowOffset" })
        let ci = CoreImageCoordinates(extent: Rect(x: 0, y: 0, width: 64, height: 64))
        guard case .vector(let converted) = ci.value([0, -10], for: offset),
            case .vector(let standard)? = offset.defaultValue
        else {
            Issue.record("the offset is not a vector")
            return
        }
        #expect(converted == [0, 10])
        #expect(standard == [0, 10])
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

    static func mod(_ time: Double) -> Filters.ModTransition {
        Filters.ModTransition {
            $0.target = target
            $0.center = Point(x: 30, y: 30)
            $0.angle = 0.5
            $0.radius = 20
            $0.compression = 35
            $0.time = time
        }
    }

    static func copyMachine(_ time: Double) -> Filters.CopyMachineTransition {
        Filters.CopyMachineTransition {
            $0.target = target
            $0.extent = Rect(x: 0, y: 0, width: 64, height: 64)
            $0.width = 16
            $0.time = time
        }
    }

    static func ripple(_ time: Double) -> Filters.RippleTransition {
        Filters.RippleTransition {
            $0.target = target
            $0.center = Point(x: 20.5, y: 24.5)
            $0.extent = Rect(x: 0, y: 0, width: 64, height: 64)
            $0.width = 12
            $0.scale = 3
            $0.time = time
        }
    }

    @Test("Ripple: in the ring both images are read scale·sin(πs) nearer the centre and mixed by s; the wake grows")
    func ripple() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let out = try renderFloat(Self.transition("ripple", time: 0.5))
        // The farthest corner is (64, 64): D = √(43.5² + 39.5²); the ring's outer edge is at 0.5·(D + 12).
        let outer = 0.5 * ((43.5 * 43.5 + 39.5 * 39.5).squareRoot() + 12)
        // Along row 24 (through the centre) a pixel at distance r reads at x = 20.5 + r' on the same row.
        func lerp(_ c: [Float], _ x: Double) -> SIMD4<Double> {
            let i = Int((x - 0.5).rounded(.down))
            let f = x - 0.5 - Double(i)
            return pixel(c, 24 * Self.size + i) * (1 - f) + pixel(c, 24 * Self.size + i + 1) * f
        }
        var ring = 0
        for x in 21..<Self.size {
            let r = Double(x) + 0.5 - 20.5
            let p = pixel(out, 24 * Self.size + x)
            if r >= outer {
                #expect(p == pixel(s, 24 * Self.size + x))
            } else if r <= outer - 12 {
                #expect(p == pixel(t, 24 * Self.size + x))
            } else {
                let k = (outer - r) / 12
                let q = 20.5 + r - 3 * sin(Double.pi * k)
                let e = lerp(s, q) + (lerp(t, q) - lerp(s, q)) * k
                let d = p - e
                #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-4, "x \(x)")
                ring += 1
            }
        }
        #expect(ring == 12)
        var previous = Set<Int>()
        for time in [0.2, 0.4, 0.6, 0.8] {
            let now = Self.targetPixels(try renderFloat(Self.transition("ripple", time: time)), t)
            #expect(now.isStrictSuperset(of: previous), "time \(time)")
            previous = now
        }
    }

    /// The pixels that show exactly the target.
    static func targetPixels(_ out: [Float], _ t: [Float]) -> Set<Int> {
        Set((0..<(size * size)).filter { pixel(out, $0) == pixel(t, $0) })
    }

    @Test("Mod: k = clamp((time·1.05 − q)/0.05, 0, 1), q the documented pattern; holes only grow")
    func mod() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let out = try renderFloat(Self.transition("mod", time: 0.4))
        var worst = 0.0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let (dx, dy) = (Double(x) + 0.5 - 30, Double(y) + 0.5 - 30)
                let u = (cos(0.5) * dx + sin(0.5) * dy) / 20
                let v = (-sin(0.5) * dx + cos(0.5) * dy) / 35
                let q = 0.5 + 0.25 * sin(2 * Double.pi * u + sin(2 * Double.pi * v)) + 0.25 * sin(2 * Double.pi * v)
                let k = min(max((0.4 * 1.05 - q) / 0.05, 0), 1)
                let p = y * Self.size + x
                let d = pixel(out, p) - (pixel(s, p) + (pixel(t, p) - pixel(s, p)) * k)
                worst = max(worst, abs(d.x), abs(d.y), abs(d.z), abs(d.w))
            }
        }
        #expect(worst < 1e-4, "worst \(worst)")
        var previous = Set<Int>()
        for time in [0.1, 0.3, 0.5, 0.7, 0.9] {
            let now = Self.targetPixels(try renderFloat(Self.transition("mod", time: time)), t)
            #expect(now.isStrictSuperset(of: previous), "time \(time): \(now.count) target pixels")
            previous = now
        }
    }

    @Test("CopyMachine: target behind the bar, source ahead, the bar's light hand-computed; the copied part only grows")
    func copyMachine() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let out = try renderFloat(Self.transition("copy", time: 0.5))
        // Angle 0 over 64 pixels, width 16: the bar's middle is at 0.5·(64 + 16) − 8 = 32. Column 10 is copied and
        // unlit; column 33 (u = 33.5) is the source lit by 1.3·(1 − (1.5/8)²) = 1.254296875 of (0.6, 1, 0.8).
        let l = 1.254_296_875
        for y in [0, 20, 63] {
            #expect(pixel(out, y * Self.size + 10) == pixel(t, y * Self.size + 10))
            let d = pixel(out, y * Self.size + 33) - (pixel(s, y * Self.size + 33) + SIMD4(0.6 * l, l, 0.8 * l, 0))
            #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-5, "\(d)")
            #expect(pixel(out, y * Self.size + 50) == pixel(s, y * Self.size + 50))
        }
        var previous = Set<Int>()
        for time in [0.3, 0.5, 0.7, 0.9] {
            let now = Self.targetPixels(try renderFloat(Self.transition("copy", time: time)), t)
            #expect(now.isStrictSuperset(of: previous), "time \(time)")
            previous = now
        }
    }

    @Test("Flash: strength 4t(1 − t) lights the sun of radius strength·diagonal/2; the cross-fade is half-way at 0.5")
    func flash() throws {
        let s = try renderFloat(Self.source)
        let t = try renderFloat(Self.target)
        let c = SIMD4<Double>(1, 0.8, 0.6, 0)
        // At 0.5 the strength is 1 and k = (0.5 − 0.425)/0.15 = ½; the centre is inside the sun: light 1.
        let half = try renderFloat(Self.transition("flash", time: 0.5))
        let p = 32 * Self.size + 32
        var d = pixel(half, p) - ((pixel(s, p) + pixel(t, p)) / 2 + c)
        #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-5, "\(d)")
        // At 0.2 the strength is 0.64 and there is no cross-fade yet.
        let early = try renderFloat(Self.transition("flash", time: 0.2))
        d = pixel(early, p) - (pixel(s, p) + 0.64 * c)
        #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-5, "\(d)")
    }

    @Test("image inputs answer to inputTargetImage and inputMaskImage")
    func coreImageKeys() throws {
        let byName = try FilterRegistry.builtIn.apply(
            "CIDisintegrateWithMaskTransition", to: Self.source,
            parameters: [
                "inputTargetImage": .image(Self.target), "inputMaskImage": .image(Self.mask), "inputTime": 0.4,
                "inputShadowRadius": 4, "inputShadowOffset": [-3, 0],
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
