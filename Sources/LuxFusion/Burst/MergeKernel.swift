import LuxPixels
import RealModule

/// The band-parallel robust merge: for each band of rows, every frame is fetched aligned (block by block), compared
/// with the reference under the noise model, weighted, and accumulated; the merged rows are written out.
struct MergeKernel: Sendable {
    struct Statistics {
        /// Per non-reference frame, the fraction of pixels rejected (weight < ½).
        var rejected: [Double]
        /// The mean effective frame count.
        var effectiveFrameCount: Double
    }

    let input: FusionInput
    let reference: FrameReader
    let alternates: [(reader: FrameReader, field: AlignmentField)]
    let resample: Bool
    /// Weight 1 below `t0`, 0 above `t1` (local mean of normalised squared differences).
    let t0: Float
    let t1: Float
    let blockSize: Int
    /// Bayer output pedestal in 16-bit codes.
    let blackLevel: Float

    /// Rows of margin a band reads above and below (3×3 box, then 3×3 erosion).
    static let margin = 2

    init(
        input: FusionInput, reference: Int, alternates: [(FrameReader, AlignmentField)], resample: Bool,
        robustness: Float, blackLevel: Float
    ) {
        self.input = input
        self.reference = input.readers[reference]
        self.alternates = alternates.map { (reader: $0.0, field: $0.1) }
        self.resample = resample
        // The local mean of C·9 normalised squared differences has mean 1 and standard deviation √(2 / 9C) for
        // pure noise; start rejecting 3 of those above 1 and reject completely at 6.
        let sigma = (2 / (9 * Float(input.readers[0].channels))).squareRoot()
        t0 = 1 + 3 * sigma / robustness
        t1 = 1 + 6 * sigma / robustness
        blockSize = alternates.first?.1.blockSize ?? 8
        self.blackLevel = blackLevel
    }

    func run(into output: PixelBuffer, threads: Int) -> Statistics {
        let h = input.height
        let bandRows = 2 * blockSize
        let jobs = (h + bandRows - 1) / bandRows
        let nAlt = alternates.count
        let rejected = UnsafeMutablePointer<Int>.allocate(capacity: max(1, jobs * nAlt))
        rejected.initialize(repeating: 0, count: max(1, jobs * nAlt))
        let neff = UnsafeMutablePointer<Double>.allocate(capacity: jobs)
        neff.initialize(repeating: 0, count: jobs)
        defer {
            rejected.deallocate()
            neff.deallocate()
        }
        let rej = SendablePointer(rejected)
        let nef = SendablePointer(neff)
        let target = output.unsafeSharedMutablePlane(0)
        withExtendedLifetime(output) {
            Parallel.forEachBand(jobs, threads: threads, minimumBand: 1) { range in
                var scratch = BandScratch(kernel: self, bandRows: bandRows)
                defer { scratch.deallocate() }
                for job in range {
                    let y0 = job * bandRows
                    let y1 = min(y0 + bandRows, h)
                    process(
                        rows: y0..<y1, scratch: &scratch, output: target, rejected: rej.pointer + job * nAlt,
                        effective: nef.pointer + job)
                }
            }
        }
        let pixels = Double(input.width * input.height)
        var fractions: [Double] = []
        for a in 0..<nAlt {
            var n = 0
            for j in 0..<jobs { n += rejected[j * nAlt + a] }
            fractions.append(Double(n) / pixels)
        }
        var total = 0.0
        for j in 0..<jobs { total += neff[j] }
        return Statistics(rejected: fractions, effectiveFrameCount: total / pixels)
    }

    /// Per-thread working memory for one band.
    struct BandScratch {
        let stride: Int
        let rows: Int  // band rows + 2 margins
        let channels: Int
        let ref: UnsafeMutablePointer<Float>
        /// 1 / noise variance of the reference, per plane.
        let invVar: UnsafeMutablePointer<Float>
        /// Per column: the distance normalisation of the block fetched there.
        let norm: UnsafeMutablePointer<Float>
        let alt: UnsafeMutablePointer<Float>
        let dist: UnsafeMutablePointer<Float>
        let tmp: UnsafeMutablePointer<Float>
        let weight: UnsafeMutablePointer<Float>
        let acc: UnsafeMutablePointer<Float>
        let wsum: UnsafeMutablePointer<Float>
        let w2sum: UnsafeMutablePointer<Float>
        let block: UnsafeMutablePointer<Float>
        let blockH: UnsafeMutablePointer<Float>
        let read: UnsafeMutablePointer<Float>
        let all: UnsafeMutablePointer<Float>

        init(kernel: MergeKernel, bandRows: Int) {
            let w = kernel.input.width
            channels = kernel.input.readers[0].channels
            stride = (w + 15) & ~15
            rows = bandRows + 2 * MergeKernel.margin
            let plane = stride * rows
            let band = stride * bandRows
            let bs = kernel.blockSize + 3
            let blockPlane = bs * (rows + 3)
            let readCount = FrameReader.scratchCount(forRowOf: max(w, bs))
            let sizes = [
                channels * plane, channels * plane, plane, plane, plane, channels * band, band, band,
                channels * blockPlane, channels * blockPlane, readCount, channels * plane, stride,
            ]
            let total = sizes.reduce(0) { $0 + (($1 + 15) & ~15) }
            all = UnsafeMutablePointer<Float>.allocate(capacity: total)
            all.initialize(repeating: 0, count: total)
            var offsets: [Int] = []
            var o = 0
            for s in sizes {
                offsets.append(o)
                o += (s + 15) & ~15
            }
            ref = all + offsets[0]
            alt = all + offsets[1]
            dist = all + offsets[2]
            tmp = all + offsets[3]
            weight = all + offsets[4]
            acc = all + offsets[5]
            wsum = all + offsets[6]
            w2sum = all + offsets[7]
            block = all + offsets[8]
            blockH = all + offsets[9]
            read = all + offsets[10]
            invVar = all + offsets[11]
            norm = all + offsets[12]
        }

        func deallocate() { all.deallocate() }
    }

    /// Merges image rows `band` and writes them to `output`.
    func process(
        rows band: Range<Int>, scratch s: inout BandScratch, output: MutableRawPlane,
        rejected: UnsafeMutablePointer<Int>, effective: UnsafeMutablePointer<Double>
    ) {
        let w = input.width
        let c = s.channels
        let m = Self.margin
        let nRows = band.count
        let r = nRows + 2 * m  // buffer rows in use
        let plane = s.stride * s.rows
        let yb = band.lowerBound - m  // image row of buffer row 0
        reference.read(
            x: 0, y: yb, width: w, height: r, into: s.ref, planeStride: plane, rowStride: s.stride, scratch: s.read)
        let noise = input.planeNoise
        for ch in 0..<c {
            let sc = noise[ch].scale
            let of = max(noise[ch].offset, 1e-12)
            for j in 0..<r {
                let rr = s.ref + ch * plane + j * s.stride
                let iv = s.invVar + ch * plane + j * s.stride
                for x in 0..<w { iv[x] = 1 / (sc * max(rr[x], 0) + of) }
            }
        }
        for i in 0..<(c * s.stride * (s.rows - 2 * m)) { s.acc[i] = 0 }
        for i in 0..<(s.stride * (s.rows - 2 * m)) {
            s.wsum[i] = 0
            s.w2sum[i] = 0
        }
        for (a, alternate) in alternates.enumerated() {
            let field = alternate.field
            // Fetch the aligned frame block by block (margin rows use the nearest block row's displacement).
            var row = 0
            while row < r {
                let by = min(max((yb + row) / blockSize, 0), field.rows - 1)
                var end = row + 1
                while end < r && min(max((yb + end) / blockSize, 0), field.rows - 1) == by { end += 1 }
                for bx in 0..<field.columns {
                    let x0 = bx * blockSize
                    let nb = min(blockSize, w - x0)
                    if nb <= 0 { break }
                    let d = field.displacement(column: bx, row: by)
                    let kappa = fetch(
                        alternate.reader, x0: x0, nb: nb, row0: row, row1: end, yb: yb, d: d, scratch: s)
                    // The distance's normalisation, 1 / (C·(1 + κ)), per column.
                    let norm = 1 / (Float(c) * (1 + kappa))
                    for i in x0..<(x0 + nb) { s.norm[i] = norm }
                }
                distance(width: w, row0: row, row1: end, scratch: s)
                row = end
            }
            // Local mean of the distance (3×3), weight ramp, then 3×3 erosion, accumulate.
            boxAndRamp(rows: 1..<(r - 1), width: w, scratch: s)
            rejected[a] += erodeAndAccumulate(bandRows: nRows, width: w, scratch: s)
        }
        // Normalise and write.
        var neff = 0.0
        for j in 0..<nRows {
            let ws = s.wsum + j * s.stride
            let w2 = s.w2sum + j * s.stride
            var e: Float = 0
            for x in 0..<w {
                let total = 1 + ws[x]
                e = Relaxed.sum(e, total * total / (1 + w2[x]))
            }
            neff += Double(e)
        }
        effective.pointee += neff
        write(bandRows: band, scratch: s, output: output)
    }

    /// Fills the aligned frame's block columns `x0..<x0+nb`, buffer rows `row0..<row1`; returns the variance
    /// ratio κ of the resampled values to the frame's own noise (Σ of the squared kernel weights; 1 for a copy).
    @inline(__always)
    func fetch(
        _ reader: FrameReader, x0: Int, nb: Int, row0: Int, row1: Int, yb: Int, d: SIMD2<Float>, scratch s: BandScratch
    ) -> Float {
        Self.fetchAligned(
            reader, x0: x0, nb: nb, row0: row0, row1: row1, yb: yb, d: d, resample: resample,
            into: s.alt, stride: s.stride, planeStride: s.stride * s.rows, block: s.block, blockH: s.blockH,
            read: s.read)
    }

    /// Reads frame `reader` displaced by `d` into `dst` (planes `planeStride` apart, rows `stride` apart) for block
    /// columns `x0..<x0+nb` and buffer rows `row0..<row1` (buffer row 0 is image row `yb`), resampling with Catmull–Rom
    /// when `resample` and the displacement is fractional.
    ///
    /// `block` and `blockH` hold `channels·(nb+3)·(rows+3)` floats. Returns κ, the variance of the result per unit of
    /// frame noise.
    @inline(__always)
    static func fetchAligned(
        _ reader: FrameReader, x0: Int, nb: Int, row0: Int, row1: Int, yb: Int, d: SIMD2<Float>, resample: Bool,
        into dst: UnsafeMutablePointer<Float>, stride: Int, planeStride plane: Int, block: UnsafeMutablePointer<Float>,
        blockH: UnsafeMutablePointer<Float>, read: UnsafeMutablePointer<Float>
    ) -> Float {
        let nr = row1 - row0
        let fx = d.x.rounded(.down)
        let fy = d.y.rounded(.down)
        let tx = d.x - fx
        let ty = d.y - fy
        let exact = !resample || ((tx < 0.02 || tx > 0.98) && (ty < 0.02 || ty > 0.98))
        if exact {
            let ix = Int(d.x.rounded())
            let iy = Int(d.y.rounded())
            reader.read(
                x: x0 + ix, y: yb + row0 + iy, width: nb, height: nr, into: dst + row0 * stride + x0,
                planeStride: plane, rowStride: stride, scratch: read)
            return 1
        }
        let ix = Int(fx)
        let iy = Int(fy)
        let bw = nb + 3
        let bh = nr + 3
        let bPlane = bw * bh
        reader.read(
            x: x0 + ix - 1, y: yb + row0 + iy - 1, width: bw, height: bh, into: block, planeStride: bPlane,
            rowStride: bw, scratch: read)
        let wx = catmullRom(tx)
        let wy = catmullRom(ty)
        let hPlane = nb * bh
        if nb == 8 {
            // One 8-wide vector per row of the block.
            let (x0w, x1w, x2w, x3w) = (wx[0], wx[1], wx[2], wx[3])
            let (y0w, y1w, y2w, y3w) = (wy[0], wy[1], wy[2], wy[3])
            for c in 0..<reader.channels {
                let src = UnsafeRawPointer(block + c * bPlane)
                let h = UnsafeMutableRawPointer(blockH + c * hPlane)
                for j in 0..<bh {
                    let o = 4 * j * bw
                    let v0 = src.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
                    let v1 = src.loadUnaligned(fromByteOffset: o + 4, as: SIMD8<Float>.self)
                    let v2 = src.loadUnaligned(fromByteOffset: o + 8, as: SIMD8<Float>.self)
                    let v3 = src.loadUnaligned(fromByteOffset: o + 12, as: SIMD8<Float>.self)
                    h.storeBytes(
                        of: x0w * v0 + x1w * v1 + x2w * v2 + x3w * v3, toByteOffset: 32 * j, as: SIMD8<Float>.self)
                }
                let out = UnsafeMutableRawPointer(dst + c * plane + row0 * stride + x0)
                let hr = UnsafeRawPointer(h)
                for j in 0..<nr {
                    let v =
                        y0w * hr.load(fromByteOffset: 32 * j, as: SIMD8<Float>.self)
                        + y1w * hr.load(fromByteOffset: 32 * (j + 1), as: SIMD8<Float>.self)
                        + y2w * hr.load(fromByteOffset: 32 * (j + 2), as: SIMD8<Float>.self)
                        + y3w * hr.load(fromByteOffset: 32 * (j + 3), as: SIMD8<Float>.self)
                    out.storeBytes(of: v, toByteOffset: 4 * j * stride, as: SIMD8<Float>.self)
                }
            }
            return (wx * wx).sum() * (wy * wy).sum()
        }
        for c in 0..<reader.channels {
            let src = block + c * bPlane
            let h = blockH + c * hPlane
            for j in 0..<bh {
                let sr = src + j * bw
                let hr = h + j * nb
                for i in 0..<nb {
                    hr[i] = wx[0] * sr[i] + wx[1] * sr[i + 1] + wx[2] * sr[i + 2] + wx[3] * sr[i + 3]
                }
            }
            let out = dst + c * plane + row0 * stride + x0
            for j in 0..<nr {
                let h0 = h + j * nb
                let h1 = h0 + nb
                let h2 = h1 + nb
                let h3 = h2 + nb
                let o = out + j * stride
                for i in 0..<nb { o[i] = wy[0] * h0[i] + wy[1] * h1[i] + wy[2] * h2[i] + wy[3] * h3[i] }
            }
        }
        return (wx * wx).sum() * (wy * wy).sum()
    }

    /// Catmull–Rom weights for taps −1, 0, 1, 2 at fraction `t`.
    @inline(__always)
    static func catmullRom(_ t: Float) -> SIMD4<Float> {
        let t2 = t * t
        let t3 = t2 * t
        return SIMD4(
            (-t3 + 2 * t2 - t) * 0.5, (3 * t3 - 5 * t2 + 2) * 0.5, (-3 * t3 + 4 * t2 + t) * 0.5, (t3 - t2) * 0.5)
    }

    /// The per-pixel distance on whole rows: the mean over planes of (alt − ref)² / (σ²_ref·(1 + κ)), with the
    /// per-column normalisation in `s.norm`.
    func distance(width w: Int, row0: Int, row1: Int, scratch s: BandScratch) {
        let plane = s.stride * s.rows
        for j in row0..<row1 {
            let o = s.dist + j * s.stride
            let base = j * s.stride
            let r0 = s.ref + base
            let a0 = s.alt + base
            let i0 = s.invVar + base
            let r1 = r0 + plane
            let a1 = a0 + plane
            let i1 = i0 + plane
            let r2 = r1 + plane
            let a2 = a1 + plane
            let i2 = i1 + plane
            if s.channels == 4 {
                let r3 = r2 + plane
                let a3 = a2 + plane
                let i3 = i2 + plane
                for x in 0..<w {
                    let e0 = a0[x] - r0[x]
                    let e1 = a1[x] - r1[x]
                    let e2 = a2[x] - r2[x]
                    let e3 = a3[x] - r3[x]
                    o[x] = (e0 * e0 * i0[x] + e1 * e1 * i1[x] + e2 * e2 * i2[x] + e3 * e3 * i3[x]) * s.norm[x]
                }
            } else {
                for x in 0..<w {
                    let e0 = a0[x] - r0[x]
                    let e1 = a1[x] - r1[x]
                    let e2 = a2[x] - r2[x]
                    o[x] = (e0 * e0 * i0[x] + e1 * e1 * i1[x] + e2 * e2 * i2[x]) * s.norm[x]
                }
            }
        }
    }

    /// `weight = ramp(box3×3(dist))` on buffer rows `rows`.
    func boxAndRamp(rows: Range<Int>, width w: Int, scratch s: BandScratch) {
        // Horizontal 3-sums of dist into tmp for rows rows.lowerBound−1 … rows.upperBound.
        for j in (rows.lowerBound - 1)..<(rows.upperBound + 1) {
            let d = s.dist + j * s.stride
            let t = s.tmp + j * s.stride
            if w == 1 {
                t[0] = 3 * d[0]
                continue
            }
            t[0] = 2 * d[0] + d[1]
            for x in 1..<(w - 1) { t[x] = d[x - 1] + d[x] + d[x + 1] }
            t[w - 1] = d[w - 2] + 2 * d[w - 1]
        }
        let scale: Float = 1 / 9
        let slope = 1 / (t1 - t0)
        let top = t1
        for j in rows {
            let a = s.tmp + (j - 1) * s.stride
            let b = a + s.stride
            let c = b + s.stride
            let o = s.weight + j * s.stride
            for x in 0..<w {
                let mean = (a[x] + b[x] + c[x]) * scale
                o[x] = min(max((top - mean) * slope, 0), 1)
            }
        }
    }

    /// Erodes the weights (3×3 minimum) on the band rows, accumulates the weighted frame, returns the pixels
    /// rejected (eroded weight < ½).
    func erodeAndAccumulate(bandRows: Int, width w: Int, scratch s: BandScratch) -> Int {
        let m = Self.margin
        let plane = s.stride * s.rows
        let band = s.stride * (s.rows - 2 * m)
        // Horizontal minimum into tmp for buffer rows m−1 … m+bandRows.
        for j in (m - 1)..<(m + bandRows + 1) {
            let src = s.weight + j * s.stride
            let t = s.tmp + j * s.stride
            if w == 1 {
                t[0] = src[0]
                continue
            }
            t[0] = min(src[0], src[1])
            for x in 1..<(w - 1) { t[x] = min(min(src[x - 1], src[x]), src[x + 1]) }
            t[w - 1] = min(src[w - 2], src[w - 1])
        }
        var rejected = 0
        for j in 0..<bandRows {
            let jb = j + m
            let a = s.tmp + (jb - 1) * s.stride
            let b = a + s.stride
            let c = b + s.stride
            let ws = s.wsum + j * s.stride
            let w2 = s.w2sum + j * s.stride
            let e = s.dist + jb * s.stride  // reuse as the eroded weight row
            var count = 0
            for x in 0..<w {
                let v = min(min(a[x], b[x]), c[x])
                e[x] = v
                ws[x] += v
                w2[x] += v * v
                count &+= v < 0.5 ? 1 : 0
            }
            rejected += count
            for ch in 0..<s.channels {
                let acc = s.acc + ch * band + j * s.stride
                let alt = s.alt + ch * plane + jb * s.stride
                for x in 0..<w { acc[x] += e[x] * alt[x] }
            }
        }
        return rejected
    }

    /// Writes `(ref + Σ w·alt) / (1 + Σ w)` for the band rows.
    func write(bandRows band: Range<Int>, scratch s: BandScratch, output: MutableRawPlane) {
        let w = input.width
        let m = Self.margin
        let plane = s.stride * s.rows
        let bandPlane = s.stride * (s.rows - 2 * m)
        for j in 0..<band.count {
            let y = band.lowerBound + j
            let ws = s.wsum + j * s.stride
            // Merged values overwrite the reference rows in the scratch.
            for c in 0..<s.channels {
                let r = s.ref + c * plane + (j + m) * s.stride
                let a = s.acc + c * bandPlane + j * s.stride
                for x in 0..<w { r[x] = (r[x] + a[x]) / (1 + ws[x]) }
            }
            let p0 = s.ref + (j + m) * s.stride
            if input.isBayer {
                let scale = 65535 - blackLevel
                let black = blackLevel
                let top = output.row(2 * y, as: UInt16.self)
                let bottom = output.row(2 * y + 1, as: UInt16.self)
                let p1 = p0 + plane
                let p2 = p1 + plane
                let p3 = p2 + plane
                for x in 0..<w {
                    top[2 * x] = Self.code(p0[x] * scale + black)
                    top[2 * x + 1] = Self.code(p1[x] * scale + black)
                    bottom[2 * x] = Self.code(p2[x] * scale + black)
                    bottom[2 * x + 1] = Self.code(p3[x] * scale + black)
                }
            } else {
                RGBRowWriter.write(
                    r: p0, g: p0 + plane, b: p0 + 2 * plane, count: w, format: input.format, row: output.row(y),
                    scratch: s.read)
            }
        }
    }

    /// A 16-bit code for a value in code units (rounded, clamped to 0…65535).
    @inline(__always)
    static func code(_ v: Float) -> UInt16 {
        let c = min(max(v, 0), 65535) + 0.5
        return UInt16(truncatingIfNeeded: Int(c))
    }
}
