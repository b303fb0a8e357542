import LuxPixels

/// A Bayer image with the levels and white balance needed to develop it.
struct RawFrame: Sendable {
    /// `.bayer14` or `.bayer16` data.
    var pixels: PixelBuffer
    var blackLevel: Double
    var whiteLevel: Double
    /// What the (reference) exposure was taken with.
    var metadata: FrameMetadata
    var presentationTime: MediaTime
}

/// Carries out the multi-frame methods ``QualityPlanner`` chooses: the one type to change when the fusion
/// algorithms change.
///
/// Until LuxFusion's burst merge is wired in, both merge methods average the frames without alignment (exact
/// for a tripod, soft for a hand-held camera).
enum PhotoFusion {
    /// Whether exposure fusion is available for high-dynamic-range scenes.
    static let supportsExposureFusion = false

    /// Merges `frames` (all the same size and format) with `method`.
    static func merge(_ frames: [RawFrame], method: PhotoProcessing.Method, pool: BufferPool, threads: Int) throws(CaptureError) -> RawFrame {
        guard let first = frames.first else { throw .processing("no frames to merge") }
        guard frames.count > 1 else { return first }
        return try average(frames, pool: pool, threads: threads)
    }

    /// The mean of the frames as a 16-bit mosaic with black 4096 and white 65535 (the LuxFusion convention).
    static func average(_ frames: [RawFrame], pool: BufferPool, threads: Int) throws(CaptureError) -> RawFrame {
        let first = frames[0]
        let w = first.pixels.width, h = first.pixels.height
        guard let pattern = first.pixels.format.cfaPattern else { throw .processing("merging needs Bayer frames") }
        var out = PipelineBuffers.buffer(pool: pool, format: .bayer16(pattern), width: w, height: h)
        let black = Float(first.blackLevel), outBlack: Float = 4096
        let scale = (65535 - outBlack) / Float(first.whiteLevel - first.blackLevel) / Float(frames.count)
        let sources = frames.map(\.pixels)
        let dst = out.unsafeSharedMutablePlane(0)
        withExtendedLifetime(sources) {
            Parallel.forEachBand(h, threads: threads) { rows in
                var acc = [Float](repeating: 0, count: w)
                for y in rows {
                    for x in 0..<w { acc[x] = 0 }
                    for s in sources {
                        s.withUnsafePlane { p in
                            let r = p.row(y, as: UInt16.self)
                            for x in 0..<w { acc[x] += Float(r[x]) }
                        }
                    }
                    let o = dst.row(y, as: UInt16.self)
                    let n = Float(sources.count)
                    for x in 0..<w {
                        let v = outBlack + (acc[x] - n * black) * scale
                        o[x] = UInt16(min(max(v.rounded(), 0), 65535))
                    }
                }
            }
        }
        return RawFrame(
            pixels: out, blackLevel: Double(outBlack), whiteLevel: 65535, metadata: first.metadata,
            presentationTime: first.presentationTime)
    }
}
