import LuxPixels

/// Mirror index `i` into `0..<n` without repeating the edge sample (OpenCV's BORDER_REFLECT_101).
@inline(__always)
func reflect101(_ i: Int, _ n: Int) -> Int {
    if n == 1 { return 0 }
    var j = i
    if j < 0 { j = -j }
    if j >= n { j = 2 * n - 2 - j }
    return min(max(j, 0), n - 1)
}

extension PlanarBuffer where Sample == Float {
    /// The image reduced by 2 in each direction with the 5-tap binomial kernel [1 4 6 4 1]/16 (Burt–Adelson
    /// REDUCE, OpenCV `pyrDown`): output size ⌈w/2⌉ × ⌈h/2⌉, mirrored borders.
    ///
    /// - Complexity: O(width × height × planeCount), split into bands over `threads`.
    func reducedBinomial(threads: Int) -> PlanarBuffer<Float> {
        let ow = (width + 1) / 2
        let oh = (height + 1) / 2
        let out = PlanarBuffer<Float>(width: ow, height: oh, planes: planeCount)
        let src = self
        Parallel.forEachBand(oh * planeCount, threads: threads, minimumBand: 8) { band in
            let tmp = UnsafeMutablePointer<Float>.allocate(capacity: src.width + 4)
            defer { tmp.deallocate() }
            for job in band {
                let c = job / oh
                let oy = job % oh
                src.verticalBinomial(c, centre: 2 * oy, into: tmp + 2)
                Self.horizontalBinomialDecimate(tmp + 2, width: src.width, into: out.row(c, oy), outWidth: ow)
            }
        }
        return out
    }

    /// Rows `y−2…y+2` of plane `c` filtered with [1 4 6 4 1]/16 into `out[0..<width]`.
    @inline(__always)
    func verticalBinomial(_ c: Int, centre y: Int, into out: UnsafeMutablePointer<Float>) {
        let r0 = row(c, reflect101(y - 2, height))
        let r1 = row(c, reflect101(y - 1, height))
        let r2 = row(c, reflect101(y, height))
        let r3 = row(c, reflect101(y + 1, height))
        let r4 = row(c, reflect101(y + 2, height))
        for x in 0..<width {
            out[x] = (r0[x] + r4[x]) * 0.0625 + (r1[x] + r3[x]) * 0.25 + r2[x] * 0.375
        }
    }

    /// Horizontal [1 4 6 4 1]/16 at even positions; `src` must have two writable samples before and after.
    @inline(__always)
    static func horizontalBinomialDecimate(
        _ src: UnsafeMutablePointer<Float>, width: Int, into out: UnsafeMutablePointer<Float>, outWidth: Int
    ) {
        // Mirror the borders into the padding so the loop has no branches.
        src[-1] = src[reflect101(-1, width)]
        src[-2] = src[reflect101(-2, width)]
        src[width] = src[reflect101(width, width)]
        src[width + 1] = src[reflect101(width + 1, width)]
        for x in 0..<outWidth {
            let i = 2 * x
            out[x] = (src[i - 2] + src[i + 2]) * 0.0625 + (src[i - 1] + src[i + 1]) * 0.25 + src[i] * 0.375
        }
    }

    /// The image filtered with the 5×5 binomial kernel at full size (σ ≈ 1 pixel), mirrored borders.
    func smoothedBinomial(threads: Int) -> PlanarBuffer<Float> {
        let out = PlanarBuffer<Float>(width: width, height: height, planes: planeCount)
        let src = self
        Parallel.forEachBand(height * planeCount, threads: threads, minimumBand: 8) { band in
            let tmp = UnsafeMutablePointer<Float>.allocate(capacity: src.width + 4)
            defer { tmp.deallocate() }
            for job in band {
                let c = job / src.height
                let y = job % src.height
                let t = tmp + 2
                src.verticalBinomial(c, centre: y, into: t)
                t[-1] = t[reflect101(-1, src.width)]
                t[-2] = t[reflect101(-2, src.width)]
                t[src.width] = t[reflect101(src.width, src.width)]
                t[src.width + 1] = t[reflect101(src.width + 1, src.width)]
                let o = out.row(c, y)
                for x in 0..<src.width {
                    o[x] = (t[x - 2] + t[x + 2]) * 0.0625 + (t[x - 1] + t[x + 1]) * 0.25 + t[x] * 0.375
                }
            }
        }
        return out
    }

    /// The image reduced by 2 with a 2×2 box average (odd last row/column averaged with itself).
    func reducedBox(threads: Int) -> PlanarBuffer<Float> {
        let ow = (width + 1) / 2
        let oh = (height + 1) / 2
        let out = PlanarBuffer<Float>(width: ow, height: oh, planes: planeCount)
        let src = self
        Parallel.forEachBand(oh * planeCount, threads: threads, minimumBand: 16) { band in
            for job in band {
                let c = job / oh
                let oy = job % oh
                let a = src.row(c, 2 * oy)
                let b = src.row(c, min(2 * oy + 1, src.height - 1))
                let o = out.row(c, oy)
                let full = src.width / 2
                for x in 0..<full {
                    o[x] = (a[2 * x] + a[2 * x + 1] + b[2 * x] + b[2 * x + 1]) * 0.25
                }
                if ow > full { o[full] = (a[src.width - 1] + b[src.width - 1]) * 0.5 }
            }
        }
        return out
    }
}
