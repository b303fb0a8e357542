import LuxColor
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
    /// sixth power), and the room would come out in the window's colour.
    static let brightCellRatio: Float = 4

    /// The cells that clip or touch a clipped cell (8-neighbourhood): the rim of a blown light source mixes its
    /// light with the scene's.
    static func nearClipped(_ stats: FrameStatistics) -> [Bool] {
        var near = [Bool](repeating: false, count: stats.means.count)
        for r in 0..<stats.rows {
            for c in 0..<stats.columns where stats.clippedFractions[r * stats.columns + c] >= 0.01 {
                for v in max(r - 1, 0)...min(r + 1, stats.rows - 1) {
                    for u in max(c - 1, 0)...min(c + 1, stats.columns - 1) { near[v * stats.columns + u] = true }
                }
            }
        }
        return near
    }

    /// The illuminant's camera neutral by shades of grey (Minkowski p = 6) over the usable cells that neither touch a
    /// clipped cell nor are brighter than ``brightCellRatio`` times the frame's median: the light of most of the
    /// frame, not of a brighter window or lamp in it.
    static func shadesOfGrayNeutral(_ stats: FrameStatistics, p: Double = 6) -> SIMD3<Double>? {
        let greens = stats.means.map(\.y).sorted()
        guard !greens.isEmpty else { return nil }
        let limit = brightCellRatio * greens[greens.count / 2]
        let near = nearClipped(stats)
        var sum = SIMD3<Double>.zero
        var n = 0
        for i in 0..<stats.means.count {
            let m = stats.means[i]
            guard isUsable(m, clipped: stats.clippedFractions[i]), m.y <= limit, !near[i] else { continue }
            let v = SIMD3(Double(m.x), Double(m.y), Double(m.z))
            sum += SIMD3(Double.pow(v.x, p), Double.pow(v.y, p), Double.pow(v.z, p))
            n += 1
        }
        guard n > 0, sum.min() > 0 else { return nil }
        let e = sum / Double(n)
        let neutral = SIMD3(Double.pow(e.x, 1 / p), Double.pow(e.y, 1 / p), Double.pow(e.z, 1 / p))
        return neutral / neutral.max()
    }
}
