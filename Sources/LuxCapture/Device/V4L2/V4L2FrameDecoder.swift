import LuxCodecs
import LuxColor
import LuxPixels
import RealModule

/// Turns the bytes of one V4L2 buffer into Lux pixel buffers.
///
/// YUYV is converted to BGRA with the BT.601 video-range matrix UVC cameras use; NV12 is copied into a 4:2:0
/// video-range buffer; MJPEG is decoded with libjpeg-turbo; a Bayer mosaic is copied into a ``PixelFormat/bayer16(_:)``
/// RAW at its native bit depth, and its processed image is a 2×2 superpixel development (each CFA quad's R, mean G
/// and B, normalised between the black and white levels, sRGB-encoded).
struct V4L2FrameDecoder {
    var format: V4L2PixelFormat
    var width: Int
    var height: Int
    /// Bytes between rows of the first plane (`bytesperline`).
    var bytesPerLine: Int
    var blackLevel: Int

    /// The white level of a Bayer format: the largest code of its bit depth.
    var whiteLevel: Int {
        if case .bayer(_, let bits) = format.layout { return (1 << bits) - 1 }
        return 255
    }

    /// Decodes `bytes` (the used part of a buffer).
    ///
    /// - Throws: ``CaptureError/processing(_:)`` for a buffer too short for the format, or a JPEG that does not decode.
    func decode(_ bytes: [UInt8], processed: Bool) throws(CaptureError) -> (image: PixelBuffer?, raw: PixelBuffer?) {
        switch format.layout {
        case .yuyv:
            try require(bytes.count >= bytesPerLine * (height - 1) + width * 2)
            return (yuyv(bytes), nil)
        case .nv12:
            let lumaBytes = bytesPerLine * height
            try require(bytes.count >= lumaBytes + bytesPerLine * ((height + 1) / 2 - 1) + (width + 1) / 2 * 2)
            return (nv12(bytes, chromaOffset: lumaBytes), nil)
        case .mjpeg:
            let file: ImageFile
            do { file = try JPEG.decode(bytes) } catch {
                throw .processing("a Motion-JPEG frame does not decode: \(error)")
            }
            let image = file.pixels.format == .bgra8 ? file.pixels : file.pixels.converted(to: .bgra8)
            return (image, nil)
        case .bayer(let cfa, let bits):
            let sampleBytes = bits > 8 ? 2 : 1
            try require(bytes.count >= bytesPerLine * (height - 1) + width * sampleBytes)
            let raw = bayer(bytes, cfa: cfa, sampleBytes: sampleBytes)
            return (processed ? superpixel(raw, cfa: cfa) : nil, raw)
        }
    }

    func require(_ condition: Bool) throws(CaptureError) {
        guard condition else {
            throw .processing("a \(format.fourCC) frame of \(width)×\(height) is shorter than the format needs")
        }
    }

    /// BT.601 video range to 8-bit R′G′B′, in 16.16 fixed point.
    static func rgb(y: Int, cb: Int, cr: Int) -> (UInt8, UInt8, UInt8) {
        let c = 76_309 * (y - 16)
        let d = cb - 128
        let e = cr - 128
        func clamp(_ v: Int) -> UInt8 { UInt8(min(max((v + 32_768) >> 16, 0), 255)) }
        return (clamp(c + 104_597 * e), clamp(c - 25_675 * d - 53_279 * e), clamp(c + 132_201 * d))
    }

    func yuyv(_ bytes: [UInt8]) -> PixelBuffer {
        var out = PixelBuffer(width: width, height: height, format: .bgra8, colorSpace: .sRGB)
        out.withUnsafeMutablePlane { plane in
            for y in 0..<height {
                let row = plane.row(y, as: UInt8.self)
                let base = y * bytesPerLine
                for x in 0..<width {
                    let pair = base + (x & ~1) * 2
                    let luma = Int(bytes[base + x * 2])
                    let (r, g, b) = Self.rgb(y: luma, cb: Int(bytes[pair + 1]), cr: Int(bytes[pair + 3]))
                    row[x * 4] = b
                    row[x * 4 + 1] = g
                    row[x * 4 + 2] = r
                    row[x * 4 + 3] = 255
                }
            }
        }
        return out
    }

    func nv12(_ bytes: [UInt8], chromaOffset: Int) -> PixelBuffer {
        var out = PixelBuffer(width: width, height: height, format: .yCbCr420VideoRange, colorSpace: .sRGB)
        bytes.withUnsafeBytes { src in
            out.withUnsafeMutablePlane(0) { plane in
                for y in 0..<height {
                    plane.row(y).copyMemory(from: src.baseAddress! + y * bytesPerLine, byteCount: width)
                }
            }
            out.withUnsafeMutablePlane(1) { plane in
                for y in 0..<plane.height {
                    plane.row(y).copyMemory(
                        from: src.baseAddress! + chromaOffset + y * bytesPerLine, byteCount: plane.width * 2)
                }
            }
        }
        return out
    }

    func bayer(_ bytes: [UInt8], cfa: CFAPattern, sampleBytes: Int) -> PixelBuffer {
        var out = PixelBuffer(width: width, height: height, format: .bayer16(cfa))
        out.withUnsafeMutablePlane { plane in
            for y in 0..<height {
                let row = plane.row(y, as: UInt16.self)
                let base = y * bytesPerLine
                for x in 0..<width {
                    let o = base + x * sampleBytes
                    row[x] = sampleBytes == 1 ? UInt16(bytes[o]) : UInt16(bytes[o]) | UInt16(bytes[o + 1]) << 8
                }
            }
        }
        return out
    }

    /// A BGRA image of the mosaic: every 2×2 quad becomes one colour, repeated over its four pixels.
    func superpixel(_ raw: PixelBuffer, cfa: CFAPattern) -> PixelBuffer {
        let span = Double(max(whiteLevel - blackLevel, 1))
        let encode: [UInt8] = (0...255).map { i in
            let v = Double(i) / 255
            let e = v <= 0.003_130_8 ? 12.92 * v : 1.055 * Double.pow(v, 1 / 2.4) - 0.055
            return UInt8((min(max(e, 0), 1) * 255).rounded())
        }
        func level(_ code: Double) -> UInt8 { encode[Int((min(max((code - Double(blackLevel)) / span, 0), 1) * 255))] }
        // Positions of red and blue within the quad, by row-major index 0…3.
        let (red, blue): (Int, Int) =
            switch cfa {
            case .rggb: (0, 3)
            case .bggr: (3, 0)
            case .grbg: (1, 2)
            case .gbrg: (2, 1)
            }
        var out = PixelBuffer(width: width, height: height, format: .bgra8, colorSpace: .sRGB)
        raw.withUnsafePlane { src in
            out.withUnsafeMutablePlane { dst in
                for qy in stride(from: 0, to: height - 1, by: 2) {
                    let rows = [src.row(qy, as: UInt16.self), src.row(qy + 1, as: UInt16.self)]
                    for qx in stride(from: 0, to: width - 1, by: 2) {
                        let quad = [rows[0][qx], rows[0][qx + 1], rows[1][qx], rows[1][qx + 1]].map(Double.init)
                        let greenSum = quad.reduce(0, +) - quad[red] - quad[blue]
                        let pixel = [level(quad[blue]), level(greenSum / 2), level(quad[red]), 255]
                        for dy in 0..<2 {
                            let row = dst.row(qy + dy, as: UInt8.self)
                            for dx in 0..<2 { for c in 0..<4 { row[(qx + dx) * 4 + c] = pixel[c] } }
                        }
                    }
                }
            }
        }
        return out
    }
}
