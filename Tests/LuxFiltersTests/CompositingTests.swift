import Foundation
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import Testing

/// Blend modes and compositing against the published formulas (W3C Compositing and Blending Level 1, PDF 1.7
/// §11.3.5, Porter–Duff), written out here in Double on random translucent colours.
@Suite struct CompositingTests {
    static let sourceBuffer = randomBuffer(width: 29, height: 17, seed: 121, alpha: true)
    static let backdropBuffer = randomBuffer(width: 29, height: 17, seed: 122, alpha: true)
    static let source = Image(buffer: sourceBuffer)
    static let backdrop = Image(buffer: backdropBuffer)
    static let s = sourceBuffer.components(as: Float.self)
    static let b = backdropBuffer.components(as: Float.self)

    /// W3C separable B(cb, cs).
    static func separable(_ mode: BlendMode, _ cb: Double, _ cs: Double) -> Double {
        func screen(_ a: Double, _ b: Double) -> Double { a + b - a * b }
        func hardLight(_ cb: Double, _ cs: Double) -> Double { cs <= 0.5 ? cb * 2 * cs : screen(cb, 2 * cs - 1) }
        switch mode {
        case .multiply: return cb * cs
        case .screen: return screen(cb, cs)
        case .overlay: return hardLight(cs, cb)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge: return cb == 0 ? 0 : (cs >= 1 ? 1 : min(1, cb / (1 - cs)))
        case .colorBurn: return cb == 1 ? 1 : (cs <= 0 ? 0 : 1 - min(1, (1 - cb) / cs))
        case .hardLight: return hardLight(cb, cs)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        case .divide: return cs > 0 ? cb / cs : (cb > 0 ? 1 : 0)
        case .linearBurn: return max(0, cb + cs - 1)
        case .linearDodge: return cb + cs
        case .pinLight: return cs <= 0.5 ? min(cb, 2 * cs) : max(cb, 2 * cs - 1)
        case .subtract: return max(0, cb - cs)
        default: preconditionFailure()
        }
    }

    /// W3C non-separable B(Cb, Cs) with Lum = 0.3R + 0.59G + 0.11B.
    static func nonSeparable(_ mode: BlendMode, _ cb: SIMD3<Double>, _ cs: SIMD3<Double>) -> SIMD3<Double> {
        func lum(_ c: SIMD3<Double>) -> Double { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }
        func clip(_ c: SIMD3<Double>) -> SIMD3<Double> {
            let l = lum(c)
            let n = c.min()
            let x = c.max()
            var r = c
            if n < 0 { r = l + (r - l) * l / (l - n) }
            if x > 1 { r = l + (r - l) * (1 - l) / (x - l) }
            return r
        }
        func setLum(_ c: SIMD3<Double>, _ l: Double) -> SIMD3<Double> { clip(c + (l - lum(c))) }
        func sat(_ c: SIMD3<Double>) -> Double { c.max() - c.min() }
        func setSat(_ c: SIMD3<Double>, _ s: Double) -> SIMD3<Double> {
            // Sort the channels: max → s, mid scaled, min → 0 (W3C's SetSat).
            var idx = [0, 1, 2].sorted { c[$0] < c[$1] }
            var out = SIMD3<Double>()
            let (lo, mid, hi) = (idx[0], idx[1], idx[2])
            if c[hi] > c[lo] {
                out[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo])
                out[hi] = s
            }
            out[lo] = 0
            idx = []
            return out
        }
        switch mode {
        case .hue: return setLum(setSat(cs, sat(cb)), lum(cb))
        case .saturation: return setLum(setSat(cb, sat(cs)), lum(cb))
        case .color: return setLum(cs, lum(cb))
        default: return setLum(cb, lum(cs))
        }
    }

    @Test("every blend mode composites B(cb, cs) as W3C §5.9 prescribes", arguments: BlendMode.allCases)
    func blendMode(mode: BlendMode) throws {
        let out = try renderFloat(Self.source.blended(onto: Self.backdrop, mode: mode))
        #expect(Self.source.blended(onto: Self.backdrop, mode: mode).extent == Rect(width: 29, height: 17))
        var worst = 0.0
        for p in 0..<(29 * 17) {
            let cs = pixel(Self.s, p)
            let cb = pixel(Self.b, p)
            let (sa, ba) = (cs.w, cb.w)
            let csv = SIMD3(cs.x, cs.y, cs.z)
            let cbv = SIMD3(cb.x, cb.y, cb.z)
            let blend: SIMD3<Double> =
                mode.isSeparable
                ? SIMD3(
                    Self.separable(mode, cbv.x, csv.x), Self.separable(mode, cbv.y, csv.y),
                    Self.separable(mode, cbv.z, csv.z))
                : Self.nonSeparable(mode, cbv, csv)
            let ao = sa + ba - sa * ba
            let co = csv * sa * (1 - ba) + cbv * ba * (1 - sa) + sa * ba * blend
            let o = pixel(out, p)
            // Relative to the value's size (Divide reaches large values where the source is dark).
            let scale = max(1, abs(co.x), abs(co.y), abs(co.z))
            worst = max(
                worst, abs(o.w - ao), max(abs(o.x * o.w - co.x), abs(o.y * o.w - co.y), abs(o.z * o.w - co.z)) / scale)
        }
        #expect(worst < 2e-5, "\(mode): \(worst)")
        #expect(FilterRegistry.builtIn.names.contains(mode.filterName))
    }

    @Test(
        "Porter–Duff and arithmetic compositing follow their formulas and extents",
        arguments: CompositeOperator.allCases)
    func compositing(op: CompositeOperator) throws {
        // The source is shifted so the extents differ.
        let shifted = Self.source.translatedBy(x: 5, y: 3)
        let image = shifted.composited(with: Self.backdrop, op)
        let union = Rect(x: 0, y: 0, width: 34, height: 20)
        let inter = Rect(x: 5, y: 3, width: 24, height: 14)
        let expectedExtent: Rect =
            switch op {
            case .addition, .maximum: union
            case .minimum, .multiply, .sourceIn: inter
            case .sourceAtop: Self.backdrop.extent
            case .sourceOut: shifted.extent
            }
        #expect(image.extent == expectedExtent)
        let out = try renderFloat(image, inter)
        var worst = 0.0
        for y in 0..<14 {
            for x in 0..<24 {
                let sp = pixel(Self.s, y * 29 + x)
                let bp = pixel(Self.b, (y + 3) * 29 + x + 5)
                let sv = SIMD4(sp.x * sp.w, sp.y * sp.w, sp.z * sp.w, sp.w)
                let bv = SIMD4(bp.x * bp.w, bp.y * bp.w, bp.z * bp.w, bp.w)
                let e: SIMD4<Double> =
                    switch op {
                    case .addition: sv + bv
                    case .maximum: pointwiseMax(sv, bv)
                    case .minimum: pointwiseMin(sv, bv)
                    case .multiply: sv * bv
                    case .sourceAtop:
                        SIMD4(
                            sv.x * bv.w + bv.x * (1 - sv.w), sv.y * bv.w + bv.y * (1 - sv.w),
                            sv.z * bv.w + bv.z * (1 - sv.w), bv.w)
                    case .sourceIn: sv * bv.w
                    case .sourceOut: sv * (1 - bv.w)
                    }
                let o = pixel(out, y * 24 + x)
                let op4 = SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w)
                let d = op4 - e
                worst = max(worst, abs(d.x), abs(d.y), abs(d.z), abs(d.w))
            }
        }
        #expect(worst < 2e-5, "\(op): \(worst)")
    }

    @Test("BlendWithMask mixes by the mask's luma, BlendWithAlphaMask by its alpha")
    func maskBlends() throws {
        let maskBuffer = randomBuffer(width: 29, height: 17, seed: 123, alpha: true)
        let mask = Image(buffer: maskBuffer)
        let m = maskBuffer.components(as: Float.self)
        for useAlpha in [false, true] {
            let image =
                useAlpha
                ? Self.source.blended(with: Self.backdrop, alphaMask: mask)
                : Self.source.blended(with: Self.backdrop, mask: mask)
            let out = try renderFloat(image)
            var worst = 0.0
            for p in 0..<(29 * 17) {
                let mp = pixel(m, p)
                let k = useAlpha ? mp.w : min(max(luma(mp), 0), 1)
                let sp = pixel(Self.s, p)
                let bp = pixel(Self.b, p)
                let sv = SIMD4(sp.x * sp.w, sp.y * sp.w, sp.z * sp.w, sp.w)
                let bv = SIMD4(bp.x * bp.w, bp.y * bp.w, bp.z * bp.w, bp.w)
                let e = bv + (sv - bv) * k
                let o = pixel(out, p)
                let d = SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w) - e
                worst = max(worst, abs(d.x), abs(d.y), abs(d.z), abs(d.w))
            }
            #expect(worst < 2e-5, "alpha \(useAlpha): \(worst)")
        }
    }
}
