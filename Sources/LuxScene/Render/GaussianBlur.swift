import LuxPixels
import RealModule

/// A Gaussian blur of planar `Float` data whose cost does not depend on the radius: three box filters
/// (running sums) whose widths are chosen for the target variance, plus a 3-tap kernel that makes up the
/// remaining variance exactly (box widths are odd integers). Pixels beyond the image are zero.
enum GaussianBlur {
    /// The box radii and the residual 3-tap weight for a standard deviation in pixels.
    static func plan(sigma: Double) -> (radii: [Int], tap: Float, tapCount: Int) {
        let variance = sigma * sigma
        var radii: [Int] = []
        if sigma >= 1.2 {
            // Kovesi's widths: odd wl and wl + 2; take the mix of three with the largest variance ≤ target.
            let ideal = (4 * variance + 1).squareRoot()
            var wl = Int(ideal.rounded(.down))
            if wl % 2 == 0 { wl -= 1 }
            wl = max(wl, 1)
            var best: [Int] = []
            var bestVariance = -1.0
            for w in [wl - 2, wl, wl + 2] where w >= 1 {
                for m in 0...3 {
                    let r = (0..<3).map { i in ((i < m ? w + 2 : w) - 1) / 2 }
                    let v = boxVariance(r)
                    if v <= variance, v > bestVariance { best = r; bestVariance = v }
                }
            }
            radii = best
        }
        let residual = max(0, variance - boxVariance(radii))
        // A [a, 1−2a, a] kernel has variance 2a; repeat it when the residual is larger than one tap can hold.
        let count = residual > 1e-6 ? Int((residual / 0.8).rounded(.up)) : 0
        let a = count > 0 ? Float(residual / Double(2 * count)) : 0
        return (radii.filter { $0 > 0 }, a, count)
    }

    static func boxVariance(_ radii: [Int]) -> Double {
        radii.reduce(0) { $0 + (Double((2 * $1 + 1) * (2 * $1 + 1)) - 1) / 12 }
    }

    /// The support radius (pixels affected on each side) of the blur for `sigma`.
    static func support(sigma: Double) -> Int {
        let p = plan(sigma: sigma)
        return p.radii.reduce(0, +) + p.tapCount
    }

    /// Blurs `plane` (width × height, rows contiguous) in place.
    static func blur(
        _ plane: UnsafeMutablePointer<Float>, width: Int, height: Int, sigma: Double, threads: Int
    ) {
        guard sigma > 0.05 else { return }
        let p = plan(sigma: sigma)
        let ptr = SendablePointer(plane)
        // Horizontal passes, row by row.
        Parallel.forEachBand(height, threads: threads) { rows in
            let tmp = UnsafeMutablePointer<Float>.allocate(capacity: width + 2)
            defer { tmp.deallocate() }
            for y in rows {
                let row = ptr.base + y * width
                for r in p.radii { boxRow(row, count: width, radius: r, tmp: tmp) }
                for _ in 0..<p.tapCount { tapRow(row, count: width, a: p.tap, tmp: tmp) }
            }
        }
        // Vertical passes over column strips.
        let strip = 64
        let strips = (width + strip - 1) / strip
        Parallel.forEachBand(strips, threads: threads, minimumBand: 1) { range in
            for s in range {
                let x0 = s * strip
                let w = min(strip, width - x0)
                verticalStrip(ptr.base, width: width, height: height, x0: x0, stripWidth: w, radii: p.radii, tap: p.tap, tapCount: p.tapCount)
            }
        }
    }

    /// One box pass along a row with zero padding.
    static func boxRow(_ row: UnsafeMutablePointer<Float>, count n: Int, radius r: Int, tmp: UnsafeMutablePointer<Float>) {
        tmp.update(from: row, count: n)
        let inv = 1 / Float(2 * r + 1)
        var sum: Float = 0
        for k in 0..<min(r, n) { sum += tmp[k] }
        for i in 0..<n {
            let add = i + r
            if add < n { sum += tmp[add] }
            row[i] = sum * inv
            let remove = i - r
            if remove >= 0 { sum -= tmp[remove] }
        }
    }

    static func tapRow(_ row: UnsafeMutablePointer<Float>, count n: Int, a: Float, tmp: UnsafeMutablePointer<Float>) {
        tmp[0] = 0
        (tmp + 1).update(from: row, count: n)
        tmp[n + 1] = 0
        let c = 1 - 2 * a
        for i in 0..<n { row[i] = c * tmp[i + 1] + a * (tmp[i] + tmp[i + 2]) }
    }

    static func verticalStrip(
        _ base: UnsafeMutablePointer<Float>, width: Int, height h: Int, x0: Int, stripWidth w: Int, radii: [Int],
        tap: Float, tapCount: Int
    ) {
        // Copy the strip into contiguous memory, run each pass strip → output, then copy back.
        let src = UnsafeMutablePointer<Float>.allocate(capacity: w * h)
        let sum = UnsafeMutablePointer<Float>.allocate(capacity: w)
        defer {
            src.deallocate()
            sum.deallocate()
        }
        func load() { for y in 0..<h { (src + y * w).update(from: base + y * width + x0, count: w) } }
        for r in radii {
            load()
            let inv = 1 / Float(2 * r + 1)
            sum.update(repeating: 0, count: w)
            for k in 0..<min(r, h) { let s = src + k * w; for x in 0..<w { sum[x] += s[x] } }
            for y in 0..<h {
                let add = y + r
                if add < h { let s = src + add * w; for x in 0..<w { sum[x] += s[x] } }
                let out = base + y * width + x0
                for x in 0..<w { out[x] = sum[x] * inv }
                let remove = y - r
                if remove >= 0 { let s = src + remove * w; for x in 0..<w { sum[x] -= s[x] } }
            }
        }
        for _ in 0..<tapCount {
            load()
            let c = 1 - 2 * tap
            for y in 0..<h {
                let out = base + y * width + x0
                let mid = src + y * w
                for x in 0..<w { out[x] = c * mid[x] }
                if y > 0 { let up = src + (y - 1) * w; for x in 0..<w { out[x] += tap * up[x] } }
                if y + 1 < h { let dn = src + (y + 1) * w; for x in 0..<w { out[x] += tap * dn[x] } }
            }
        }
    }
}

/// A pointer that crosses into row-band workers (each writes disjoint rows or columns).
struct SendablePointer: @unchecked Sendable {
    // @unchecked: the workers that receive it write disjoint regions.
    let base: UnsafeMutablePointer<Float>
    init(_ base: UnsafeMutablePointer<Float>) { self.base = base }
}
