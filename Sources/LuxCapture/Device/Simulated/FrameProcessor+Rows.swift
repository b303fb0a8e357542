import LuxColor
import LuxPixels

/// The processor's fused row kernel for 8-bit outputs: demosaic, white balance and colour matrix, highlight
/// roll-off, transfer function and the output format's encoding in one pass over each row (pair), with no
/// full-frame intermediate image. Each output row depends only on three raw rows, so any split across
/// threads gives identical bytes.
struct FusedDevelopment {
    /// Per CFA row phase and column parity: linear RGB = A · (centre, cross, diagonal, horizontal, vertical),
    /// the demosaic's channel selection and the colour matrix folded into one 3×5 matrix.
    let weights: [[Float]]  // [phase * 2 + parity] → 15 weights, row-major
    let black: Float
    let scale: Float
    let encode: TransferTable

    /// Whether `format` has a fused path.
    static func supports(_ format: PixelFormat) -> Bool {
        switch format {
        case .yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange, .yCbCr444FullRange, .bgra8, .rgba8: true
        default: false
        }
    }

    init(matrix m: [Float], pattern: CFAPattern, black: Float, white: Float) {
        let quad = pattern.quadChannels.map(\.rawValue)
        var weights: [[Float]] = []
        for phase in 0..<2 {
            for parity in 0..<2 {
                let site = quad[phase * 2 + parity], neighbour = quad[phase * 2 + 1 - parity]
                // Which of (centre, cross, diagonal, horizontal, vertical) is R, G, B at this site.
                let pick: (Int, Int, Int)
                switch site {
                case 0: pick = (0, 1, 2)
                case 2: pick = (2, 1, 0)
                default: pick = neighbour == 0 ? (3, 0, 4) : (4, 0, 3)
                }
                var a = [Float](repeating: 0, count: 15)
                for k in 0..<3 {
                    a[k * 5 + pick.0] += m[3 * k]
                    a[k * 5 + pick.1] += m[3 * k + 1]
                    a[k * 5 + pick.2] += m[3 * k + 2]
                }
                weights.append(a)
            }
        }
        self.weights = weights
        self.black = black
        self.scale = 1 / (white - black)
        self.encode = TransferTable.sRGB
    }

    /// Scratch for one worker.
    struct Rows {
        let width: Int
        /// Three padded raw rows as floats (−1 … width), the encoded R′, G′, B′ of two output rows.
        let raw: UnsafeMutablePointer<Float>
        let encoded: UnsafeMutablePointer<Float>

        init(width: Int) {
            self.width = width
            raw = .allocate(capacity: 3 * (width + 2))
            encoded = .allocate(capacity: 6 * width)
        }

        func deallocate() {
            raw.deallocate()
            encoded.deallocate()
        }
    }

    /// Encoded R′G′B′ (planes `width` apart) of output row `y` into `out`.
    func developRow(_ y: Int, raw plane: RawPlane, height h: Int, rows: Rows, into out: UnsafeMutablePointer<Float>) {
        let w = rows.width, pw = w + 2
        for (k, yy) in [y - 1, y, y + 1].enumerated() {
            let r = yy < 0 ? -yy : (yy >= h ? 2 * h - 2 - yy : yy)
            let src = plane.row(min(max(r, 0), h - 1), as: UInt16.self)
            let dst = rows.raw + k * pw + 1
            let b = black, s = scale
            for x in 0..<w { dst[x] = (Float(src[x]) - b) * s }
            // Mirror at the edges, as the old per-pixel lookup did.
            dst[-1] = w > 1 ? dst[1] : dst[0]
            dst[w] = w > 1 ? dst[w - 2] : dst[w - 1]
        }
        let up = rows.raw + 1, mid = rows.raw + pw + 1, dn = rows.raw + 2 * pw + 1
        let e = weights[(y & 1) * 2], o = weights[(y & 1) * 2 + 1]
        let r = out, g = out + w, bl = out + 2 * w
        // Loop-invariant weights in locals: even and odd columns.
        let e0 = e[0], e1 = e[1], e2 = e[2], e3 = e[3], e4 = e[4], e5 = e[5], e6 = e[6], e7 = e[7]
        let e8 = e[8], e9 = e[9], e10 = e[10], e11 = e[11], e12 = e[12], e13 = e[13], e14 = e[14]
        let o0 = o[0], o1 = o[1], o2 = o[2], o3 = o[3], o4 = o[4], o5 = o[5], o6 = o[6], o7 = o[7]
        let o8 = o[8], o9 = o[9], o10 = o[10], o11 = o[11], o12 = o[12], o13 = o[13], o14 = o[14]
        for x in 0..<w {
            let centre = mid[x]
            let horiz = 0.5 * (mid[x - 1] + mid[x + 1]), vert = 0.5 * (up[x] + dn[x])
            let cross = 0.5 * (horiz + vert)
            let diag = 0.25 * (up[x - 1] + up[x + 1] + dn[x - 1] + dn[x + 1])
            let even = (x & 1) == 0
            let lr = (even ? e0 : o0) * centre + (even ? e1 : o1) * cross + (even ? e2 : o2) * diag + (even ? e3 : o3) * horiz + (even ? e4 : o4) * vert
            let lg = (even ? e5 : o5) * centre + (even ? e6 : o6) * cross + (even ? e7 : o7) * diag + (even ? e8 : o8) * horiz + (even ? e9 : o9) * vert
            let lb = (even ? e10 : o10) * centre + (even ? e11 : o11) * cross + (even ? e12 : o12) * diag + (even ? e13 : o13) * horiz + (even ? e14 : o14) * vert
            r[x] = Self.rollOff(max(0, lr))
            g[x] = Self.rollOff(max(0, lg))
            bl[x] = Self.rollOff(max(0, lb))
        }
        encode.apply(out, count: 3 * w)
    }

    /// Highlight roll-off: linear below 0.6, then compresses to reach 1 at 3.
    @inline(__always)
    static func rollOff(_ lin: Float) -> Float {
        lin < 0.6 ? lin : min(1, 0.6 + 0.4 * (1 - 1 / (1 + (lin - 0.6) * 1.4)) * 1.4)
    }

    /// Develops `raw` into `out` (same size, a supported format).
    func develop(_ raw: PixelBuffer, into out: PixelBuffer, threads: Int) {
        let w = raw.width, h = raw.height
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
                    let y0 = 2 * pair, count = min(2, h - y0)
                    for k in 0..<count { developRow(y0 + k, raw: plane, height: h, rows: rows, into: rows.encoded + 3 * k * w) }
                    switch format {
                    case .bgra8, .rgba8:
                        for k in 0..<count {
                            Self.writeRGBA(rows.encoded + 3 * k * w, width: w, bgr: format == .bgra8, into: luma.row(y0 + k).assumingMemoryBound(to: UInt8.self))
                        }
                    case .yCbCr420VideoRange, .yCbCr420FullRange:
                        for k in 0..<count {
                            Self.writeLuma(rows.encoded + 3 * k * w, width: w, kr: kr, kb: kb, video: video, into: luma.row(y0 + k).assumingMemoryBound(to: UInt8.self))
                        }
                        Self.writeChroma420(
                            rows.encoded, rows.encoded + 3 * (count - 1) * w, width: w, kr: kr, kb: kb, video: video,
                            into: chroma.row(pair).assumingMemoryBound(to: UInt8.self))
                    default:  // 4:4:4
                        for k in 0..<count {
                            let src = rows.encoded + 3 * k * w
                            Self.writeLuma(src, width: w, kr: kr, kb: kb, video: video, into: luma.row(y0 + k).assumingMemoryBound(to: UInt8.self))
                            Self.writeChroma444(src, width: w, kr: kr, kb: kb, video: video, into: chroma.row(y0 + k).assumingMemoryBound(to: UInt8.self))
                        }
                    }
                }
            }
        }
        withExtendedLifetime(out) {}
    }

    /// round(clamp(v, 0, 1) · 255) without a trapping conversion.
    @inline(__always)
    static func code(_ v: Float) -> UInt8 {
        let x = min(max(v, 0), 1) * 255
        return UInt8(truncatingIfNeeded: (x + 12_582_912).bitPattern &- 0x4B40_0000)
    }

    static func writeRGBA(_ src: UnsafePointer<Float>, width w: Int, bgr: Bool, into d: UnsafeMutablePointer<UInt8>) {
        let r = bgr ? src + 2 * w : src, g = src + w, b = bgr ? src : src + 2 * w
        for x in 0..<w {
            d[4 * x] = code(r[x])
            d[4 * x + 1] = code(g[x])
            d[4 * x + 2] = code(b[x])
            d[4 * x + 3] = 255
        }
    }

    static func writeLuma(_ src: UnsafePointer<Float>, width w: Int, kr: Float, kb: Float, video: Bool, into d: UnsafeMutablePointer<UInt8>) {
        let kg = 1 - kr - kb
        let scale: Float = video ? 219 / 255 : 1, offset: Float = video ? 16 / 255 : 0
        let r = src, g = src + w, b = src + 2 * w
        for x in 0..<w { d[x] = code((kr * r[x] + kg * g[x] + kb * b[x]) * scale + offset) }
    }

    /// Cb, Cr of an encoded R′G′B′ triple (each −½…½).
    @inline(__always)
    static func chroma(_ r: Float, _ g: Float, _ b: Float, kr: Float, kb: Float) -> (Float, Float) {
        let y = kr * r + (1 - kr - kb) * g + kb * b
        return ((b - y) / (2 * (1 - kb)), (r - y) / (2 * (1 - kr)))
    }

    static func writeChroma444(_ src: UnsafePointer<Float>, width w: Int, kr: Float, kb: Float, video: Bool, into d: UnsafeMutablePointer<UInt8>) {
        let scale: Float = video ? 224 / 255 : 1
        let r = src, g = src + w, b = src + 2 * w
        for x in 0..<w {
            let (cb, cr) = chroma(r[x], g[x], b[x], kr: kr, kb: kb)
            d[2 * x] = code(cb * scale + 128 / 255)
            d[2 * x + 1] = code(cr * scale + 128 / 255)
        }
    }

    /// 4:2:0 chroma from the average R′G′B′ of each 2×2 block of rows `top` and `bottom`.
    static func writeChroma420(
        _ top: UnsafePointer<Float>, _ bottom: UnsafePointer<Float>, width w: Int, kr: Float, kb: Float, video: Bool,
        into d: UnsafeMutablePointer<UInt8>
    ) {
        let scale: Float = video ? 224 / 255 : 1
        let sameRow = top == bottom
        for j in 0..<((w + 1) / 2) {
            let x0 = 2 * j, x1 = min(2 * j + 1, w - 1)
            let n: Float = (x1 == x0 ? 1 : 2) * (sameRow ? 1 : 2)
            var rgb = SIMD3<Float>.zero
            for c in 0..<3 {
                let t = top + c * w, b = bottom + c * w
                var s = t[x0] + (x1 != x0 ? t[x1] : 0)
                if !sameRow { s += b[x0] + (x1 != x0 ? b[x1] : 0) }
                rgb[c] = s / n
            }
            let (cb, cr) = chroma(rgb.x, rgb.y, rgb.z, kr: kr, kb: kb)
            d[2 * j] = code(cb * scale + 128 / 255)
            d[2 * j + 1] = code(cr * scale + 128 / 255)
        }
    }
}

/// A transfer function (encoding) as a table over linear 0…1 with linear interpolation: 4096 intervals,
/// within 2·10⁻⁵ of the sRGB curve (a twentieth of an 8-bit code). Values are clipped to 0…1 first.
struct TransferTable: Sendable {
    let values: [Float]

    static let sRGB = TransferTable { x in
        x <= 0.003_130_8 ? 12.92 * x : 1.055 * Double.pow(x, 1 / 2.4) - 0.055
    }

    init(_ f: (Double) -> Double) {
        values = (0...4097).map { Float(f(min(1, Double($0) / 4096))) }
    }

    func apply(_ v: UnsafeMutablePointer<Float>, count: Int) {
        values.withUnsafeBufferPointer { t in
            let table = t.baseAddress!
            for i in 0..<count {
                let x = min(max(v[i], 0), 1) * 4096
                let k = Int(Int32(bitPattern: (x - 0.5 + 12_582_912).bitPattern &- 0x4B40_0000))  // ⌊x⌋ for x ≥ 0
                let j = min(max(k, 0), 4095)
                let f = x - Float(j)
                let a = table[j], b = table[j + 1]
                v[i] = a + (b - a) * f
            }
        }
    }
}

import RealModule
