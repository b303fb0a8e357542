/// Demosaicing with directional filtering and a posteriori decision, and its refining step.
///
/// From Menon, Andriani & Calvagno, "Demosaicing with directional filtering and a posteriori decision", IEEE
/// Transactions on Image Processing 16(1), 2007:
///
/// 1. Green is interpolated twice at red and blue sites, along the row and along the column, with the filter
///    `[−1/4, 1/2, 1/2, 1/2, −1/4]` over the mosaic (the two green neighbours and a Laplacian correction from the
///    site's own colour).
/// 2. The decision: the colour differences `R − G` or `B − G` of each estimate vary least along the true edge
///    direction; their absolute steps two photosites apart, summed over a 5×5 window weighted towards the site,
///    pick horizontal or vertical at every photosite.
/// 3. Red and blue at green sites from the mean colour difference of their two neighbours (along the row in rows of
///    that colour, along the column otherwise), then red at blue sites and blue at red sites from `R − B` along the
///    chosen direction.
///
/// The refining step (section IV of the paper) re-estimates green at red/blue sites from 3-tap means of the colour
/// differences along the chosen direction, then red and blue at green sites from 2-tap means of theirs, then red at
/// blue sites and blue at red sites from 3-tap means of `R − B`.
///
/// Planes are dense (row stride = width); indices beyond the edges are clamped, and only pixels ``margin``
/// photosites inside the edges are exact (callers pad the mosaic by reflection).
enum MenonDemosaic {
    /// Photosites of support an estimate needs on every side (green ±2, the decision window ±2 over steps ±2,
    /// colours ±2).
    static let margin = 8

    /// Floats of scratch memory ``estimate(_:into:direction:scratch:)`` needs for a plane of `width × height`.
    static func scratchCount(width: Int, height: Int) -> Int { 4 * width * height }

    /// The colour (0 red, 1 green, 2 blue) of photosite `(x, y)` of `cfa`.
    @inline(__always)
    static func color(_ cfa: CFAPlane, _ x: Int, _ y: Int) -> Int {
        if (x + y) & 1 == cfa.greenParity { return 1 }
        return (y & 1) == cfa.redRow ? 0 : 2
    }

    /// The estimate without refinement into `out`, and the decision into `direction` (1 where the horizontal
    /// estimate was chosen, 0 where the vertical one was).
    ///
    /// - Precondition: `cfa` and the planes are dense (`rowStride == width`).
    @inline(never)
    static func estimate(
        _ cfa: CFAPlane, into out: RGBPlanes, direction: UnsafeMutablePointer<Float>,
        scratch: UnsafeMutablePointer<Float>
    ) {
        let w = cfa.width
        let h = cfa.height
        precondition(cfa.rowStride == w && out.rowStride == w, "Menon's planes are dense")
        let n = w * h
        let m = cfa.base
        let gh = scratch
        let gv = scratch + n
        let dh = scratch + 2 * n
        let dv = scratch + 3 * n
        @inline(__always) func cx(_ x: Int) -> Int { min(max(x, 0), w - 1) }
        @inline(__always) func cy(_ y: Int) -> Int { min(max(y, 0), h - 1) }
        // 1. Green along rows and columns.
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                guard color(cfa, x, y) != 1 else {
                    gh[i] = m[i]
                    gv[i] = m[i]
                    continue
                }
                let r = y * w
                gh[i] =
                    0.5 * (m[r + cx(x - 1)] + m[r + cx(x + 1)]) + 0.5 * m[i] - 0.25
                    * (m[r + cx(x - 2)] + m[r + cx(x + 2)])
                gv[i] =
                    0.5 * (m[cy(y - 1) * w + x] + m[cy(y + 1) * w + x]) + 0.5 * m[i]
                    - 0.25 * (m[cy(y - 2) * w + x] + m[cy(y + 2) * w + x])
            }
        }
        // 2. Colour differences (zero at green sites), their steps two photosites on, and the weighted window sums.
        let ch = out.red
        let cv = out.blue
        for i in 0..<n {
            let green = color(cfa, i % w, i / w) == 1
            ch[i] = green ? 0 : m[i] - gh[i]
            cv[i] = green ? 0 : m[i] - gv[i]
        }
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                // Beyond the edge the plane is mirrored about its last sample (a step to x + 2 becomes x − 2).
                let xr = x + 2 < w ? x + 2 : max(2 * (w - 1) - (x + 2), 0)
                let yr = y + 2 < h ? y + 2 : max(2 * (h - 1) - (y + 2), 0)
                dh[i] = abs(ch[i] - ch[y * w + xr])
                dv[i] = abs(cv[i] - cv[yr * w + x])
            }
        }
        /// D at (x, y), zero outside the plane.
        @inline(__always) func at(_ d: UnsafeMutablePointer<Float>, _ x: Int, _ y: Int) -> Float {
            x >= 0 && x < w && y >= 0 && y < h ? d[y * w + x] : 0
        }
        for y in 0..<h {
            for x in 0..<w {
                let sumH =
                    at(dh, x, y + 2) + at(dh, x - 2, y + 2) + at(dh, x - 1, y + 1) + 3 * at(dh, x, y)
                    + 3 * at(dh, x - 2, y) + at(dh, x - 1, y - 1) + at(dh, x, y - 2) + at(dh, x - 2, y - 2)
                let sumV =
                    at(dv, x + 2, y) + at(dv, x + 2, y - 2) + at(dv, x + 1, y - 1) + 3 * at(dv, x, y)
                    + 3 * at(dv, x, y - 2) + at(dv, x - 1, y - 1) + at(dv, x - 2, y) + at(dv, x - 2, y - 2)
                direction[y * w + x] = sumV >= sumH ? 1 : 0
            }
        }
        // 3. Green by the decision; red and blue at their own sites.
        let red = out.red
        let green = out.green
        let blue = out.blue
        for i in 0..<n {
            let c = color(cfa, i % w, i / w)
            green[i] = direction[i] == 1 ? gh[i] : gv[i]
            red[i] = c == 0 ? m[i] : 0
            blue[i] = c == 2 ? m[i] : 0
        }
        // Red and blue at green sites: two neighbours' colour difference, along the row in rows of that colour.
        for y in 0..<h {
            let redRow = (y & 1) == cfa.redRow
            for x in 0..<w where color(cfa, x, y) == 1 {
                let i = y * w + x
                let (l, r) = (y * w + cx(x - 1), y * w + cx(x + 1))
                let (u, d) = (cy(y - 1) * w + x, cy(y + 1) * w + x)
                let gRow = 0.5 * (green[l] + green[r])
                let gColumn = 0.5 * (green[u] + green[d])
                if redRow {
                    red[i] = green[i] + 0.5 * (red[l] + red[r]) - gRow
                    blue[i] = green[i] + 0.5 * (blue[u] + blue[d]) - gColumn
                } else {
                    red[i] = green[i] + 0.5 * (red[u] + red[d]) - gColumn
                    blue[i] = green[i] + 0.5 * (blue[l] + blue[r]) - gRow
                }
            }
        }
        // Red at blue sites, then blue at red sites, from the other colour along the chosen direction.
        for pass in [2, 0] {
            let (target, source) = pass == 2 ? (red, blue) : (blue, red)
            for y in 0..<h {
                for x in 0..<w where color(cfa, x, y) == pass {
                    let i = y * w + x
                    let (a, b) =
                        direction[i] == 1
                        ? (y * w + cx(x - 1), y * w + cx(x + 1)) : (cy(y - 1) * w + x, cy(y + 1) * w + x)
                    target[i] = source[i] + 0.5 * (target[a] + target[b]) - 0.5 * (source[a] + source[b])
                }
            }
        }
    }

    /// Menon's refining step, in place, along `direction` (1 horizontal, 0 vertical at each photosite).
    ///
    /// `scratch` holds `3 · width · height` floats.
    @inline(never)
    static func refine(
        _ cfa: CFAPlane, _ rgb: RGBPlanes, direction: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>
    ) {
        let w = cfa.width
        let h = cfa.height
        precondition(rgb.rowStride == w, "Menon's planes are dense")
        let n = w * h
        let red = rgb.red
        let green = rgb.green
        let blue = rgb.blue
        let rg = scratch
        let bg = scratch + n
        let rb = scratch + 2 * n
        @inline(__always) func cx(_ x: Int) -> Int { min(max(x, 0), w - 1) }
        @inline(__always) func cy(_ y: Int) -> Int { min(max(y, 0), h - 1) }
        /// The 3-tap mean of `d` around `(x, y)` along the direction chosen there.
        @inline(__always) func mean3(_ d: UnsafeMutablePointer<Float>, _ x: Int, _ y: Int) -> Float {
            let i = y * w + x
            if direction[i] == 1 { return (d[y * w + cx(x - 1)] + d[i] + d[y * w + cx(x + 1)]) * (1 / 3.0) }
            return (d[cy(y - 1) * w + x] + d[i] + d[cy(y + 1) * w + x]) * (1 / 3.0)
        }
        // Green at red and blue sites.
        for i in 0..<n {
            rg[i] = red[i] - green[i]
            bg[i] = blue[i] - green[i]
        }
        for y in 0..<h {
            for x in 0..<w {
                switch color(cfa, x, y) {
                case 0: green[y * w + x] = red[y * w + x] - mean3(rg, x, y)
                case 2: green[y * w + x] = blue[y * w + x] - mean3(bg, x, y)
                default: break
                }
            }
        }
        // Red and blue at green sites, from the two neighbours of that colour.
        for i in 0..<n {
            rg[i] = red[i] - green[i]
            bg[i] = blue[i] - green[i]
        }
        for y in 0..<h {
            let redRow = (y & 1) == cfa.redRow
            for x in 0..<w where color(cfa, x, y) == 1 {
                let i = y * w + x
                let (l, r) = (y * w + cx(x - 1), y * w + cx(x + 1))
                let (u, d) = (cy(y - 1) * w + x, cy(y + 1) * w + x)
                red[i] = green[i] + 0.5 * (redRow ? rg[l] + rg[r] : rg[u] + rg[d])
                blue[i] = green[i] + 0.5 * (redRow ? bg[u] + bg[d] : bg[l] + bg[r])
            }
        }
        // Red at blue sites and blue at red sites, from R − B.
        for i in 0..<n { rb[i] = red[i] - blue[i] }
        for y in 0..<h {
            for x in 0..<w {
                switch color(cfa, x, y) {
                case 2: red[y * w + x] = blue[y * w + x] + mean3(rb, x, y)
                case 0: blue[y * w + x] = red[y * w + x] - mean3(rb, x, y)
                default: break
                }
            }
        }
    }
}
