import LuxPixels

/// Reduced grey images of video frames for motion analysis.
enum LumaReader {
    /// The luma of `frame` averaged over `factor × factor` blocks (Rec. 709 weights on RGB; Y′ for Y′CbCr).
    static func grey(_ frame: PixelBuffer, factor: Int, threads: Int) -> PlanarImage {
        let w = max(1, frame.width / factor), h = max(1, frame.height / factor)
        let out = PlanarImage(width: w, height: h)
        let scale = 1 / Float(factor * factor)
        Parallel.forEachBand(h, threads: threads, minimumBand: 4) { rows in
            let row = UnsafeMutablePointer<Float>.allocate(capacity: 4 * frame.width + 16)
            let luma = UnsafeMutablePointer<Float>.allocate(capacity: frame.width + 16)
            defer {
                row.deallocate()
                luma.deallocate()
            }
            for y in rows {
                let o = out.row(0, y)
                for x in 0..<w { o[x] = 0 }
                for j in 0..<factor {
                    let sy = min(y * factor + j, frame.height - 1)
                    if frame.format.isYCbCr {
                        frame.withUnsafePlane(0) { plane in
                            let p = plane.row(sy, as: UInt8.self)
                            let video = frame.format.isVideoRange
                            for x in 0..<frame.width {
                                luma[x] = video ? (Float(p[x]) - 16) * (1 / 219) : Float(p[x]) * (1 / 255)
                            }
                        }
                    } else {
                        frame.readRGBAFloat(row: sy, into: row)
                        for x in 0..<frame.width {
                            luma[x] = 0.2126 * row[4 * x] + 0.7152 * row[4 * x + 1] + 0.0722 * row[4 * x + 2]
                        }
                    }
                    for x in 0..<w {
                        var s: Float = 0
                        for i in 0..<factor { s += luma[min(x * factor + i, frame.width - 1)] }
                        o[x] += s * scale
                    }
                }
            }
        }
        return out
    }
}

/// Bilinear affine warps of whole frames.
enum FrameWarper {
    /// `frame` resampled at `transform(x, y)` for every pixel of a `width × height` output (edges clamped), in the
    /// frame's format (Y′CbCr and 16-bit frames go through RGBA).
    static func warp(_ frame: PixelBuffer, by transform: AffineTransform, width: Int, height: Int, threads: Int)
        -> PixelBuffer
    {
        switch frame.format {
        case .rgba8, .bgra8:
            return warp8(frame, transform, width, height, threads)
        case .rgbaFloat:
            return warpFloat(frame, transform, width, height, threads)
        default:
            let intermediate: PixelFormat = frame.format.isYCbCr || frame.format == .rgba8 ? .rgba8 : .rgbaFloat
            let converted = frame.converted(to: intermediate, threads: threads)
            let warped =
                intermediate == .rgba8
                ? warp8(converted, transform, width, height, threads)
                : warpFloat(converted, transform, width, height, threads)
            return warped.converted(to: frame.format, threads: threads)
        }
    }

    static func warp8(_ frame: PixelBuffer, _ t: AffineTransform, _ w: Int, _ h: Int, _ threads: Int) -> PixelBuffer {
        let out = PixelBuffer(
            width: w, height: h, format: frame.format, colorSpace: frame.colorSpace, metadata: frame.metadata)
        let dst = out.unsafeSharedMutablePlane(0)
        let fw = frame.width, fh = frame.height
        let (a, b, c, d) = (Float(t.a), Float(t.b), Float(t.c), Float(t.d))
        let (tx, ty) = (Float(t.tx), Float(t.ty))
        frame.withUnsafePlane { src in
            Parallel.forEachBand(h, threads: threads) { rows in
                for y in rows {
                    let o = dst.row(y, as: UInt8.self)
                    for x in 0..<w {
                        let sx = min(max(a * Float(x) + c * Float(y) + tx, 0), Float(fw - 1))
                        let sy = min(max(b * Float(x) + d * Float(y) + ty, 0), Float(fh - 1))
                        let x0 = Int(sx), y0 = Int(sy)
                        let x1 = min(x0 + 1, fw - 1), y1 = min(y0 + 1, fh - 1)
                        let fx = sx - Float(x0), fy = sy - Float(y0)
                        let r0 = src.row(y0, as: UInt8.self), r1 = src.row(y1, as: UInt8.self)
                        for ch in 0..<4 {
                            let top = Float(r0[4 * x0 + ch]) * (1 - fx) + Float(r0[4 * x1 + ch]) * fx
                            let bottom = Float(r1[4 * x0 + ch]) * (1 - fx) + Float(r1[4 * x1 + ch]) * fx
                            o[4 * x + ch] = UInt8(truncatingIfNeeded: Int(top * (1 - fy) + bottom * fy + 0.5))
                        }
                    }
                }
            }
        }
        return out
    }

    static func warpFloat(_ frame: PixelBuffer, _ t: AffineTransform, _ w: Int, _ h: Int, _ threads: Int)
        -> PixelBuffer
    {
        let out = PixelBuffer(
            width: w, height: h, format: .rgbaFloat, colorSpace: frame.colorSpace, metadata: frame.metadata)
        let dst = out.unsafeSharedMutablePlane(0)
        let fw = frame.width, fh = frame.height
        let (a, b, c, d) = (Float(t.a), Float(t.b), Float(t.c), Float(t.d))
        let (tx, ty) = (Float(t.tx), Float(t.ty))
        frame.withUnsafePlane { src in
            Parallel.forEachBand(h, threads: threads) { rows in
                for y in rows {
                    let o = dst.row(y, as: Float.self)
                    for x in 0..<w {
                        let sx = min(max(a * Float(x) + c * Float(y) + tx, 0), Float(fw - 1))
                        let sy = min(max(b * Float(x) + d * Float(y) + ty, 0), Float(fh - 1))
                        let x0 = Int(sx), y0 = Int(sy)
                        let x1 = min(x0 + 1, fw - 1), y1 = min(y0 + 1, fh - 1)
                        let fx = sx - Float(x0), fy = sy - Float(y0)
                        let r0 = src.row(y0, as: Float.self), r1 = src.row(y1, as: Float.self)
                        for ch in 0..<4 {
                            let top = r0[4 * x0 + ch] * (1 - fx) + r0[4 * x1 + ch] * fx
                            let bottom = r1[4 * x0 + ch] * (1 - fx) + r1[4 * x1 + ch] * fx
                            o[4 * x + ch] = top * (1 - fy) + bottom * fy
                        }
                    }
                }
            }
        }
        return out
    }
}
