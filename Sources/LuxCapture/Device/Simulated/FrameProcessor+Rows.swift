import CLuxKernels
import LuxColor
import LuxPixels

/// The processor's fused row kernel for 8-bit outputs: demosaic, white balance and colour matrix, desaturation of
/// clipped highlights, highlight roll-off,
/// transfer function and the output format's encoding in one pass over each row (pair), with no full-frame intermediate
/// image.
///
/// Each output row depends only on three raw rows, so any split across threads gives identical bytes. The row loops
/// are CLuxKernels' `lux_capture_*` kernels (AVX2 where the CPU has it); the kernel tests hold their Swift reference.
struct FusedDevelopment {
    /// Per CFA row phase and column parity: linear RGB = A · (centre, left + right, up + down, sum of the four
    /// diagonals), the bilinear demosaic's channel selection and averaging and the colour matrix folded into
    /// one 3×4 matrix.
    let weights: [[Float]]  // [phase * 2 + parity] → 12 weights, row-major
    let black: Float
    let scale: Float
    /// The output's transfer function (encoding), evaluated inside the row loop.
    let encoding: lux_unit_encoding

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
        encoding = UnitEncodingPolynomial(transferFunction).kernelParameters
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
        /// The largest value of each slot's row (0 when all are below 0).
        let slotPeaks: UnsafeMutablePointer<Float>
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
            slotPeaks = .allocate(capacity: 8)
            slotPeaks.initialize(repeating: 0, count: 8)
            columnPeak = .allocate(capacity: width)
            encoded = .allocate(capacity: 12 * half)
        }

        func deallocate() {
            raw.deallocate()
            slotRows.deallocate()
            slotPeaks.deallocate()
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
    /// and odd columns, with the mirrored neighbours of the first and last column in the padding, and its peak.
    func loadRaw(_ y: Int, raw plane: RawPlane, height h: Int, rows: Rows, slot k: Int) {
        let w = rows.width
        let half = rows.half
        let r = y < 0 ? -y : (y >= h ? 2 * h - 2 - y : y)
        let src = plane.row(min(max(r, 0), h - 1), as: UInt16.self)
        let even = rows.raw(k, odd: false)
        let odd = rows.raw(k, odd: true)
        rows.slotPeaks[k] = lux_capture_load(src, w, black, scale, even, odd)
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
        // Only rows whose raw neighbourhood (five rows) comes near the clip pay for the desaturation.
        let window = (
            rawSlot(y - 2, raw: plane, height: h, rows: rows), above, current, below,
            rawSlot(y + 2, raw: plane, height: h, rows: rows)
        )
        let peaks = rows.slotPeaks
        let rawTop = max(peaks[window.0], peaks[window.1], peaks[window.2], peaks[window.3], peaks[window.4])
        let nearClip = rawTop > Self.desaturationStart
        if nearClip { columnPeaks(window, rows: rows) }
        for parity in 0..<2 {
            let odd = parity == 1
            let r = rows.encoded(row: k, channel: 0, odd: odd)
            let g = rows.encoded(row: k, channel: 1, odd: odd)
            let bl = rows.encoded(row: k, channel: 2, odd: odd)
            // Even column 2j: centre me[j], left mo[j − 1], right mo[j], diagonals uo/do[j − 1], [j].
            // Odd column 2j + 1: centre mo[j], left me[j], right me[j + 1], diagonals ue/de[j], [j + 1].
            let sideRow = odd ? me : mo
            let upSide = odd ? ue : uo
            let downSide = odd ? de : dO
            let shift = odd ? 1 : 0
            var neighbours = lux_capture_neighbours(
                centre: odd ? mo : me, left: sideRow + shift - 1, right: sideRow + shift, up: odd ? uo : ue,
                down: odd ? dO : de, up_left: upSide + shift - 1, up_right: upSide + shift,
                down_left: downSide + shift - 1, down_right: downSide + shift)
            weights[(y & 1) * 2 + parity].withUnsafeBufferPointer { a in
                lux_capture_demosaic(&neighbours, a.baseAddress, r, g, bl, n)
            }
            if nearClip {
                let columns = Self.columns(rows, odd: odd)
                for j in 0..<columns {
                    let peak = Self.neighbourhoodPeak(rows.columnPeak, column: 2 * j + parity, width: rows.width)
                    (r[j], g[j], bl[j]) = Self.desaturated(r[j], g[j], bl[j], rawPeak: peak)
                }
            }
        }
        // The six linear rows (three channels, even and odd columns) lie back to back: the highlight roll-off and
        // the encoding in one pass.
        var curve = encoding
        lux_capture_encode(rows.encoded(row: k, channel: 0, odd: false), &curve, 6 * n)
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
