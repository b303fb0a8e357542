import LuxColor
import LuxScene
import RealModule

/// White-balance estimators on 3A statistics (ALGORITHMS.md §4.5).
enum AutoWhiteBalance {
    /// Cells usable for white balance: not clipped, not near black.
    static func isUsable(_ m: SIMD3<Float>, clipped: Float) -> Bool {
        clipped < 0.01 && m.max() < 0.95 && m.min() > 0.002
    }

    /// Gray-world gains over the centre of the frame (the middle half in each direction), where a grey card is
    /// assumed to fill at least half of it: gains = mean(G)/mean(c), normalised so the smallest is 1.
    static func grayWorldGains(_ stats: FrameStatistics) -> SIMD3<Double>? {
        var sum = SIMD3<Double>.zero
        var n = 0
        for i in 0..<stats.means.count {
            let c = stats.cellCenter(i)
            guard c.x > 0.25, c.x < 0.75, c.y > 0.25, c.y < 0.75 else { continue }
            let m = stats.means[i]
            guard isUsable(m, clipped: stats.clippedFractions[i]) else { continue }
            sum += SIMD3(Double(m.x), Double(m.y), Double(m.z))
            n += 1
        }
        guard n > 0, sum.min() > 0 else { return nil }
        let gains = SIMD3(repeating: sum.y) / sum
        return gains / gains.min()
    }

    /// How many times brighter than the frame's median cell (in green) a cell may be and still count towards the
    /// illuminant estimate.
    ///
    /// Under mixed light the brightest cells show the brighter light, not the one that lights most of the frame: a
    /// window four stops above a lamp-lit room would otherwise outweigh the room (shades of grey weighs cells by their
    /// sixth power), and the room would come out in the window's colour. Three stops keep the scene's whites, five
    /// times a mid-grey and often its only neutral surfaces (a white cup, a rocket against a dusk sky): with a ratio
    /// of 4 photo-low-light's rocket and floodlit pad were left out, and shades of grey saw only the blue sky (5890 K
    /// for its 4000 K light).
    static let brightCellRatio: Float = 8

    /// The cells that clip or are brighter than `limit` in green, and the cells touching them (8-neighbourhood): the
    /// rim of a window or lamp mixes its light with the scene's, and the dark parts of a window (its frame, a blind)
    /// are lit by the light outside.
    static func nearBright(_ stats: FrameStatistics, limit: Float) -> [Bool] {
        var near = [Bool](repeating: false, count: stats.means.count)
        for r in 0..<stats.rows {
            for c in 0..<stats.columns {
                let i = r * stats.columns + c
                guard stats.clippedFractions[i] >= 0.01 || stats.means[i].y > limit else { continue }
                for v in max(r - 1, 0)...min(r + 1, stats.rows - 1) {
                    for u in max(c - 1, 0)...min(c + 1, stats.columns - 1) { near[v * stats.columns + u] = true }
                }
            }
        }
        return near
    }

    /// The cells that count towards the illuminant estimate: usable, neither brighter than ``brightCellRatio`` times
    /// the frame's median cell nor clipped, and not touching such a cell.
    static func candidateCells(_ stats: FrameStatistics) -> [Bool] {
        let greens = stats.means.map(\.y).sorted()
        guard !greens.isEmpty else { return [] }
        let near = nearBright(stats, limit: brightCellRatio * greens[greens.count / 2])
        return stats.means.indices.map { i in isUsable(stats.means[i], clipped: stats.clippedFractions[i]) && !near[i] }
    }

    /// The cells that look grey by the grey-pixel cue: a cell at least `contrast` (in natural log of green)
    /// brighter than one of its 4-neighbours with the same chromaticity, its red, green and blue log ratios to
    /// the neighbour agreeing within `tolerance` of their mean.
    ///
    /// Light changes every channel of a surface by the same factor, so a cell and a neighbour in the same light have
    /// equal log ratios in all three channels exactly when their reflectances have the same chromaticity; an edge in
    /// brightness without one in colour is, in photographs, mostly between achromatic surfaces (a grey patch on a
    /// black frame, a white sheet on a shadow). A large smooth coloured surface (a blue table, a wall) makes no such
    /// edge, so, unlike the frame's mean, it does not pull the estimate towards its colour.
    static func greyEdgeCells(
        _ stats: FrameStatistics, candidates: [Bool], contrast: Float = 0.1, tolerance: Float = 0.05
    ) -> [Int] {
        var out: [Int] = []
        let logs = stats.means.map { m in
            SIMD3(Float.log(max(m.x, 1e-4)), Float.log(max(m.y, 1e-4)), Float.log(max(m.z, 1e-4)))
        }
        for r in 0..<stats.rows {
            for c in 0..<stats.columns where candidates[r * stats.columns + c] {
                let i = r * stats.columns + c
                for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    let (r2, c2) = (r + dr, c + dc)
                    guard r2 >= 0, r2 < stats.rows, c2 >= 0, c2 < stats.columns else { continue }
                    let j = r2 * stats.columns + c2
                    guard candidates[j] else { continue }
                    let d = logs[i] - logs[j]
                    guard d.y >= contrast else { continue }
                    let mean = d.sum() / 3
                    let e = d - SIMD3(repeating: mean)
                    if max(e.max(), -e.min()) <= tolerance * mean {
                        out.append(i)
                        break
                    }
                }
            }
        }
        return out
    }

    /// The fewest grey-edge cells (of the 768 of the statistics grid) whose mean is trusted as the illuminant's
    /// colour; with fewer, shades of grey decides.
    static let minimumGreyCells = 8

    /// The illuminant's camera neutral (largest component 1): the median chromaticity of the
    /// ``greyEdgeCells(_:candidates:contrast:tolerance:)``
    /// when there are at least ``minimumGreyCells`` of them, else shades of grey over the candidate cells.
    static func illuminantNeutral(_ stats: FrameStatistics) -> SIMD3<Double>? {
        let candidates = candidateCells(stats)
        let grey = greyEdgeCells(stats, candidates: candidates)
        guard grey.count >= minimumGreyCells else { return shadesOfGrayNeutral(stats, candidates: candidates) }
        // The median chromaticity (log red/green and blue/green): a few grey cells in another light (a lamp's rim, a
        // sunlit sill) do not move it.
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        let red = median(grey.map { Double.log(Double(stats.means[$0].x / stats.means[$0].y)) })
        let blue = median(grey.map { Double.log(Double(stats.means[$0].z / stats.means[$0].y)) })
        let neutral = SIMD3(Double.exp(red), 1, Double.exp(blue))
        return neutral / neutral.max()
    }

    /// The illuminant's camera neutral by shades of grey (Minkowski p = 6) over the candidate cells (by default
    /// ``candidateCells(_:)``: the light of most of the frame, not of a brighter window or lamp in it).
    static func shadesOfGrayNeutral(_ stats: FrameStatistics, candidates: [Bool]? = nil, p: Double = 6) -> SIMD3<
        Double
    >? {
        let use = candidates ?? candidateCells(stats)
        var sum = SIMD3<Double>.zero
        var n = 0
        for i in use.indices where use[i] {
            let m = stats.means[i]
            let v = SIMD3(Double(m.x), Double(m.y), Double(m.z))
            sum += SIMD3(Double.pow(v.x, p), Double.pow(v.y, p), Double.pow(v.z, p))
            n += 1
        }
        guard n > 0, sum.min() > 0 else { return nil }
        let e = sum / Double(n)
        let neutral = SIMD3(Double.pow(e.x, 1 / p), Double.pow(e.y, 1 / p), Double.pow(e.z, 1 / p))
        return neutral / neutral.max()
    }

    /// The prior on the light: the tint of natural light at `kelvin` (a black body below 4000 K, CIE daylight from
    /// 4000 K up, as ``Illuminant/temperature(_:)``), which the estimate takes instead of its own.
    ///
    /// The estimate's temperature is kept and its tint replaced: the greys an estimator finds in a photograph carry
    /// slight casts of their own, and a tint from them (photo-indoor's chart: −8 under a 3000 K lamp) turns every grey
    /// of the picture (b* +5 instead of +1), while lamps and daylight lie on this locus.
    static func naturalTint(kelvin: Double) -> Double {
        TemperatureAndTint(chromaticity: Illuminant.temperature(kelvin).chromaticity).tint
    }
}
