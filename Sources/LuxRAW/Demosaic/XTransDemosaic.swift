import LuxPixels
import RealModule

/// Demosaicing of Fujifilm's 6×6 X-Trans mosaic in the manner of Frank Markesteijn's algorithm: directional
/// estimates, refined once, and a per-pixel choice of the most homogeneous ones.
///
/// 1. Green in four directions (along the row, the column and both diagonals): at a red or blue photosite, the
///    two nearest greens along the direction (X-Trans puts one within three photosites on each side), interpolated
///    linearly for their distances.
/// 2. Red and blue for each direction from colour differences: at a photosite without the colour, the differences
///    `C − G` of the photosites of that colour in the 5×5 window, weighted by a Gaussian elongated along the
///    direction (σ 1.5 along, 0.8 across) and normalised.
/// 3. One refinement: green at red and blue photosites again, from the 3-tap mean of the colour difference along the
///    direction, then step 2 with the new green.
/// 4. Homogeneity: for each direction and pixel, the 8 neighbours whose luminance `(R + 2G + B)/4` and colour
///    differences `R − G`, `B − G` lie within the smallest (over the directions) of the largest 4-neighbour changes,
///    counted and summed over 3×3; the output averages the directions scoring at least 7/8 of the best.
///
/// On X-Trans mosaics sampled from `demosaic_psnr.py`'s five photographs (`demosaic_xtrans.py`), 35.50 dB CPSNR
/// against 29.92 dB for LibRaw's linear interpolation and 35.66 dB for LibRaw's 3-pass Markesteijn
/// (Benchmarks/RESULTS.md). ``bilinear(_:width:height:pattern:into:)`` is the plain interpolation (29.98 dB).
///
/// Planes are dense (row stride = width); beyond the edges indices are clamped, and pixels ``margin`` photosites
/// inside the edges are exact (callers pad the mosaic by reflection, which keeps no X-Trans phase beyond the
/// margin's reach).
enum XTransDemosaic {
    /// Photosites of support an output pixel needs on every side.
    static let margin = 12

    /// The four directions: along the row, the column and the two diagonals.
    static let directions: [(dx: Int, dy: Int)] = [(1, 0), (0, 1), (1, 1), (1, -1)]

    /// Floats of scratch memory ``run(_:width:height:pattern:into:scratch:)`` needs for a plane of `width × height`.
    static func scratchCount(width: Int, height: Int) -> Int { 22 * width * height }

    /// The per-phase tables: colours, green distances and colour-difference windows.
    struct Tables {
        /// The colour (0 red, 1 green, 2 blue) of cell `(y % 6) * 6 + x % 6`.
        var colors: [Int]
        /// Per direction and cell: the steps back and forward to the nearest greens (0 at green cells).
        var greenSteps: [[(back: Int, forward: Int)]]
        /// Per direction, colour (0 red, 1 blue) and cell: the window's photosites of that colour as (dx, dy, weight),
        /// weights normalised to sum 1.
        var windows: [[[[(dx: Int, dy: Int, w: Float)]]]]

        init(_ pattern: XTransPattern, isotropic: Bool = false) {
            colors = (0..<36).map { pattern.channel(x: $0 % 6, y: $0 / 6).rawValue }
            let colors = colors
            func color(_ x: Int, _ y: Int) -> Int { colors[(((y % 6) + 6) % 6) * 6 + ((x % 6) + 6) % 6] }
            greenSteps = XTransDemosaic.directions.map { d in
                (0..<36).map { cell in
                    let (x, y) = (cell % 6, cell / 6)
                    guard color(x, y) != 1 else { return (0, 0) }
                    func step(_ sign: Int) -> Int {
                        (1...3).first { color(x + sign * $0 * d.dx, y + sign * $0 * d.dy) == 1 } ?? 0
                    }
                    return (step(-1), step(1))
                }
            }
            windows = XTransDemosaic.directions.map { d in
                let n = (Float(d.dx * d.dx + d.dy * d.dy)).squareRoot()
                let (ax, ay) = (Float(d.dx) / n, Float(d.dy) / n)
                return [0, 2].map { target in
                    (0..<36).map { cell in
                        let (x, y) = (cell % 6, cell / 6)
                        var taps: [(dx: Int, dy: Int, w: Float)] = []
                        for dy in -2...2 {
                            for dx in -2...2 where color(x + dx, y + dy) == target {
                                let along = Float(dx) * ax + Float(dy) * ay
                                let across = -Float(dx) * ay + Float(dy) * ax
                                let w =
                                    isotropic
                                    ? Float.exp(-Float(dx * dx + dy * dy) / 2)
                                    : Float.exp(-(along * along / (2 * 1.5 * 1.5) + across * across / (2 * 0.8 * 0.8)))
                                taps.append((dx, dy, w))
                            }
                        }
                        let sum = taps.reduce(0) { $0 + $1.w }
                        return taps.map { ($0.dx, $0.dy, $0.w / sum) }
                    }
                }
            }
        }
    }

    /// The plain interpolation: each colour at a photosite without it from that colour's photosites in the 5×5
    /// window, Gaussian-weighted (σ 1) and normalised.
    @inline(never)
    static func bilinear(
        _ m: UnsafePointer<Float>, width w: Int, height h: Int, pattern: XTransPattern, into out: RGBPlanes
    ) {
        let tables = Tables(pattern, isotropic: true)
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                let cell = (y % 6) * 6 + x % 6
                let own = tables.colors[cell]
                for c in 0..<3 {
                    let value: Float
                    if c == own {
                        value = m[i]
                    } else if c == 1 {
                        value = greenMean(m, w, h, x, y, tables)
                    } else {
                        value = tables.windows[0][c / 2][cell].reduce(0) { acc, t in
                            acc + t.w * m[min(max(y + t.dy, 0), h - 1) * w + min(max(x + t.dx, 0), w - 1)]
                        }
                    }
                    out.plane(c)[i] = value
                }
            }
        }
    }

    /// The mean of the green photosites among the 8 neighbours (X-Trans always has some).
    @inline(__always)
    static func greenMean(_ m: UnsafePointer<Float>, _ w: Int, _ h: Int, _ x: Int, _ y: Int, _ t: Tables) -> Float {
        var sum: Float = 0
        var count: Float = 0
        for dy in -1...1 {
            for dx in -1...1 where (dx != 0 || dy != 0) && t.colors[((y + dy + 6) % 6) * 6 + (x + dx + 6) % 6] == 1 {
                sum += m[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)]
                count += 1
            }
        }
        return count > 0 ? sum / count : m[y * w + x]
    }

    /// The tables of ``Tables`` as flat arrays for the inner loops, with each window tap's index offset in a plane
    /// `width` wide (pixels whose whole support lies inside the plane use the offsets; the others clamp).
    struct FlatTables {
        /// Colour of each cell.
        let colors: UnsafeMutablePointer<Int>
        /// Steps to the nearest greens of direction `d` at cell `c`: `back[d * 36 + c]`, `forward[d * 36 + c]`.
        let back: UnsafeMutablePointer<Int>
        let forward: UnsafeMutablePointer<Int>
        /// Taps of window `(d * 2 + target) * 36 + cell` are `tapStart[key]..<tapStart[key + 1]`.
        let tapStart: UnsafeMutablePointer<Int>
        let tapDX: UnsafeMutablePointer<Int>
        let tapDY: UnsafeMutablePointer<Int>
        let tapOffset: UnsafeMutablePointer<Int>
        let tapWeight: UnsafeMutablePointer<Float>

        init(_ t: Tables, width w: Int) {
            colors = .allocate(capacity: 36)
            back = .allocate(capacity: 4 * 36)
            forward = .allocate(capacity: 4 * 36)
            tapStart = .allocate(capacity: 8 * 36 + 1)
            for c in 0..<36 { colors[c] = t.colors[c] }
            for d in 0..<4 {
                for c in 0..<36 {
                    back[d * 36 + c] = t.greenSteps[d][c].back
                    forward[d * 36 + c] = t.greenSteps[d][c].forward
                }
            }
            var taps: [(dx: Int, dy: Int, w: Float)] = []
            for d in 0..<4 {
                for target in 0..<2 {
                    for c in 0..<36 {
                        tapStart[(d * 2 + target) * 36 + c] = taps.count
                        taps += t.windows[d][target][c]
                    }
                }
            }
            tapStart[8 * 36] = taps.count
            tapDX = .allocate(capacity: taps.count)
            tapDY = .allocate(capacity: taps.count)
            tapOffset = .allocate(capacity: taps.count)
            tapWeight = .allocate(capacity: taps.count)
            for (k, tap) in taps.enumerated() {
                tapDX[k] = tap.dx
                tapDY[k] = tap.dy
                tapOffset[k] = tap.dy * w + tap.dx
                tapWeight[k] = tap.w
            }
        }

        func deallocate() {
            for p in [colors, back, forward, tapStart, tapDX, tapDY, tapOffset] { p.deallocate() }
            tapWeight.deallocate()
        }
    }

    /// Demosaics the whole plane into `out` (planes of `width × height`).
    ///
    /// The loops walk the 6×6 phase along each row and index neighbours by offset away from the edges (clamping
    /// only within 3 photosites of them), so the tables cost no lookups through nested arrays per pixel.
    @inline(never)
    static func run(
        _ m: UnsafePointer<Float>, width w: Int, height h: Int, pattern: XTransPattern, into out: RGBPlanes,
        scratch: UnsafeMutablePointer<Float>
    ) {
        precondition(out.rowStride == w, "X-Trans planes are dense")
        let n = w * h
        let t = Tables(pattern)
        let ft = FlatTables(t, width: w)
        defer { ft.deallocate() }
        let colorOf = ft.colors
        @inline(__always) func cx(_ x: Int) -> Int { min(max(x, 0), w - 1) }
        @inline(__always) func cy(_ y: Int) -> Int { min(max(y, 0), h - 1) }
        /// Whether every neighbour within `r` photosites of `(x, y)` lies inside the plane.
        @inline(__always) func inside(_ x: Int, _ y: Int, _ r: Int) -> Bool {
            x >= r && x < w - r && y >= r && y < h - r
        }
        // Per direction: red, green, blue planes; then the homogeneity planes and the working planes.
        let planes = (0..<4).map { d in
            RGBPlanes(
                red: scratch + (3 * d) * n, green: scratch + (3 * d + 1) * n, blue: scratch + (3 * d + 2) * n,
                rowStride: w)
        }
        let homogeneity = scratch + 12 * n  // 4 planes
        let epsY = scratch + 16 * n
        let epsC = scratch + 17 * n
        let diff = scratch + 18 * n  // also the luminance of step 4
        let counts = scratch + 19 * n
        let redDiff = scratch + 20 * n
        let blueDiff = scratch + 21 * n

        /// Red and blue of direction `d` from its green and the colour differences of the window.
        func colors(_ d: Int) {
            let p = planes[d]
            let g = p.green
            for target in 0..<2 {
                let c = target == 0 ? 0 : 2
                let plane = p.plane(c)
                for i in 0..<n { diff[i] = m[i] - g[i] }
                for y in 0..<h {
                    let rowCell = (y % 6) * 6
                    var phase = 0
                    for x in 0..<w {
                        let i = y * w + x
                        let cell = rowCell + phase
                        phase = phase == 5 ? 0 : phase + 1
                        if colorOf[cell] == c {
                            plane[i] = m[i]
                            continue
                        }
                        let key = (d * 2 + target) * 36 + cell
                        var s: Float = 0
                        if inside(x, y, 2) {
                            for k in ft.tapStart[key]..<ft.tapStart[key + 1] {
                                s += ft.tapWeight[k] * diff[i + ft.tapOffset[k]]
                            }
                        } else {
                            for k in ft.tapStart[key]..<ft.tapStart[key + 1] {
                                s += ft.tapWeight[k] * diff[cy(y + ft.tapDY[k]) * w + cx(x + ft.tapDX[k])]
                            }
                        }
                        plane[i] = g[i] + s
                    }
                }
            }
        }

        for (d, dir) in directions.enumerated() {
            let g = planes[d].green
            let step = dir.dy * w + dir.dx
            // 1. Green along the direction.
            for y in 0..<h {
                let rowCell = (y % 6) * 6
                var phase = 0
                for x in 0..<w {
                    let i = y * w + x
                    let cell = rowCell + phase
                    phase = phase == 5 ? 0 : phase + 1
                    if colorOf[cell] == 1 {
                        g[i] = m[i]
                        continue
                    }
                    let a = ft.back[d * 36 + cell]
                    let b = ft.forward[d * 36 + cell]
                    let near = inside(x, y, 3)
                    let back = near ? i - a * step : cy(y - a * dir.dy) * w + cx(x - a * dir.dx)
                    let forward = near ? i + b * step : cy(y + b * dir.dy) * w + cx(x + b * dir.dx)
                    if a > 0 && b > 0 {
                        g[i] = (Float(b) * m[back] + Float(a) * m[forward]) / Float(a + b)
                    } else if a > 0 {
                        g[i] = m[back]
                    } else if b > 0 {
                        g[i] = m[forward]
                    } else {
                        g[i] = greenMean(m, w, h, x, y, t)
                    }
                }
            }
            colors(d)
            // 3. Green again from the colour difference along the direction, then the colours with it.
            let p = planes[d]
            for y in 0..<h {
                let rowCell = (y % 6) * 6
                var phase = 0
                for x in 0..<w {
                    let i = y * w + x
                    let c = colorOf[rowCell + phase]
                    phase = phase == 5 ? 0 : phase + 1
                    guard c != 1 else { continue }
                    let plane = p.plane(c)
                    let near = inside(x, y, 1)
                    let a = near ? i - step : cy(y - dir.dy) * w + cx(x - dir.dx)
                    let b = near ? i + step : cy(y + dir.dy) * w + cx(x + dir.dx)
                    let mean = ((plane[a] - g[a]) + (plane[i] - g[i]) + (plane[b] - g[b])) * (1 / 3.0)
                    diff[i] = m[i] - mean
                }
            }
            for y in 0..<h {
                let rowCell = (y % 6) * 6
                var phase = 0
                for x in 0..<w {
                    if colorOf[rowCell + phase] != 1 { g[y * w + x] = diff[y * w + x] }
                    phase = phase == 5 ? 0 : phase + 1
                }
            }
            colors(d)
        }

        // 4. Homogeneity on the luminance `(R + 2G + B)/4` and the colour differences R − G, B − G of each
        // direction: the tolerances first (smallest over the directions of the largest 4-neighbour change).
        epsY.update(repeating: .greatestFiniteMagnitude, count: n)
        epsC.update(repeating: .greatestFiniteMagnitude, count: n)
        let lum = diff
        let dx8 = SIMD8(1, -1, 0, 0, 1, 1, -1, -1)
        let dy8 = SIMD8(0, 0, 1, -1, 1, -1, 1, -1)
        let offset8 = dx8 &+ dy8 &* w
        /// The luminance and colour-difference planes of `p`.
        func prepare(_ p: RGBPlanes) {
            for i in 0..<n {
                lum[i] = 0.25 * (p.red[i] + 2 * p.green[i] + p.blue[i])
                redDiff[i] = p.red[i] - p.green[i]
                blueDiff[i] = p.blue[i] - p.green[i]
            }
        }
        /// The `k`th of the 8 neighbours of `(x, y)` (the first 4 are the 4-neighbours), clamped unless `near`.
        @inline(__always) func neighbour(_ k: Int, _ i: Int, _ x: Int, _ y: Int, _ near: Bool) -> Int {
            near ? i + offset8[k] : cy(y + dy8[k]) * w + cx(x + dx8[k])
        }
        for p in planes {
            prepare(p)
            for y in 0..<h {
                for x in 0..<w {
                    let i = y * w + x
                    let near = inside(x, y, 1)
                    var maxY: Float = 0
                    var maxC: Float = 0
                    for k in 0..<4 {
                        let j = neighbour(k, i, x, y, near)
                        let dr = redDiff[i] - redDiff[j]
                        let db = blueDiff[i] - blueDiff[j]
                        maxY = max(maxY, abs(lum[i] - lum[j]))
                        maxC = max(maxC, dr * dr + db * db)
                    }
                    epsY[i] = min(epsY[i], maxY)
                    epsC[i] = min(epsC[i], maxC)
                }
            }
        }
        for (d, p) in planes.enumerated() {
            prepare(p)
            for y in 0..<h {
                for x in 0..<w {
                    let i = y * w + x
                    let near = inside(x, y, 1)
                    var count: Float = 0
                    for k in 0..<8 {
                        let j = neighbour(k, i, x, y, near)
                        let dr = redDiff[i] - redDiff[j]
                        let db = blueDiff[i] - blueDiff[j]
                        if abs(lum[i] - lum[j]) <= epsY[i] && dr * dr + db * db <= epsC[i] { count += 1 }
                    }
                    counts[i] = count
                }
            }
            let hd = homogeneity + d * n
            for y in 0..<h {
                for x in 0..<w {
                    var sum: Float = 0
                    if inside(x, y, 1) {
                        let i = y * w + x
                        for dy in -1...1 { for dx in -1...1 { sum += counts[i + dy * w + dx] } }
                    } else {
                        for dy in -1...1 { for dx in -1...1 { sum += counts[cy(y + dy) * w + cx(x + dx)] } }
                    }
                    hd[y * w + x] = sum
                }
            }
        }
        // The average of the directions within 7/8 of the most homogeneous.
        for i in 0..<n {
            var best: Float = 0
            for d in 0..<4 { best = max(best, homogeneity[d * n + i]) }
            var sums = SIMD3<Float>(0, 0, 0)
            var count: Float = 0
            for d in 0..<4 where homogeneity[d * n + i] >= 0.875 * best {
                let p = planes[d]
                sums += SIMD3(p.red[i], p.green[i], p.blue[i])
                count += 1
            }
            let v = sums / count
            out.red[i] = v.x
            out.green[i] = v.y
            out.blue[i] = v.z
        }
    }
}
