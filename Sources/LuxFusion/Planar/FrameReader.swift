import CLuxKernels
import LuxPixels

/// Reads rectangles of a frame as planar linear floats, in "merge pixel" coordinates.
///
/// A Bayer frame is read as its 2×2 quads: merge pixel `(x, y)` is the quad at raw `(2x, 2y)`, and plane `s` holds
/// the quad site `s` (row by row), black-subtracted and divided by `white − black`. An RGB frame is read as three
/// planes at full resolution, values as stored.
struct FrameReader: @unchecked Sendable {
    // @unchecked: holds the frame's memory pointers only while the frame (kept in `buffer`) is alive.
    enum Kind {
        case bayer
        case rgbaFloat
        case rgbaHalf
        case rgba16
    }

    let buffer: PixelBuffer
    let kind: Kind
    let plane: RawPlane
    /// Width and height in merge pixels.
    let width: Int
    let height: Int
    /// 4 for Bayer quads, 3 for RGB.
    let channels: Int
    let black: SIMD4<Float>
    let scale: SIMD4<Float>

    /// The formats the RGB path accepts.
    static let rgbFormats: [PixelFormat] = [.rgbaFloat, .rgbaHalf, .rgba16]

    init(bayer buffer: PixelBuffer, model: RawNoiseModel) {
        self.buffer = buffer
        kind = .bayer
        plane = buffer.withUnsafePlane(0) { $0 }
        width = buffer.width / 2
        height = buffer.height / 2
        channels = 4
        var b = SIMD4<Float>()
        var s = SIMD4<Float>()
        for i in 0..<4 {
            b[i] = Float(model.blackLevels[i])
            s[i] = Float(1 / (model.whiteLevel - model.blackLevels[i]))
        }
        black = b
        scale = s
    }

    init(rgb buffer: PixelBuffer) {
        self.buffer = buffer
        switch buffer.format {
        case .rgbaHalf: kind = .rgbaHalf
        case .rgba16: kind = .rgba16
        default: kind = .rgbaFloat
        }
        plane = buffer.withUnsafePlane(0) { $0 }
        width = buffer.width
        height = buffer.height
        channels = 3
        black = .zero
        scale = SIMD4(repeating: 1)
    }

    /// Scratch floats ``read(x:y:width:height:into:stride:scratch:)`` needs for rows of `count` pixels.
    static func scratchCount(forRowOf count: Int) -> Int { 4 * count + 16 }

    /// Reads the `nx × ny` rectangle at `(x0, y0)` (coordinates outside the frame are clamped to its edge) into
    /// `channels` planes starting at `dst[c]`, rows `dstStride` floats apart.
    func read(
        x x0: Int, y y0: Int, width nx: Int, height ny: Int, into dst: UnsafeMutablePointer<Float>,
        planeStride: Int, rowStride: Int, scratch: UnsafeMutablePointer<Float>
    ) {
        let inside = x0 >= 0 && x0 + nx <= width
        let lo = min(max(x0, 0), width - 1)
        let hi = min(max(x0 + nx - 1, 0), width - 1)
        for j in 0..<ny {
            let y = min(max(y0 + j, 0), height - 1)
            let d = dst + j * rowStride
            switch kind {
            case .bayer:
                let r0 = plane.row(2 * y, as: UInt16.self)
                let r1 = plane.row(2 * y + 1, as: UInt16.self)
                let d0 = d
                let d1 = d + planeStride
                let d2 = d + 2 * planeStride
                let d3 = d + 3 * planeStride
                let b = black
                let s = scale
                if inside {
                    // (Float(sample) − b[k])·s[k] per site, whole vectors in C.
                    withUnsafeBytes(of: b) { bb in
                        withUnsafeBytes(of: s) { ss in
                            lux_bayer_quads(
                                r0 + 2 * x0, r1 + 2 * x0, bb.baseAddress!.assumingMemoryBound(to: Float.self),
                                ss.baseAddress!.assumingMemoryBound(to: Float.self), d0, d1, d2, d3, nx)
                        }
                    }
                } else {
                    for i in 0..<nx {
                        let q = min(max(x0 + i, lo), hi)
                        d0[i] = (Float(r0[2 * q]) - b[0]) * s[0]
                        d1[i] = (Float(r0[2 * q + 1]) - b[1]) * s[1]
                        d2[i] = (Float(r1[2 * q]) - b[2]) * s[2]
                        d3[i] = (Float(r1[2 * q + 1]) - b[3]) * s[3]
                    }
                }
            case .rgbaFloat, .rgbaHalf, .rgba16:
                // Read the clamped span once as RGBA floats, then deinterleave with edge replication.
                let count = hi - lo + 1
                let src: UnsafePointer<Float>
                switch kind {
                case .rgbaFloat:
                    src = plane.row(y, as: Float.self) + 4 * lo
                case .rgbaHalf:
                    lux_half_to_float(plane.row(y, as: UInt16.self) + 4 * lo, scratch, 4 * count)
                    src = UnsafePointer(scratch)
                default:
                    let s16 = plane.row(y, as: UInt16.self) + 4 * lo
                    for i in 0..<(4 * count) { scratch[i] = Float(s16[i]) * (1 / 65535) }
                    src = UnsafePointer(scratch)
                }
                let d0 = d
                let d1 = d + planeStride
                let d2 = d + 2 * planeStride
                if inside {
                    for i in 0..<nx {
                        d0[i] = src[4 * i]
                        d1[i] = src[4 * i + 1]
                        d2[i] = src[4 * i + 2]
                    }
                } else {
                    for i in 0..<nx {
                        let k = min(max(x0 + i, lo), hi) - lo
                        d0[i] = src[4 * k]
                        d1[i] = src[4 * k + 1]
                        d2[i] = src[4 * k + 2]
                    }
                }
            }
        }
    }

    /// The frame's grey image at merge resolution: the mean of the quad (Bayer) or of R, G, B, each value first
    /// multiplied by `scale` and limited to `clip` (exposure-normalised greys of brackets).
    func grey(threads: Int, scale: Float = 1, clip: Float = .infinity) -> PlanarBuffer<Float> {
        let out = PlanarBuffer<Float>(width: width, height: height)
        let reader = self
        Parallel.forEachBand(height, threads: threads, minimumBand: 16) { rows in
            let n = reader.width
            let tmp = UnsafeMutablePointer<Float>.allocate(capacity: 4 * n + FrameReader.scratchCount(forRowOf: n))
            defer { tmp.deallocate() }
            let scratch = tmp + 4 * n
            let k: Float = reader.channels == 4 ? 0.25 : 1 / 3
            for y in rows {
                reader.read(x: 0, y: y, width: n, height: 1, into: tmp, planeStride: n, rowStride: n, scratch: scratch)
                let o = out.row(0, y)
                if clip.isFinite || scale != 1 {
                    for i in 0..<(reader.channels * n) { tmp[i] = min(tmp[i] * scale, clip) }
                }
                if reader.channels == 4 {
                    for i in 0..<n { o[i] = (tmp[i] + tmp[n + i] + tmp[2 * n + i] + tmp[3 * n + i]) * k }
                } else {
                    for i in 0..<n { o[i] = (tmp[i] + tmp[n + i] + tmp[2 * n + i]) * k }
                }
            }
        }
        return out
    }
}
