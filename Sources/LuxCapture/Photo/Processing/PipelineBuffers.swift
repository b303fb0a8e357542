import LuxColor
import LuxPixels

/// Buffers for the photo pipeline: from the output's pool when it has one free, else freshly allocated (an
/// unprepared capture pays the allocation instead of failing).
enum PipelineBuffers {
    static func buffer(
        pool: BufferPool, format: PixelFormat, width: Int, height: Int, colorSpace: ColorSpace? = nil
    ) -> PixelBuffer {
        if let b = try? pool.buffer(format: format, width: width, height: height, colorSpace: colorSpace) { return b }
        return PixelBuffer(width: width, height: height, format: format, colorSpace: colorSpace)
    }

    /// A copy of `source` in a buffer from `pool`.
    static func copy(_ source: PixelBuffer, pool: BufferPool) -> PixelBuffer {
        var out = buffer(
            pool: pool, format: source.format, width: source.width, height: source.height, colorSpace: source.colorSpace
        )
        for p in 0..<source.planeCount {
            let rowBytes = source.planeSize(p).width * source.format.bytesPerPixel(plane: p)
            source.withUnsafePlane(p) { src in
                out.withUnsafeMutablePlane(p) { dst in
                    for y in 0..<src.height { dst.row(y).copyMemory(from: src.row(y), byteCount: rowBytes) }
                }
            }
        }
        return out
    }
}
