/// Ratio Corrected Demosaicing (L. Sanz Rodríguez, 2017), as in RawTherapee and darktable.
///
/// 1. Direction: a 6th-order vertical and horizontal high-pass on the raw samples, squared and summed over
///    three taps, gives the local "verticalness" `V/(V+H)`.
/// 2. Green at red/blue sites: the four cardinal neighbours, each corrected by the *ratio* of a low-pass
///    (1-2-1 ⊗ 1-2-1) of the mosaic at the site and two photosites away, weighted by inverse gradients, then
///    blended vertically/horizontally by the (neighbourhood-refined) direction.
/// 3. Red at blue sites and blue at red sites: diagonal colour differences blended by a diagonal direction
///    statistic; red and blue at green sites: cardinal colour differences blended by the V/H direction.
///
/// 4. Refinement (Menon, Andriani & Calvagno 2007, "a posteriori" refining step): green at red/blue sites
///    re-estimated from 3-tap means of the colour differences along the (soft) RCD direction, then red/blue at
///    green sites from 2-tap colour differences, then red at blue sites and blue at red sites from 3-tap
///    means of R − B. On the skimage set this adds 0.8 dB (35.68 → 36.5 dB CPSNR; Menon 2007 alone 35.70).
///
/// The result is valid ``margin`` photosites inside the plane's edges; callers pad the mosaic by reflection
/// about the edge (which keeps the colour phase) so every output pixel has full support.
enum RCDDemosaic {
    /// Photosites of support needed on every side of an output pixel.
    static let margin = 13

    /// Floats of scratch memory ``run(_:into:scratch:)`` needs for a plane of `width × height`.
    static func scratchCount(width: Int, height: Int) -> Int { 4 * width * height + 64 }

    /// Demosaics the whole plane; output pixels closer than ``margin`` to an edge hold a bilinear estimate.
    ///
    /// `out` planes are `cfa.width × cfa.height` with their own row stride.
    @inline(never)
    static func run(_ cfa: CFAPlane, into out: RGBPlanes, scratch: UnsafeMutablePointer<Float>) {
        let w = cfa.width
        let h = cfa.height
        guard w > 2 * margin + 2, h > 2 * margin + 2 else {
            BilinearDemosaic.run(cfa, into: out)
            return
        }
        let n = w * h
        // Scratch planes (row stride `w`): the mosaic copied densely, the V/H direction, the low-pass at
        // red/blue sites, and the P/Q (diagonal) direction. High-pass rows reuse the P/Q plane before it
        // is filled.
        let c = scratch
        let vh = scratch + n
        let lpf = scratch + 2 * n
        let pq = scratch + 3 * n
        for y in 0..<h { (c + y * w).update(from: cfa.row(y), count: w) }
        let gp = cfa.greenParity
        let redRow = cfa.redRow
        let eps: Float = 1e-5
        let epssq: Float = 1e-10
        let w1 = w
        let w2 = 2 * w
        let w3 = 3 * w
        let w4 = 4 * w

        // Step 1: vertical/horizontal direction. The squared high-pass of three consecutive rows (vertical) is
        // kept in a ring of three rows inside the `pq` plane; the horizontal one per row in a fourth.
        vh.update(repeating: 0.5, count: n)
        let ring = pq
        let hRow = pq + 3 * w
        func verticalHPF(_ y: Int, into dst: UnsafeMutablePointer<Float>) {
            let p = c + y * w
            for x in 0..<w {
                let v = (p[x - w3] - p[x - w1] - p[x + w1] + p[x + w3]) - 3 * (p[x - w2] + p[x + w2]) + 6 * p[x]
                dst[x] = v * v
            }
        }
        verticalHPF(3, into: ring)
        verticalHPF(4, into: ring + w)
        for y in 4..<(h - 4) {
            verticalHPF(y + 1, into: ring + ((y + 1) % 3) * w)
            let p = c + y * w
            for x in 3..<(w - 3) {
                let v = (p[x - 3] - p[x - 1] - p[x + 1] + p[x + 3]) - 3 * (p[x - 2] + p[x + 2]) + 6 * p[x]
                hRow[x] = v * v
            }
            let r0 = ring + ((y - 1) % 3) * w
            let r1 = ring + (y % 3) * w
            let r2 = ring + ((y + 1) % 3) * w
            let d = vh + y * w
            for x in 4..<(w - 4) {
                let vStat = max(epssq, r0[x] + r1[x] + r2[x])
                let hStat = max(epssq, hRow[x - 1] + hRow[x] + hRow[x + 1])
                d[x] = vStat / (vStat + hStat)
            }
        }

        // Step 2: low-pass of the mosaic at red/blue sites.
        for y in 1..<(h - 1) {
            let p = c + y * w
            let d = lpf + y * w
            var x = 1
            if (x + y) & 1 == gp { x += 1 }
            while x < w - 1 {
                d[x] =
                    p[x] + 0.5 * (p[x - w1] + p[x + w1] + p[x - 1] + p[x + 1])
                    + 0.25 * (p[x - w1 - 1] + p[x - w1 + 1] + p[x + w1 - 1] + p[x + w1 + 1])
                x += 2
            }
        }

        // Green: samples at green sites, bilinear elsewhere as a fallback for the border.
        let red = out.red
        let green = out.green
        let blue = out.blue
        let os = out.rowStride
        BilinearDemosaic.run(cfa, into: out)

        // Step 3: green at red and blue sites.
        for y in 5..<(h - 5) {
            let p = c + y * w
            let l = lpf + y * w
            let dir = vh + y * w
            let g = green + y * os
            var x = 5
            if (x + y) & 1 == gp { x += 1 }
            while x < w - 5 {
                let nGrad =
                    eps + abs(p[x - w1] - p[x + w1]) + abs(p[x] - p[x - w2]) + abs(p[x - w1] - p[x - w3])
                    + abs(p[x - w2] - p[x - w4])
                let sGrad =
                    eps + abs(p[x - w1] - p[x + w1]) + abs(p[x] - p[x + w2]) + abs(p[x + w1] - p[x + w3])
                    + abs(p[x + w2] - p[x + w4])
                let wGrad =
                    eps + abs(p[x - 1] - p[x + 1]) + abs(p[x] - p[x - 2]) + abs(p[x - 1] - p[x - 3])
                    + abs(p[x - 2] - p[x - 4])
                let eGrad =
                    eps + abs(p[x - 1] - p[x + 1]) + abs(p[x] - p[x + 2]) + abs(p[x + 1] - p[x + 3])
                    + abs(p[x + 2] - p[x + 4])
                let li = l[x]
                let ln = l[x - w2]
                let ls = l[x + w2]
                let lw = l[x - 2]
                let le = l[x + 2]
                let nEst = p[x - w1] * (1 + (li - ln) / (eps + li + ln))
                let sEst = p[x + w1] * (1 + (li - ls) / (eps + li + ls))
                let wEst = p[x - 1] * (1 + (li - lw) / (eps + li + lw))
                let eEst = p[x + 1] * (1 + (li - le) / (eps + li + le))
                let vEst = (sGrad * nEst + nGrad * sEst) / (nGrad + sGrad)
                let hEst = (wGrad * eEst + eGrad * wEst) / (eGrad + wGrad)
                let central = dir[x]
                let neighbourhood = 0.25 * (dir[x - w1 - 1] + dir[x - w1 + 1] + dir[x + w1 - 1] + dir[x + w1 + 1])
                let disc = abs(0.5 - central) < abs(0.5 - neighbourhood) ? neighbourhood : central
                g[x] = vEst + disc * (hEst - vEst)
                x += 2
            }
        }

        // Step 4.1–4.2: diagonal direction at red/blue sites (P = NW–SE, Q = NE–SW). The mosaic copy is not
        // needed after this, so the high-passes go into the low-pass and P/Q planes and the direction into
        // the mosaic's plane.
        let pHPF = lpf
        let qHPF = pq
        for y in 3..<(h - 3) {
            let p = c + y * w
            let dp = pHPF + y * w
            let dq = qHPF + y * w
            for x in 3..<(w - 3) {
                let a =
                    (p[x - w3 - 3] - p[x - w1 - 1] - p[x + w1 + 1] + p[x + w3 + 3]) - 3 * (p[x - w2 - 2] + p[x + w2 + 2])
                    + 6 * p[x]
                let b =
                    (p[x - w3 + 3] - p[x - w1 + 1] - p[x + w1 - 1] + p[x + w3 - 3]) - 3 * (p[x - w2 + 2] + p[x + w2 - 2])
                    + 6 * p[x]
                dp[x] = a * a
                dq[x] = b * b
            }
        }
        let dirPQ = c
        for y in 4..<(h - 4) {
            let dp = pHPF + y * w
            let dq = qHPF + y * w
            let d = dirPQ + y * w
            var x = 4
            if (x + y) & 1 == gp { x += 1 }
            while x < w - 4 {
                let pStat = max(epssq, dp[x - w1 - 1] + dp[x] + dp[x + w1 + 1])
                let qStat = max(epssq, dq[x - w1 + 1] + dq[x] + dq[x + w1 - 1])
                d[x] = pStat / (pStat + qStat)
                x += 2
            }
        }

        // Step 4.3: red at blue sites and blue at red sites.
        for y in 7..<(h - 7) {
            let isRedRow = (y & 1) == redRow
            // At a red site the missing colour is blue, and vice versa.
            let missing = isRedRow ? blue : red
            let m = missing + y * os
            let gRow = green + y * os
            let dir = dirPQ + y * w
            var x = 7
            if (x + y) & 1 == gp { x += 1 }
            while x < w - 7 {
                let o = y * os + x
                let central = dir[x]
                let neighbourhood = 0.25 * (dir[x - w1 - 1] + dir[x - w1 + 1] + dir[x + w1 - 1] + dir[x + w1 + 1])
                let disc = abs(0.5 - central) < abs(0.5 - neighbourhood) ? neighbourhood : central
                let mc = missing + o
                let gc = green + o
                let nwGrad =
                    eps + abs(mc[-os - 1] - mc[os + 1]) + abs(mc[-os - 1] - mc[-3 * os - 3]) + abs(gc[0] - gc[-2 * os - 2])
                let neGrad =
                    eps + abs(mc[-os + 1] - mc[os - 1]) + abs(mc[-os + 1] - mc[-3 * os + 3]) + abs(gc[0] - gc[-2 * os + 2])
                let swGrad =
                    eps + abs(mc[-os + 1] - mc[os - 1]) + abs(mc[os - 1] - mc[3 * os - 3]) + abs(gc[0] - gc[2 * os - 2])
                let seGrad =
                    eps + abs(mc[-os - 1] - mc[os + 1]) + abs(mc[os + 1] - mc[3 * os + 3]) + abs(gc[0] - gc[2 * os + 2])
                let nwEst = mc[-os - 1] - gc[-os - 1]
                let neEst = mc[-os + 1] - gc[-os + 1]
                let swEst = mc[os - 1] - gc[os - 1]
                let seEst = mc[os + 1] - gc[os + 1]
                let pEst = (nwGrad * seEst + seGrad * nwEst) / (nwGrad + seGrad)
                let qEst = (neGrad * swEst + swGrad * neEst) / (neGrad + swGrad)
                m[x] = gRow[x] + pEst + disc * (qEst - pEst)
                x += 2
            }
        }

        // Step 4.4: red and blue at green sites.
        for y in 10..<(h - 10) {
            let dir = vh + y * w
            var x = 10
            if (x + y) & 1 != gp { x += 1 }
            while x < w - 10 {
                let o = y * os + x
                let central = dir[x]
                let neighbourhood = 0.25 * (dir[x - w1 - 1] + dir[x - w1 + 1] + dir[x + w1 - 1] + dir[x + w1 + 1])
                let disc = abs(0.5 - central) < abs(0.5 - neighbourhood) ? neighbourhood : central
                let gc = green + o
                let g0 = gc[0]
                let n1 = eps + abs(g0 - gc[-2 * os])
                let s1 = eps + abs(g0 - gc[2 * os])
                let w1g = eps + abs(g0 - gc[-2])
                let e1 = eps + abs(g0 - gc[2])
                let gN = gc[-os]
                let gS = gc[os]
                let gW = gc[-1]
                let gE = gc[1]
                for plane in 0..<2 {
                    let cc = (plane == 0 ? red : blue) + o
                    let snAbs = abs(cc[-os] - cc[os])
                    let ewAbs = abs(cc[-1] - cc[1])
                    let nGrad = n1 + snAbs + abs(cc[-os] - cc[-3 * os])
                    let sGrad = s1 + snAbs + abs(cc[os] - cc[3 * os])
                    let wGrad = w1g + ewAbs + abs(cc[-1] - cc[-3])
                    let eGrad = e1 + ewAbs + abs(cc[1] - cc[3])
                    let nEst = cc[-os] - gN
                    let sEst = cc[os] - gS
                    let wEst = cc[-1] - gW
                    let eEst = cc[1] - gE
                    let vEst = (nGrad * sEst + sGrad * nEst) / (nGrad + sGrad)
                    let hEst = (eGrad * wEst + wGrad * eEst) / (eGrad + wGrad)
                    cc[0] = g0 + vEst + disc * (hEst - vEst)
                }
                x += 2
            }
        }
        refine(out, vh: vh, width: w, height: h, greenParity: gp, redRow: redRow)
    }

    /// The soft direction at a site: the V/H statistic, or its diagonal neighbours' mean when that is more
    /// decided.
    @inline(__always)
    static func discrimination(_ dir: UnsafeMutablePointer<Float>, _ x: Int, _ w: Int) -> Float {
        let central = dir[x]
        let neighbourhood = 0.25 * (dir[x - w - 1] + dir[x - w + 1] + dir[x + w - 1] + dir[x + w + 1])
        return abs(0.5 - central) < abs(0.5 - neighbourhood) ? neighbourhood : central
    }

    /// Step 5: Menon's refining step with RCD's soft direction (weight of horizontal = `disc`).
    @inline(never)
    static func refine(
        _ out: RGBPlanes, vh: UnsafeMutablePointer<Float>, width w: Int, height h: Int, greenParity gp: Int,
        redRow: Int
    ) {
        let os = out.rowStride
        let third: Float = 1.0 / 3.0
        // 5.1: green at red/blue sites from the colour difference X − G along the direction.
        for y in 11..<(h - 11) {
            let own = ((y & 1) == redRow ? out.red : out.blue) + y * os
            let g = out.green + y * os
            let dir = vh + y * w
            var x = 11
            if (x + y) & 1 == gp { x += 1 }
            while x < w - 11 {
                let disc = discrimination(dir, x, w)
                let d0 = own[x] - g[x]
                let dH = (own[x - 1] - g[x - 1] + d0 + own[x + 1] - g[x + 1]) * third
                let dV = (own[x - os] - g[x - os] + d0 + own[x + os] - g[x + os]) * third
                g[x] = own[x] - (dV + disc * (dH - dV))
                x += 2
            }
        }
        // 5.2: red and blue at green sites from the two neighbours of that colour.
        for y in 12..<(h - 12) {
            let isRedRow = (y & 1) == redRow
            let rowColor = (isRedRow ? out.red : out.blue) + y * os
            let columnColor = (isRedRow ? out.blue : out.red) + y * os
            let g = out.green + y * os
            var x = 12
            if (x + y) & 1 != gp { x += 1 }
            while x < w - 12 {
                rowColor[x] = g[x] + 0.5 * (rowColor[x - 1] - g[x - 1] + rowColor[x + 1] - g[x + 1])
                columnColor[x] = g[x] + 0.5 * (columnColor[x - os] - g[x - os] + columnColor[x + os] - g[x + os])
                x += 2
            }
        }
        // 5.3: red at blue sites, then blue at red sites, from R − B along the direction.
        for y in 13..<(h - 13) {
            let isRedRow = (y & 1) == redRow
            let r = out.red + y * os
            let b = out.blue + y * os
            let dir = vh + y * w
            var x = 13
            if (x + y) & 1 == gp { x += 1 }
            while x < w - 13 {
                let disc = discrimination(dir, x, w)
                let d0 = r[x] - b[x]
                let dH = (r[x - 1] - b[x - 1] + d0 + r[x + 1] - b[x + 1]) * third
                let dV = (r[x - os] - b[x - os] + d0 + r[x + os] - b[x + os]) * third
                let d = dV + disc * (dH - dV)
                if isRedRow { b[x] = r[x] - d } else { r[x] = b[x] + d }
                x += 2
            }
        }
    }
}
