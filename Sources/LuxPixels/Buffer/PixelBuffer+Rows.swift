internal import CLuxKernels
internal import LuxColor

// Reading and writing rows as normalised RGBA Float: the hub every format conversion goes through.
//
// Normalisation: integer codes divide by their full-scale code (255, 65535, 16383 for Bayer14); Y′CbCr
// becomes R′G′B′ through the chosen matrix; gray and Bayer values are replicated into R, G and B with alpha 1.
// Writing RGBA to a Bayer format samples the channel the CFA has at each site (mosaicking); writing RGB
// to gray uses BT.709 luma weights.

extension PixelBuffer {
    /// Reads row `y` as `width` normalised RGBA Float pixels into `out`.
    package func readRGBAFloat(row y: Int, into out: UnsafeMutablePointer<Float>, matrix: YCbCrMatrix = .bt709) {
        let w = width
        withUnsafePlane(0) { plane in
            switch format {
            case .rgba8:
                let s = plane.row(y, as: UInt8.self)
                for i in 0..<(4 * w) { out[i] = Float(s[i]) * (1 / 255) }
            case .bgra8:
                let s = plane.row(y, as: UInt8.self)
                for i in 0..<w {
                    out[4 * i] = Float(s[4 * i + 2]) * (1 / 255)
                    out[4 * i + 1] = Float(s[4 * i + 1]) * (1 / 255)
                    out[4 * i + 2] = Float(s[4 * i]) * (1 / 255)
                    out[4 * i + 3] = Float(s[4 * i + 3]) * (1 / 255)
                }
            case .rgba16:
                let s = plane.row(y, as: UInt16.self)
                for i in 0..<(4 * w) { out[i] = Float(s[i]) * (1 / 65535) }
            case .rgbaHalf:
                lux_half_to_float(plane.row(y, as: UInt16.self), out, 4 * w)
            case .rgbaFloat:
                lux_copy_bytes(out, plane.row(y, as: Float.self), 16 * w)  // not update(from:): see lux_copy_bytes
            case .gray8:
                let s = plane.row(y, as: UInt8.self)
                for i in 0..<w { Self.put(out, i, Float(s[i]) * (1 / 255)) }
            case .gray16, .bayer16, .xTrans16:
                let s = plane.row(y, as: UInt16.self)
                for i in 0..<w { Self.put(out, i, Float(s[i]) * (1 / 65535)) }
            case .bayer14:
                let s = plane.row(y, as: UInt16.self)
                for i in 0..<w { Self.put(out, i, Float(s[i]) * (1 / 16383)) }
            case .grayFloat:
                let s = plane.row(y, as: Float.self)
                for i in 0..<w { Self.put(out, i, s[i]) }
            case .rgb10WideGamutPacked:
                let s = plane.row(y, as: UInt32.self)
                for i in 0..<w {
                    let v = UInt32(littleEndian: s[i])
                    out[4 * i] = (Float((v >> 20) & 0x3FF) - 192) * (1 / 512)
                    out[4 * i + 1] = (Float((v >> 10) & 0x3FF) - 192) * (1 / 512)
                    out[4 * i + 2] = (Float(v & 0x3FF) - 192) * (1 / 512)
                    out[4 * i + 3] = 1
                }
            case .yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange, .yCbCr444FullRange:
                readYCbCr(row: y, luma: plane, into: out, matrix: matrix)
            }
        }
    }

    @inline(__always)
    static func put(_ out: UnsafeMutablePointer<Float>, _ i: Int, _ v: Float) {
        out[4 * i] = v
        out[4 * i + 1] = v
        out[4 * i + 2] = v
        out[4 * i + 3] = 1
    }

    private func readYCbCr(row y: Int, luma: RawPlane, into out: UnsafeMutablePointer<Float>, matrix: YCbCrMatrix) {
        let (sx, sy) = format.subsampling(plane: 1)
        let (kr, kb) = matrix.coefficients
        let kg = 1 - kr - kb
        let video = format.isVideoRange
        let yScale: Float = video ? 1 / 219 : 1 / 255
        let yOffset: Float = video ? 16 : 0
        let cScale: Float = video ? 1 / 224 : 1 / 255
        let crToR = 2 * (1 - kr)
        let cbToB = 2 * (1 - kb)
        let ly = luma.row(y, as: UInt8.self)
        withUnsafePlane(1) { chroma in
            let c = chroma.row(y / sy, as: UInt8.self)
            for i in 0..<width {
                let j = i / sx
                let yy = (Float(ly[i]) - yOffset) * yScale
                let cb = (Float(c[2 * j]) - 128) * cScale
                let cr = (Float(c[2 * j + 1]) - 128) * cScale
                let r = yy + crToR * cr
                let b = yy + cbToB * cb
                out[4 * i] = r
                out[4 * i + 1] = (yy - kr * r - kb * b) / kg
                out[4 * i + 2] = b
                out[4 * i + 3] = 1
            }
        }
    }

    /// Writes `width` normalised RGBA Float pixels from `src` into row `y` of a single-plane format, clamping and
    /// rounding to the format's codes.
    ///
    /// Y′CbCr formats are written whole by ``converted(to:matrix:)``, which needs pairs of rows.
    package func writeRGBAFloat(row y: Int, from src: UnsafePointer<Float>) {
        precondition(!format.isYCbCr, "Y′CbCr rows are written in pairs by converted(to:)")
        let w = width
        let plane = unsafeSharedMutablePlane(0)
        withExtendedLifetime(storage) {
            switch format {
            case .rgba8:
                let d = plane.row(y, as: UInt8.self)
                for i in 0..<(4 * w) { d[i] = UInt8(truncatingIfNeeded: nearestIndex255(src[i])) }
            case .bgra8:
                let d = plane.row(y, as: UInt8.self)
                for i in 0..<w {
                    d[4 * i] = UInt8(truncatingIfNeeded: nearestIndex255(src[4 * i + 2]))
                    d[4 * i + 1] = UInt8(truncatingIfNeeded: nearestIndex255(src[4 * i + 1]))
                    d[4 * i + 2] = UInt8(truncatingIfNeeded: nearestIndex255(src[4 * i]))
                    d[4 * i + 3] = UInt8(truncatingIfNeeded: nearestIndex255(src[4 * i + 3]))
                }
            case .rgba16:
                let d = plane.row(y, as: UInt16.self)
                for i in 0..<(4 * w) { d[i] = UInt16(truncatingIfNeeded: nearestCode(src[i], 65535)) }
            case .rgbaHalf:
                lux_float_to_half(src, plane.row(y, as: UInt16.self), 4 * w)
            case .rgbaFloat:
                lux_copy_bytes(plane.row(y, as: Float.self), src, 16 * w)  // not update(from:): see lux_copy_bytes
            case .gray8:
                let d = plane.row(y, as: UInt8.self)
                for i in 0..<w { d[i] = UInt8(truncatingIfNeeded: nearestIndex255(Self.luma(src, i))) }
            case .gray16:
                let d = plane.row(y, as: UInt16.self)
                for i in 0..<w { d[i] = UInt16(truncatingIfNeeded: nearestCode(Self.luma(src, i), 65535)) }
            case .grayFloat:
                let d = plane.row(y, as: Float.self)
                for i in 0..<w { d[i] = Self.luma(src, i) }
            case .bayer14(let p), .bayer16(let p):
                let full: Float = format.codeRange?.upperBound == 16383 ? 16383 : 65535
                let d = plane.row(y, as: UInt16.self)
                let quad = p.quadChannels
                let c0 = quad[(y & 1) * 2].rawValue
                let c1 = quad[(y & 1) * 2 + 1].rawValue
                for i in 0..<w {
                    let c = (i & 1) == 0 ? c0 : c1
                    d[i] = UInt16(truncatingIfNeeded: nearestCode(src[4 * i + c], full))
                }
            case .xTrans16(let p):
                let d = plane.row(y, as: UInt16.self)
                let colors = (0..<6).map { p.channel(x: $0, y: y).rawValue }
                for i in 0..<w { d[i] = UInt16(truncatingIfNeeded: nearestCode(src[4 * i + colors[i % 6]], 65535)) }
            case .rgb10WideGamutPacked:
                let d = plane.row(y, as: UInt32.self)
                for i in 0..<w {
                    let r = UInt32(min(max(roundedToNearestInt(src[4 * i] * 512 + 192), 0), 1023))
                    let g = UInt32(min(max(roundedToNearestInt(src[4 * i + 1] * 512 + 192), 0), 1023))
                    let b = UInt32(min(max(roundedToNearestInt(src[4 * i + 2] * 512 + 192), 0), 1023))
                    d[i] = (r << 20 | g << 10 | b).littleEndian
                }
            case .yCbCr420VideoRange, .yCbCr420FullRange, .yCbCr444VideoRange, .yCbCr444FullRange:
                break
            }
        }
    }

    @inline(__always)
    static func luma(_ p: UnsafePointer<Float>, _ i: Int) -> Float {
        0.2126 * p[4 * i] + 0.7152 * p[4 * i + 1] + 0.0722 * p[4 * i + 2]
    }
}

/// round(clamp(v, 0, 1) · 255) without trapping conversions.
@inline(__always)
func nearestIndex255(_ v: Float) -> Int { nearestCode(v, 255) }

/// round(clamp(v, 0, 1) · full) without trapping conversions (`full` < 2^22).
@inline(__always)
func nearestCode(_ v: Float, _ full: Float) -> Int {
    let x = clampUnit(v) * full
    return Int((x + 12_582_912).bitPattern &- 0x4B40_0000)
}

/// Rounds to the nearest integer for |v| < 2^22 (NaN becomes 0).
@inline(__always)
func roundedToNearestInt(_ v: Float) -> Int {
    let x = min(max(v, -4_000_000), 4_000_000)
    let r = (x + 12_582_912) - 12_582_912
    return x.isNaN ? 0 : Int(r)
}
