/// Lanczos-3 resampling along one axis: which source pixels each destination pixel reads, and how much.
///
/// Edges are extended by folding: a tap that falls outside the source adds its weight to the edge pixel, so a
/// window never reads outside the source (a 0.001 reduction of a 16-pixel image reads 16 pixels, not the 6001
/// of its window).
struct LanczosAxis: Sendable {
    let scale: Double
    /// Source pixels per window of the unbounded kernel.
    let kernelTaps: Int
    /// Source pixels per window as read: `kernelTaps`, or the source's size when it is smaller.
    let taps: Int
    /// Half the window in source pixels.
    let support: Double
    /// Kernel argument per source pixel (1 when enlarging, `scale` when reducing).
    let stretch: Double
    /// The source pixels along this axis (the input's extent).
    let source: Range<Int>

    init(scale: Double, source: Range<Int>) {
        self.scale = scale
        self.source = source
        stretch = min(scale, 1)
        support = 3 / stretch
        kernelTaps = Int((2 * support).rounded(.up)) + 1
        taps = max(1, min(kernelTaps, source.count))
    }

    /// The first source pixel of destination pixel `x`'s unbounded window.
    func kernelFirst(_ x: Int) -> Int {
        let u = (Double(x) + 0.5) / scale
        return Int((u - support - 0.5).rounded(.down)) + 1
    }

    /// The first source pixel read for destination pixel `x`: the window moved inside the source (the taps
    /// beyond an edge fold onto that edge's pixel, which the moved window still covers).
    func first(_ x: Int) -> Int {
        min(max(kernelFirst(x), source.lowerBound), source.upperBound - taps)
    }

    /// Source pixels read by destination pixels `lo..<hi`.
    func sourceRange(_ lo: Int, _ hi: Int) -> Range<Int> {
        guard hi > lo else { return 0..<0 }
        return first(lo)..<(first(hi - 1) + taps)
    }

    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sinDouble(px) * sinDouble(px / 3) / (px * px)
    }

    /// First source pixel and normalised weights (`taps` per pixel) for destination pixels `x0..<x0+n`.
    func table(_ x0: Int, _ n: Int) -> ([Int], [Float]) {
        var firsts = [Int](repeating: 0, count: n)
        var weights = [Float](repeating: 0, count: n * taps)
        var w = [Double](repeating: 0, count: taps)
        let last = source.upperBound - 1
        for j in 0..<n {
            let x = x0 + j
            let u = (Double(x) + 0.5) / scale
            let k = kernelFirst(x)
            let f = first(x)
            firsts[j] = f
            for t in 0..<taps { w[t] = 0 }
            for t in 0..<kernelTaps {
                let at = min(max(k + t, source.lowerBound), last)
                w[at - f] += Self.lanczos3((Double(k + t) + 0.5 - u) * stretch)
            }
            let sum = w.reduce(0, +)
            for t in 0..<taps { weights[j * taps + t] = Float(w[t] / sum) }
        }
        return (firsts, weights)
    }
}
