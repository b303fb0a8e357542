import LuxRender

/// The fused kernels of the blend modes (two premultiplied inputs: source, backdrop).
enum BlendKernels {
    static func kernel(_ mode: BlendMode) -> ColorKernel {
        ColorKernel(name: mode.rawValue + "Blend", inputCount: 2) { row in
            switch mode {
            case .multiply: separable(row) { cb, cs in cb * cs }
            case .screen: separable(row) { cb, cs in cb + cs - cb * cs }
            case .overlay: separable(row) { cb, cs in cb <= 0.5 ? 2 * cb * cs : screen(cs, 2 * cb - 1) }
            case .darken: separable(row) { cb, cs in min(cb, cs) }
            case .lighten: separable(row) { cb, cs in max(cb, cs) }
            case .colorDodge:
                separable(row) { cb, cs in cb <= 0 ? 0 : (cs >= 1 ? 1 : min(1, cb / (1 - cs))) }
            case .colorBurn:
                separable(row) { cb, cs in cb >= 1 ? 1 : (cs <= 0 ? 0 : 1 - min(1, (1 - cb) / cs)) }
            case .hardLight: separable(row) { cb, cs in cs <= 0.5 ? 2 * cb * cs : screen(cb, 2 * cs - 1) }
            case .softLight:
                separable(row) { cb, cs in
                    let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : max(cb, 0).squareRoot()
                    return cs <= 0.5 ? cb - (1 - 2 * cs) * cb * (1 - cb) : cb + (2 * cs - 1) * (d - cb)
                }
            case .difference: separable(row) { cb, cs in abs(cb - cs) }
            case .exclusion: separable(row) { cb, cs in cb + cs - 2 * cb * cs }
            case .divide: separable(row) { cb, cs in cs > 0 ? cb / cs : (cb > 0 ? 1 : 0) }
            case .linearBurn: separable(row) { cb, cs in max(0, cb + cs - 1) }
            case .linearDodge: separable(row) { cb, cs in cb + cs }
            case .pinLight: separable(row) { cb, cs in cs <= 0.5 ? min(cb, 2 * cs) : max(cb, 2 * cs - 1) }
            case .subtract: separable(row) { cb, cs in max(0, cb - cs) }
            case .hue, .saturation, .color, .luminosity: nonSeparable(row, mode)
            }
        }
    }

    @inline(__always)
    static func screen(_ a: Float, _ b: Float) -> Float { a + b - a * b }

    /// W3C compositing of a separable mode, one channel at a time (the loop vectorises once `b` is inlined).
    @inline(__always)
    static func separable(_ row: ColorKernelRow, _ b: (Float, Float) -> Float) {
        let s = row.pixels
        let d = row.input(1)
        let n = row.count
        for c in 0..<3 {
            let sc = c == 0 ? s.red : (c == 1 ? s.green : s.blue)
            let dc = c == 0 ? d.red : (c == 1 ? d.green : d.blue)
            for i in 0..<n {
                let sa = s.alpha[i]
                let da = d.alpha[i]
                let cs = sa > 0 ? sc[i] / sa : 0
                let cb = da > 0 ? dc[i] / da : 0
                sc[i] = sc[i] * (1 - da) + dc[i] * (1 - sa) + sa * da * b(cb, cs)
            }
        }
        for i in 0..<n { s.alpha[i] = s.alpha[i] + d.alpha[i] - s.alpha[i] * d.alpha[i] }
    }

    /// W3C compositing of the hue, saturation, colour and luminosity modes (whole colours per pixel).
    static func nonSeparable(_ row: ColorKernelRow, _ mode: BlendMode) {
        let s = row.pixels
        let d = row.input(1)
        for i in 0..<row.count {
            let sa = s.alpha[i]
            let da = d.alpha[i]
            let ps = SIMD3(s.red[i], s.green[i], s.blue[i])
            let pb = SIMD3(d.red[i], d.green[i], d.blue[i])
            let cs = sa > 0 ? ps / sa : .zero
            let cb = da > 0 ? pb / da : .zero
            let b: SIMD3<Float>
            switch mode {
            case .hue: b = NonSeparable.setLum(NonSeparable.setSat(cs, NonSeparable.sat(cb)), NonSeparable.lum(cb))
            case .saturation:
                b = NonSeparable.setLum(NonSeparable.setSat(cb, NonSeparable.sat(cs)), NonSeparable.lum(cb))
            case .color: b = NonSeparable.setLum(cs, NonSeparable.lum(cb))
            default: b = NonSeparable.setLum(cb, NonSeparable.lum(cs))
            }
            let o = ps * (1 - da) + pb * (1 - sa) + sa * da * b
            s.red[i] = o.x
            s.green[i] = o.y
            s.blue[i] = o.z
            s.alpha[i] = sa + da - sa * da
        }
    }
}

/// W3C §5.8's helper functions for the non-separable modes (luminosity weights 0.3, 0.59, 0.11).
enum NonSeparable {
    static func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = lum(c)
        let n = min(c.x, min(c.y, c.z))
        let x = max(c.x, max(c.y, c.z))
        var out = c
        if n < 0, l - n != 0 { out = l + (out - l) * l / (l - n) }
        if x > 1, x - l != 0 { out = l + (out - l) * (1 - l) / (x - l) }
        return out
    }

    static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> { clipColor(c + (l - lum(c))) }

    static func sat(_ c: SIMD3<Float>) -> Float { max(c.x, max(c.y, c.z)) - min(c.x, min(c.y, c.z)) }

    /// The colour with its largest component at `s`, smallest at 0, middle scaled in proportion.
    static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let hi = max(c.x, max(c.y, c.z))
        let lo = min(c.x, min(c.y, c.z))
        guard hi > lo else { return .zero }
        // Every component maps linearly: lo → 0, hi → s (the middle keeps its proportion).
        return (c - lo) * (s / (hi - lo))
    }
}
