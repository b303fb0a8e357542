import LuxPixels

/// The band-parallel noise-optimal HDR merge behind ``HDRMerge``.
struct HDRKernel: Sendable {
    struct Statistics {
        var rejected: [Double]
        var clipped: Double
    }

    let input: FusionInput
    let reference: Int
    let fields: [AlignmentField?]
    /// Radiance → linear value factor per bracket, relative to the reference's.
    let gains: [Float]
    let planeNoise: [[(scale: Float, offset: Float)]]
    let saturation: Float
    let rejectsMotion: Bool
    let t0: Float
    let t1: Float
    let resample: Bool
    let blockSize: Int

    /// Rows of margin around a band: 5×5 feathering, or 3×3 mean then 3×3 erosion.
    static let margin = 2

    init(
        input: FusionInput, reference: Int, fields: [AlignmentField?], exposures: [Double],
        planeNoise: [[(scale: Float, offset: Float)]], saturation: Float, rejectsMotion: Bool, robustness: Float,
        resample: Bool
    ) {
        self.input = input
        self.reference = reference
        self.fields = fields
        gains = exposures.map { Float($0 / exposures[reference]) }
        self.planeNoise = planeNoise
        self.saturation = saturation
        self.rejectsMotion = rejectsMotion
        let sigma = (2 / (9 * Float(input.readers[0].channels))).squareRoot()
        t0 = 1 + 3 * sigma / robustness
        t1 = 1 + 6 * sigma / robustness
        self.resample = resample
        blockSize = fields.compactMap { $0?.blockSize }.first ?? 8
    }

    struct Scratch {
        let stride: Int
        let rows: Int
        let frames: Int
        let channels: Int
        let values: UnsafeMutablePointer<Float>  // frames × channels × rows × stride
        let hard: UnsafeMutablePointer<Float>  // frames × rows × stride
        let prediction: UnsafeMutablePointer<Float>  // channels × rows × stride
        let dist: UnsafeMutablePointer<Float>
        let tmp: UnsafeMutablePointer<Float>
        let weight: UnsafeMutablePointer<Float>
        let ghost: UnsafeMutablePointer<Float>  // band rows × stride
        let feather: UnsafeMutablePointer<Float>  // band rows × stride
        let num: UnsafeMutablePointer<Float>  // channels × band rows × stride
        let den: UnsafeMutablePointer<Float>
        let block: UnsafeMutablePointer<Float>
        let blockH: UnsafeMutablePointer<Float>
        let read: UnsafeMutablePointer<Float>
        let all: UnsafeMutablePointer<Float>

        init(kernel k: HDRKernel, bandRows: Int) {
            let w = k.input.width
            channels = k.input.readers[0].channels
            frames = k.input.readers.count
            stride = (w + 15) & ~15
            rows = bandRows + 2 * HDRKernel.margin
            let plane = stride * rows
            let band = stride * bandRows
            let blockPlane = (k.blockSize + 3) * (rows + 3)
            let sizes = [
                frames * channels * plane, frames * plane, channels * plane, plane, plane, plane, band, band,
                channels * band, channels * band, channels * blockPlane, channels * blockPlane,
                FrameReader.scratchCount(forRowOf: max(w, k.blockSize + 3)),
            ]
            var offsets: [Int] = []
            var o = 0
            for s in sizes {
                offsets.append(o)
                o += (s + 15) & ~15
            }
            all = .allocate(capacity: o)
            all.initialize(repeating: 0, count: o)
            values = all + offsets[0]
            hard = all + offsets[1]
            prediction = all + offsets[2]
            dist = all + offsets[3]
            tmp = all + offsets[4]
            weight = all + offsets[5]
            ghost = all + offsets[6]
            feather = all + offsets[7]
            num = all + offsets[8]
            den = all + offsets[9]
            block = all + offsets[10]
            blockH = all + offsets[11]
            read = all + offsets[12]
        }

        /// Row `j` of channel `c` of frame `k`.
        @inline(__always)
        func value(_ k: Int, _ c: Int, _ j: Int) -> UnsafeMutablePointer<Float> {
            values + ((k * channels + c) * rows + j) * stride
        }

        func deallocate() { all.deallocate() }
    }

    func run(into output: PixelBuffer, threads: Int) -> Statistics {
        let h = input.height
        let bandRows = 2 * blockSize
        let jobs = (h + bandRows - 1) / bandRows
        let n = input.readers.count
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: jobs * (n + 1))
        counts.initialize(repeating: 0, count: jobs * (n + 1))
        defer { counts.deallocate() }
        let cp = SendablePointer(counts)
        let target = output.unsafeSharedMutablePlane(0)
        withExtendedLifetime(output) {
            Parallel.forEachBand(jobs, threads: threads, minimumBand: 1) { range in
                let s = Scratch(kernel: self, bandRows: bandRows)
                defer { s.deallocate() }
                for job in range {
                    let y0 = job * bandRows
                    process(rows: y0..<min(y0 + bandRows, h), s: s, output: target, counts: cp.pointer + job * (n + 1))
                }
            }
        }
        let pixels = Double(input.width * input.height)
        var rejected = [Double](repeating: 0, count: n)
        var clipped = 0
        for j in 0..<jobs {
            for k in 0..<n { rejected[k] += Double(counts[j * (n + 1) + k]) / pixels }
            clipped += counts[j * (n + 1) + n]
        }
        return Statistics(rejected: rejected, clipped: Double(clipped) / pixels)
    }

    func process(rows band: Range<Int>, s: Scratch, output: MutableRawPlane, counts: UnsafeMutablePointer<Int>) {
        let w = input.width
        let c = s.channels
        let m = Self.margin
        let r = band.count + 2 * m
        let yb = band.lowerBound - m
        let n = s.frames
        let plane = s.stride * s.rows
        // Aligned values of every bracket.
        for k in 0..<n {
            let dst = s.value(k, 0, 0)
            if let field = fields[k] {
                var row = 0
                while row < r {
                    let by = min(max((yb + row) / blockSize, 0), field.rows - 1)
                    var end = row + 1
                    while end < r && min(max((yb + end) / blockSize, 0), field.rows - 1) == by { end += 1 }
                    for bx in 0..<field.columns {
                        let x0 = bx * blockSize
                        let nb = min(blockSize, w - x0)
                        if nb <= 0 { break }
                        _ = MergeKernel.fetchAligned(
                            input.readers[k], x0: x0, nb: nb, row0: row, row1: end, yb: yb,
                            d: field.displacement(column: bx, row: by), resample: resample, into: dst,
                            stride: s.stride, planeStride: plane, block: s.block, blockH: s.blockH, read: s.read)
                    }
                    row = end
                }
            } else {
                input.readers[k].read(
                    x: 0, y: yb, width: w, height: r, into: dst, planeStride: plane, rowStride: s.stride,
                    scratch: s.read)
            }
            // Hard validity: no channel at or above saturation.
            for j in 0..<r {
                let hk = s.hard + (k * s.rows + j) * s.stride
                for x in 0..<w { hk[x] = 1 }
                for ch in 0..<c {
                    let v = s.value(k, ch, j)
                    let sat = saturation
                    for x in 0..<w { hk[x] = v[x] < sat ? hk[x] : 0 }
                }
            }
        }
        // Predicted radiance: the longest valid exposure (else the shortest), per pixel.
        let order = (0..<n).sorted { gains[$0] > gains[$1] }
        let shortest = order[n - 1]
        for j in 0..<r {
            for ch in 0..<c {
                let p = s.prediction + (ch * s.rows + j) * s.stride
                let v = s.value(shortest, ch, j)
                let inv = 1 / gains[shortest]
                for x in 0..<w { p[x] = v[x] * inv }
                for k in order.reversed().dropFirst() {
                    let vk = s.value(k, ch, j)
                    let hk = s.hard + (k * s.rows + j) * s.stride
                    let ik = 1 / gains[k]
                    for x in 0..<w { p[x] = hk[x] > 0 ? vk[x] * ik : p[x] }
                }
            }
        }
        let nb = band.count
        for ch in 0..<c {
            for i in 0..<(nb * s.stride) {
                s.num[ch * nb * s.stride + i] = 0
                s.den[ch * nb * s.stride + i] = 0
            }
        }
        for k in 0..<n {
            // Feathered validity: the 5×5 mean of the hard mask.
            // (zero on clipped pixels themselves).
            box5(s.hard + k * s.rows * s.stride, rows: nb, width: w, stride: s.stride, into: s.feather, tmp: s.tmp)
            for j in 0..<nb {
                let f = s.feather + j * s.stride
                let hk = s.hard + (k * s.rows + j + m) * s.stride
                for x in 0..<w { f[x] *= hk[x] }
            }
            // Motion against the reference, where both hold values.
            var ghostRows = s.feather  // placeholder, replaced below
            if rejectsMotion && k != reference {
                distance(k, rows: r, width: w, s: s)
                boxAndRamp(rows: r, width: w, s: s)
                counts[k] += erode(bandRows: nb, width: w, s: s)
                ghostRows = s.ghost
            } else {
                ghostRows = s.feather
            }
            let useGhost = rejectsMotion && k != reference
            let g = gains[k]
            let ig = 1 / g
            for j in 0..<nb {
                let f = s.feather + j * s.stride
                let gh = ghostRows + j * s.stride
                for ch in 0..<c {
                    let v = s.value(k, ch, j + m)
                    let p = s.prediction + (ch * s.rows + j + m) * s.stride
                    let num = s.num + (ch * nb + j) * s.stride
                    let den = s.den + (ch * nb + j) * s.stride
                    let sc = planeNoise[k][ch].scale
                    let of = max(planeNoise[k][ch].offset, 1e-12)
                    // w = g² / Var(x) at the predicted level x = g·E.
                    for x in 0..<w {
                        let variance = sc * max(g * p[x], 0) + of
                        let wv = f[x] * (useGhost ? gh[x] : 1) * g * g / variance
                        num[x] += wv * v[x] * ig
                        den[x] += wv
                    }
                }
            }
        }
        // Radiance, relative to the reference exposure (gains are relative already).
        var clipped = 0
        for j in 0..<nb {
            let y = band.lowerBound + j
            for ch in 0..<c {
                let num = s.num + (ch * nb + j) * s.stride
                let den = s.den + (ch * nb + j) * s.stride
                let p = s.prediction + (ch * s.rows + j + m) * s.stride
                for x in 0..<w { num[x] = den[x] > 0 ? num[x] / den[x] : p[x] }
            }
            // Clipped in every bracket: no hard-valid value at all.
            let d0 = s.den + j * s.stride
            for x in 0..<w { d0[x] = 1 }
            for k in 0..<n {
                let hk = s.hard + (k * s.rows + j + m) * s.stride
                for x in 0..<w { d0[x] *= 1 - hk[x] }
            }
            for x in 0..<w { clipped &+= d0[x] > 0 ? 1 : 0 }
            let p0 = s.num + j * s.stride
            let p1 = s.num + (nb + j) * s.stride
            let p2 = s.num + (2 * nb + j) * s.stride
            if input.isBayer {
                let p3 = s.num + (3 * nb + j) * s.stride
                let top = output.row(2 * y, as: Float.self)
                let bottom = output.row(2 * y + 1, as: Float.self)
                for x in 0..<w {
                    top[2 * x] = p0[x]
                    top[2 * x + 1] = p1[x]
                    bottom[2 * x] = p2[x]
                    bottom[2 * x + 1] = p3[x]
                }
            } else {
                RGBRowWriter.write(
                    r: p0, g: p1, b: p2, count: w, format: .rgbaFloat, row: output.row(y), scratch: s.read)
            }
        }
        counts[n] += clipped
    }

    /// The mean over 5×5 of a mask (rows `0..<rows+4` of `src`) for rows `2..<rows+2`, into `out`.
    func box5(
        _ src: UnsafeMutablePointer<Float>, rows: Int, width w: Int, stride: Int, into out: UnsafeMutablePointer<Float>,
        tmp: UnsafeMutablePointer<Float>
    ) {
        for j in 0..<(rows + 4) {
            let a = src + j * stride
            let t = tmp + j * stride
            for x in 0..<w {
                var sum: Float = 0
                for i in -2...2 { sum += a[min(max(x + i, 0), w - 1)] }
                t[x] = sum
            }
        }
        for j in 0..<rows {
            let o = out + j * stride
            let t0 = tmp + j * stride
            for x in 0..<w {
                o[x] = (t0[x] + t0[x + stride] + t0[x + 2 * stride] + t0[x + 3 * stride] + t0[x + 4 * stride]) * 0.04
            }
        }
    }

    /// The per-pixel normalised squared difference between bracket `k` and the reference in radiance, where both
    /// are valid (0 elsewhere), into `s.dist`.
    func distance(_ k: Int, rows r: Int, width w: Int, s: Scratch) {
        let c = s.channels
        let gk = gains[k]
        let gr = gains[reference]
        let norm = 1 / Float(c)
        for j in 0..<r {
            let o = s.dist + j * s.stride
            for x in 0..<w { o[x] = 0 }
            for ch in 0..<c {
                let a = s.value(k, ch, j)
                let b = s.value(reference, ch, j)
                let p = s.prediction + (ch * s.rows + j) * s.stride
                let nk = planeNoise[k][ch]
                let nr = planeNoise[reference][ch]
                for x in 0..<w {
                    let e = a[x] / gk - b[x] / gr
                    let vk = (nk.scale * max(gk * p[x], 0) + max(nk.offset, 1e-12)) / (gk * gk)
                    let vr = (nr.scale * max(gr * p[x], 0) + max(nr.offset, 1e-12)) / (gr * gr)
                    o[x] += e * e / (vk + vr)
                }
            }
            let hk = s.hard + (k * s.rows + j) * s.stride
            let hr = s.hard + (reference * s.rows + j) * s.stride
            for x in 0..<w { o[x] = hk[x] * hr[x] > 0 ? o[x] * norm : 0 }
        }
    }

    /// `s.weight = ramp(box3×3(s.dist))` for rows `1..<r−1`.
    func boxAndRamp(rows r: Int, width w: Int, s: Scratch) {
        for j in 0..<r {
            let d = s.dist + j * s.stride
            let t = s.tmp + j * s.stride
            for x in 0..<w { t[x] = d[max(x - 1, 0)] + d[x] + d[min(x + 1, w - 1)] }
        }
        let slope = 1 / (t1 - t0)
        for j in 1..<(r - 1) {
            let a = s.tmp + (j - 1) * s.stride
            let b = a + s.stride
            let c = b + s.stride
            let o = s.weight + j * s.stride
            for x in 0..<w { o[x] = min(max((t1 - (a[x] + b[x] + c[x]) * (1 / 9)) * slope, 0), 1) }
        }
    }

    /// `s.ghost = min3×3(s.weight)` on the band rows; returns the pixels rejected.
    func erode(bandRows nb: Int, width w: Int, s: Scratch) -> Int {
        let m = Self.margin
        for j in (m - 1)..<(m + nb + 1) {
            let a = s.weight + j * s.stride
            let t = s.tmp + j * s.stride
            for x in 0..<w { t[x] = min(min(a[max(x - 1, 0)], a[x]), a[min(x + 1, w - 1)]) }
        }
        var rejected = 0
        for j in 0..<nb {
            let a = s.tmp + (j + m - 1) * s.stride
            let b = a + s.stride
            let c = b + s.stride
            let o = s.ghost + j * s.stride
            for x in 0..<w {
                let v = min(min(a[x], b[x]), c[x])
                o[x] = v
                rejected &+= v < 0.5 ? 1 : 0
            }
        }
        return rejected
    }
}
