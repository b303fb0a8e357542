import LuxColor
import LuxPixels
import RealModule

/// The processor's fused row kernel for 8-bit outputs: demosaic, white balance and colour matrix, desaturation of
/// clipped highlights, highlight roll-off,
/// transfer function and the output format's encoding in one pass over each row (pair), with no full-frame intermediate
/// image.
///
/// Each output row depends only on three raw rows, so any split across threads gives identical bytes.
struct FusedDevelopment {
    /// Per CFA row phase and column parity: linear RGB = A · (centre, left + right, up + down, sum of the four
    /// diagonals), the bilinear demosaic's channel selection and averaging and the colour matrix folded into
    /// one 3×4 matrix.
    let weights: [[Float]]  // [phase * 2 + parity] → 12 weights, row-major
    let black: Float
    let scale: Float
    /// The output's transfer function (encoding), evaluated inside the row loop.
    let encoder: UnitEncodingPolynomial

    /// Whether `format` has a fused path.
    static func supports(_ format: PixelFormat) -> Bool {
        switch format {
        case .yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange, .yCbCr444FullRange, .bgra8, .rgba8: true
        default: false
        }
    }

    init(matrix m: [Float], pattern: CFAPattern, black: Float, white: Float, transferFunction: TransferFunction) {
        let quad = pattern.quadChannels.map(\.rawValue)
        var weights: [[Float]] = []
        for phase in 0..<2 {
            for parity in 0..<2 {
                let site = quad[phase * 2 + parity]
                let neighbour = quad[phase * 2 + 1 - parity]
                // The bilinear estimates as weights of (centre, left + right, up + down, diagonals).
                let centre: [Float] = [1, 0, 0, 0]
                let cross: [Float] = [0, 0.25, 0.25, 0]
                let diagonal: [Float] = [0, 0, 0, 0.25]
                let horizontal: [Float] = [0, 0.5, 0, 0]
                let vertical: [Float] = [0, 0, 0.5, 0]
                // R, G, B at this site.
                let rgb: [[Float]]
                switch site {
                case 0: rgb = [centre, cross, diagonal]
                case 2: rgb = [diagonal, cross, centre]
                default: rgb = neighbour == 0 ? [horizontal, centre, vertical] : [vertical, centre, horizontal]
                }
                var a = [Float](repeating: 0, count: 12)
                for k in 0..<3 {
                    for c in 0..<3 {
                        for i in 0..<4 { a[k * 4 + i] += m[3 * k + c] * rgb[c][i] }
                    }
                }
                weights.append(a)
            }
        }
        self.weights = weights
        self.black = black
        self.scale = 1 / (white - black)
        encoder = UnitEncodingPolynomial(transferFunction)
    }

    /// Scratch for one worker.
    ///
    /// Rows are split into even and odd columns (`half = ⌈width/2⌉` each), so every loop below reads and writes with
    /// unit stride and vectorises.
    struct Rows {
        let width: Int
        let half: Int
        /// Eight raw rows as floats, each as even and odd columns with one padding element on either side: sixteen rows of
        /// `half + 2`.
        ///
        /// Raw row `y` lives in slot `y mod 8`, so consecutive output rows load each raw row once.
        let raw: UnsafeMutablePointer<Float>
        /// The raw row each slot holds (`Int.min`: none yet).
        let slotRows: UnsafeMutablePointer<Int>
        /// Per column, the largest raw value of the five rows around the output row (for the desaturation).
        let columnPeak: UnsafeMutablePointer<Float>
        /// The R′, G′, B′ of two output rows, each as even then odd columns: 2 × 6 rows of `half` (an output
        /// row's six are contiguous; linear until ``developRow(_:raw:height:rows:slot:)`` encodes them in place).
        let encoded: UnsafeMutablePointer<Float>

        init(width: Int) {
            self.width = width
            half = (width + 1) / 2
            raw = .allocate(capacity: 16 * (half + 2))
            raw.initialize(repeating: 0, count: 16 * (half + 2))
            slotRows = .allocate(capacity: 8)
            slotRows.initialize(repeating: .min, count: 8)
            columnPeak = .allocate(capacity: width)
            encoded = .allocate(capacity: 12 * half)
        }

        func deallocate() {
            raw.deallocate()
            slotRows.deallocate()
            columnPeak.deallocate()
            encoded.deallocate()
        }

        /// Even (`odd` false) or odd columns of raw slot `k` (0…7), from index −1.
        func raw(_ k: Int, odd: Bool) -> UnsafeMutablePointer<Float> { raw + (2 * k + (odd ? 1 : 0)) * (half + 2) + 1 }

        /// Channel `c` (R′, G′, B′) of output row `k` (0 or 1), even or odd columns.
        func encoded(row k: Int, channel c: Int, odd: Bool) -> UnsafeMutablePointer<Float> {
            encoded + ((k * 3 + c) * 2 + (odd ? 1 : 0)) * half
        }
    }

    /// Loads raw row `y` (mirrored at the frame's edges) into slot `k` as normalised floats, split into even
    /// and odd columns, with the mirrored neighbours of the first and last column in the padding.
    func loadRaw(_ y: Int, raw plane: RawPlane, height h: Int, rows: Rows, slot k: Int) {
        let w = rows.width
        let half = rows.half
        let r = y < 0 ? -y : (y >= h ? 2 * h - 2 - y : y)
        let src = plane.row(min(max(r, 0), h - 1), as: UInt16.self)
        let even = rows.raw(k, odd: false)
        let odd = rows.raw(k, odd: true)
        let b = black
        let s = scale
        for j in 0..<(w / 2) {
            even[j] = (Float(src[2 * j]) - b) * s
            odd[j] = (Float(src[2 * j + 1]) - b) * s
        }
        if w & 1 == 1 { even[half - 1] = (Float(src[w - 1]) - b) * s }
        // Column −1 mirrors to 1; column w (even or odd) to w − 2.
        odd[-1] = w > 1 ? odd[0] : even[0]
        if w & 1 == 0 { even[half] = even[half - 1] } else { odd[half - 1] = w > 1 ? odd[half - 2] : even[0] }
    }

    /// The raw slot holding row `y` (−2…h + 1), loaded unless it already holds it.
    func rawSlot(_ y: Int, raw plane: RawPlane, height h: Int, rows: Rows) -> Int {
        let slot = (y + 8) & 7
        if rows.slotRows[slot] != y {
            loadRaw(y, raw: plane, height: h, rows: rows, slot: slot)
            rows.slotRows[slot] = y
        }
        return slot
    }

    /// Encoded R′G′B′ of output row `y` into output slot `k` of `rows`.
    func developRow(_ y: Int, raw plane: RawPlane, height h: Int, rows: Rows, slot k: Int) {
        let above = rawSlot(y - 1, raw: plane, height: h, rows: rows)
        let current = rawSlot(y, raw: plane, height: h, rows: rows)
        let below = rawSlot(y + 1, raw: plane, height: h, rows: rows)
        let n = rows.half
        let ue = rows.raw(above, odd: false)
        let uo = rows.raw(above, odd: true)
        let me = rows.raw(current, odd: false)
        let mo = rows.raw(current, odd: true)
        let de = rows.raw(below, odd: false)
        let dO = rows.raw(below, odd: true)
        let curve = encoder
        // Only rows whose raw neighbourhood (five rows) comes near the clip pay for the desaturation.
        let outer = (
            rawSlot(y - 2, raw: plane, height: h, rows: rows), rawSlot(y + 2, raw: plane, height: h, rows: rows)
        )
        var rawTop: Float = 0
        for slot in 0..<8 where rows.slotRows[slot] >= y - 2 && rows.slotRows[slot] <= y + 2 {
            let values = rows.raw(slot, odd: false)
            // Even and odd columns lie back to back (with their padding): one vectorised scan.
            for j in 0..<(2 * n + 2) { rawTop = max(rawTop, values[j]) }
        }
        let nearClip = rawTop > Self.desaturationStart
        if nearClip { columnPeaks((outer.0, above, current, below, outer.1), rows: rows) }
        for parity in 0..<2 {
            let a = weights[(y & 1) * 2 + parity]
            let a0 = a[0]
            let a1 = a[1]
            let a2 = a[2]
            let a3 = a[3]
            let a4 = a[4]
            let a5 = a[5]
            let a6 = a[6]
            let a7 = a[7]
            let a8 = a[8]
            let a9 = a[9]
            let a10 = a[10]
            let a11 = a[11]
            let odd = parity == 1
            let r = rows.encoded(row: k, channel: 0, odd: odd)
            let g = rows.encoded(row: k, channel: 1, odd: odd)
            let bl = rows.encoded(row: k, channel: 2, odd: odd)
            // Even column 2j: centre me[j], left mo[j − 1], right mo[j], diagonals uo/do[j − 1], [j].
            // Odd column 2j + 1: centre mo[j], left me[j], right me[j + 1], diagonals ue/de[j], [j + 1].
            let centreRow = odd ? mo : me
            let sideRow = odd ? me : mo
            let upRow = odd ? uo : ue
            let downRow = odd ? dO : de
            let upSide = odd ? ue : uo
            let downSide = odd ? de : dO
            let shift = odd ? 1 : 0
            let left = sideRow + shift - 1
            let upLeft = upSide + shift - 1
            let downLeft = downSide + shift - 1
            let right = sideRow + shift
            let upRight = upSide + shift
            let downRight = downSide + shift
            for j in 0..<n {
                let centre = centreRow[j]
                let horizontal = left[j] + right[j]
                let vertical = upRow[j] + downRow[j]
                let diagonal = (upLeft[j] + upRight[j]) + (downLeft[j] + downRight[j])
                let lr = Self.dot(a0, a1, a2, a3, centre, horizontal, vertical, diagonal)
                let lg = Self.dot(a4, a5, a6, a7, centre, horizontal, vertical, diagonal)
                let lb = Self.dot(a8, a9, a10, a11, centre, horizontal, vertical, diagonal)
                r[j] = lr
                g[j] = lg
                bl[j] = lb
            }
            if nearClip {
                let columns = Self.columns(rows, odd: odd)
                for j in 0..<columns {
                    let peak = Self.neighbourhoodPeak(rows.columnPeak, column: 2 * j + parity, width: rows.width)
                    (r[j], g[j], bl[j]) = Self.desaturated(r[j], g[j], bl[j], rawPeak: peak)
                }
            }
        }
        // The six linear rows (three channels, even and odd columns) lie back to back. Only a row with a value
        // in the roll-off's range pays for its division; the row's maximum is taken on bit patterns, which
        // order as integers for non-negative floats (negative ones stay below 0), so it vectorises.
        let values = rows.encoded(row: k, channel: 0, odd: false)
        let count = 6 * n
        var top: Int32 = 0
        for i in 0..<count { top = max(top, Int32(bitPattern: values[i].bitPattern)) }
        if top >= Int32(bitPattern: Self.rollOffStart.bitPattern) {
            for i in 0..<count { values[i] = curve.encode(Self.rollOff(values[i])) }
        } else {
            for i in 0..<count { values[i] = curve.encode(values[i] > 0 ? values[i] : 0) }
        }
    }

    /// w0·x0 + w1·x1 + w2·x2 + w3·x3 as multiply-adds.
    @inline(__always)
    static func dot(
        _ w0: Float, _ w1: Float, _ w2: Float, _ w3: Float, _ x0: Float, _ x1: Float, _ x2: Float, _ x3: Float
    ) -> Float {
        Relaxed.multiplyAdd(w3, x3, Relaxed.multiplyAdd(w2, x2, Relaxed.multiplyAdd(w1, x1, w0 * x0)))
    }

    /// The largest of `columnPeak` over columns `column − 2 … column + 2` (clamped to the frame).
    @inline(__always)
    static func neighbourhoodPeak(_ columnPeak: UnsafePointer<Float>, column c: Int, width w: Int) -> Float {
        var peak: Float = 0
        for k in max(c - 2, 0)...min(c + 2, w - 1) { peak = max(peak, columnPeak[k]) }
        return peak
    }

    /// Fills `rows.columnPeak` with each column's largest value over the five raw slots `window`.
    func columnPeaks(_ window: (Int, Int, Int, Int, Int), rows: Rows) {
        let w = rows.width
        for c in 0..<w { rows.columnPeak[c] = 0 }
        for slot in [window.0, window.1, window.2, window.3, window.4] {
            let even = rows.raw(slot, odd: false)
            let odd = rows.raw(slot, odd: true)
            for c in 0..<w {
                let v = c & 1 == 0 ? even[c >> 1] : odd[c >> 1]
                rows.columnPeak[c] = max(rows.columnPeak[c], v)
            }
        }
    }

    /// The raw level (0…1 of the sensor's range) above which colour starts to fade to neutral.
    static let desaturationStart: Float = 0.9
    /// The raw level at and above which a pixel is neutral.
    static let desaturationEnd: Float = 0.98

    /// Linear output RGB faded towards neutral by how close the brightest raw value around the pixel (5 × 5
    /// photosites, wider than the demosaic's reach so the colour fringes of a blown edge fade too) comes to the
    /// sensor's clip.
    ///
    /// A clipped channel has lost its value, so the colour the white balance and matrix make of it is wrong (a
    /// clipped white turns magenta where green, the least-gained channel, clips first). As a camera does, the
    /// colour fades to a neutral at the brightest channel's level between ``desaturationStart`` and
    /// ``desaturationEnd``: a blown highlight is white at any white balance, and the fade keeps the transition
    /// smooth.
    @inline(__always)
    static func desaturated(_ r: Float, _ g: Float, _ b: Float, rawPeak: Float) -> (Float, Float, Float) {
        let ramp = (rawPeak - desaturationStart) * (1 / (desaturationEnd - desaturationStart))
        let t = ramp > 0 ? (ramp < 1 ? ramp : 1) : 0
        let n = max(r, max(g, b))
        return (r + t * (n - r), g + t * (n - g), b + t * (n - b))
    }

    /// Where the highlight roll-off starts.
    static let rollOffStart: Float = 0.6

    /// Highlight roll-off after clipping negatives: linear below 0.6, then compresses to reach 1 at 3.
    @inline(__always)
    static func rollOff(_ v: Float) -> Float {
        let lin = v > 0 ? v : 0
        let knee = 0.6 + 0.4 * (1 - 1 / (1 + (lin - 0.6) * 1.4)) * 1.4
        let compressed = knee < 1 ? knee : 1
        return lin < rollOffStart ? lin : compressed
    }

    /// Develops `raw` into `out` (same size, a supported format).
    func develop(_ raw: PixelBuffer, into out: PixelBuffer, threads: Int) {
        let w = raw.width
        let h = raw.height
        let format = out.format
        let luma = out.unsafeSharedMutablePlane(0)
        let chroma = format.isYCbCr ? out.unsafeSharedMutablePlane(1) : luma
        let (kr, kb) = YCbCrMatrix.bt709.coefficients
        let video = format.isVideoRange
        let pairs = (h + 1) / 2
        raw.withUnsafePlane { plane in
            Parallel.forEachBand(pairs, threads: threads, minimumBand: 4) { band in
                let rows = Rows(width: w)
                defer { rows.deallocate() }
                for pair in band {
                    let y0 = 2 * pair
                    let count = min(2, h - y0)
                    for k in 0..<count { developRow(y0 + k, raw: plane, height: h, rows: rows, slot: k) }
                    switch format {
                    case .bgra8, .rgba8:
                        for k in 0..<count {
                            Self.writeRGBA(
                                rows, row: k, bgr: format == .bgra8,
                                into: luma.row(y0 + k).assumingMemoryBound(to: UInt32.self))
                        }
                    case .yCbCr420VideoRange, .yCbCr420FullRange:
                        for k in 0..<count {
                            Self.writeLuma(
                                rows, row: k, kr: kr, kb: kb, video: video,
                                into: luma.row(y0 + k).assumingMemoryBound(to: UInt8.self))
                        }
                        Self.writeChroma420(
                            rows, rows: count, kr: kr, kb: kb, video: video,
                            into: chroma.row(pair).assumingMemoryBound(to: UInt8.self))
                    default:  // 4:4:4
                        for k in 0..<count {
                            Self.writeLuma(
                                rows, row: k, kr: kr, kb: kb, video: video,
                                into: luma.row(y0 + k).assumingMemoryBound(to: UInt8.self))
                            Self.writeChroma444(
                                rows, row: k, kr: kr, kb: kb, video: video,
                                into: chroma.row(y0 + k).assumingMemoryBound(to: UInt8.self))
                        }
                    }
                }
            }
        }
        withExtendedLifetime(out) {}
    }

    /// round(clamp(v, 0, 1) · 255) without a trapping conversion (compare-and-select clamp, so it vectorises).
    @inline(__always)
    static func code(_ v: Float) -> UInt8 {
        let a = v > 0 ? v : 0
        let x = (a < 1 ? a : 1) * 255
        return UInt8(truncatingIfNeeded: (x + 12_582_912).bitPattern &- 0x4B40_0000)
    }

    /// The even (`odd` false) or odd pixels of a row: pixel `2j + parity` of a row `width` long.
    @inline(__always)
    static func columns(_ rows: Rows, odd: Bool) -> Int { odd ? rows.width / 2 : rows.half }

    /// 8-bit RGBA or BGRA pixels (one `UInt32` each, bytes in memory order) of output slot `k`.
    static func writeRGBA(_ rows: Rows, row k: Int, bgr: Bool, into d: UnsafeMutablePointer<UInt32>) {
        for parity in 0..<2 {
            let odd = parity == 1
            let r = rows.encoded(row: k, channel: bgr ? 2 : 0, odd: odd)
            let g = rows.encoded(row: k, channel: 1, odd: odd)
            let b = rows.encoded(row: k, channel: bgr ? 0 : 2, odd: odd)
            let o = d + parity
            for j in 0..<columns(rows, odd: odd) {
                o[2 * j] = UInt32(code(r[j])) | UInt32(code(g[j])) << 8 | UInt32(code(b[j])) << 16 | 0xFF00_0000
            }
        }
    }

    /// Luma of output slot `k`, even and odd columns in one loop so the bytes are stored interleaved (a
    /// vector store) rather than one at a time.
    static func writeLuma(
        _ rows: Rows, row k: Int, kr: Float, kb: Float, video: Bool, into d: UnsafeMutablePointer<UInt8>
    ) {
        let scale: Float = video ? 219 / 255 : 1
        let offset: Float = video ? 16 / 255 : 0
        let wr = kr * scale
        let wg = (1 - kr - kb) * scale
        let wb = kb * scale
        let re = rows.encoded(row: k, channel: 0, odd: false)
        let ge = rows.encoded(row: k, channel: 1, odd: false)
        let be = rows.encoded(row: k, channel: 2, odd: false)
        let ro = rows.encoded(row: k, channel: 0, odd: true)
        let go = rows.encoded(row: k, channel: 1, odd: true)
        let bo = rows.encoded(row: k, channel: 2, odd: true)
        let pairs = rows.width / 2
        for j in 0..<pairs {
            d[2 * j] = code(wr * re[j] + wg * ge[j] + wb * be[j] + offset)
            d[2 * j + 1] = code(wr * ro[j] + wg * go[j] + wb * bo[j] + offset)
        }
        if rows.width & 1 == 1 { d[2 * pairs] = code(wr * re[pairs] + wg * ge[pairs] + wb * be[pairs] + offset) }
    }

    /// Cb, Cr of an encoded R′G′B′ triple (each −½…½).
    @inline(__always)
    static func chroma(_ r: Float, _ g: Float, _ b: Float, kr: Float, kb: Float) -> (Float, Float) {
        let y = kr * r + (1 - kr - kb) * g + kb * b
        return ((b - y) / (2 * (1 - kb)), (r - y) / (2 * (1 - kr)))
    }

    static func writeChroma444(
        _ rows: Rows, row k: Int, kr: Float, kb: Float, video: Bool, into d: UnsafeMutablePointer<UInt8>
    ) {
        let scale: Float = video ? 224 / 255 : 1
        for parity in 0..<2 {
            let odd = parity == 1
            let r = rows.encoded(row: k, channel: 0, odd: odd)
            let g = rows.encoded(row: k, channel: 1, odd: odd)
            let b = rows.encoded(row: k, channel: 2, odd: odd)
            let o = d + 2 * parity
            for j in 0..<columns(rows, odd: odd) {
                let (cb, cr) = chroma(r[j], g[j], b[j], kr: kr, kb: kb)
                o[4 * j] = code(cb * scale + 128 / 255)
                o[4 * j + 1] = code(cr * scale + 128 / 255)
            }
        }
    }

    /// 4:2:0 chroma from the average R′G′B′ of each 2×2 block of the `count` (1 or 2) output slots; a last
    /// odd column averages its single column.
    static func writeChroma420(
        _ rows: Rows, rows count: Int, kr: Float, kb: Float, video: Bool, into d: UnsafeMutablePointer<UInt8>
    ) {
        let scale: Float = video ? 224 / 255 : 1
        let bottom = count - 1
        func channel(_ c: Int) -> (
            UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>
        ) {
            (
                UnsafePointer(rows.encoded(row: 0, channel: c, odd: false)),
                UnsafePointer(rows.encoded(row: 0, channel: c, odd: true)),
                UnsafePointer(rows.encoded(row: bottom, channel: c, odd: false)),
                UnsafePointer(rows.encoded(row: bottom, channel: c, odd: true))
            )
        }
        let (r0, r1, r2, r3) = channel(0)
        let (g0, g1, g2, g3) = channel(1)
        let (b0, b1, b2, b3) = channel(2)
        let pairs = rows.width / 2
        for j in 0..<pairs {
            let r = 0.25 * (r0[j] + r1[j] + r2[j] + r3[j])
            let g = 0.25 * (g0[j] + g1[j] + g2[j] + g3[j])
            let b = 0.25 * (b0[j] + b1[j] + b2[j] + b3[j])
            let (cb, cr) = chroma(r, g, b, kr: kr, kb: kb)
            d[2 * j] = code(cb * scale + 128 / 255)
            d[2 * j + 1] = code(cr * scale + 128 / 255)
        }
        if rows.width & 1 == 1 {
            let j = pairs
            let (cb, cr) = chroma(0.5 * (r0[j] + r2[j]), 0.5 * (g0[j] + g2[j]), 0.5 * (b0[j] + b2[j]), kr: kr, kb: kb)
            d[2 * j] = code(cb * scale + 128 / 255)
            d[2 * j + 1] = code(cr * scale + 128 / 255)
        }
    }
}
