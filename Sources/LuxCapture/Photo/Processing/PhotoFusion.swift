import LuxFusion
import LuxPixels

/// A Bayer image with the levels and white balance needed to develop it.
struct RawFrame: Sendable {
    /// `.bayer14` or `.bayer16` data.
    var pixels: PixelBuffer
    var blackLevel: Double
    var whiteLevel: Double
    /// What the (reference) exposure was taken with; `raw.noiseProfile` is the noise of ``pixels``.
    var metadata: FrameMetadata
    var presentationTime: MediaTime
    /// The camera's own processed image of the frame, for a camera the output does not develop (a V4L2 camera).
    var image: PixelBuffer? = nil
}

/// Carries out the multi-frame methods ``QualityPlanner`` chooses with LuxFusion's algorithms: the one type to
/// change when the fusion algorithms change.
///
/// - ``PhotoProcessing/Method/fastMerge`` (balanced): ``BurstMerge`` with its fast variant — whole-pixel
///   alignment of the Bayer frames, robust per-pixel merge.
/// - ``PhotoProcessing/Method/fullMerge`` (quality): ``BurstMerge``'s full variant — sub-pixel alignment,
///   resampling, the sharpest of the first three frames as reference.
/// - Exposure fusion (quality, high dynamic range): the merged frame is developed scene-referred and tone-mapped
///   by ``HDRToneMapper``'s exposure fusion of renderings spanning its range.
enum PhotoFusion {
    /// Whether exposure fusion is available for high-dynamic-range scenes.
    static let supportsExposureFusion = true

    /// Merges `frames` (all the same size and format) with `method`.
    static func merge(_ frames: [RawFrame], method: PhotoProcessing.Method, pool: BufferPool, threads: Int)
        throws(CaptureError) -> RawFrame
    {
        guard let first = frames.first else { throw .processing("no frames to merge") }
        guard frames.count > 1 else { return first }
        let d = first.metadata.raw
        let model = RawNoiseModel(
            blackLevel: first.blackLevel, whiteLevel: first.whiteLevel,
            noise: LuxFusion.NoiseProfile(scale: d.noiseProfile.x, offset: d.noiseProfile.y))
        var settings: BurstMerge.Settings = method == .fullMerge ? .quality : .balanced
        settings.threads = threads
        let result: BurstMerge.Result
        do {
            result = try BurstMerge(settings: settings).merge(frames.map(\.pixels), rawModel: model, pool: pool)
        } catch {
            throw .processing("burst merge failed: \(error)")
        }
        let reference = frames[result.referenceIndex]
        var metadata = reference.metadata
        let out = result.rawModel ?? model
        metadata.raw.blackLevel = Int(out.blackLevels[0].rounded())
        metadata.raw.whiteLevel = Int(out.whiteLevel.rounded())
        metadata.raw.noiseProfile = SIMD2(result.noise.green.scale, result.noise.green.offset)
        return RawFrame(
            pixels: result.output, blackLevel: out.blackLevels[0], whiteLevel: out.whiteLevel, metadata: metadata,
            presentationTime: reference.presentationTime)
    }

    /// Tone-maps scene-referred linear RGB (float) to a display image in `colorSpace` by exposure fusion.
    static func toneMap(_ linear: PixelBuffer, colorSpace: CaptureColorSpace, threads: Int) throws(CaptureError)
        -> PixelBuffer
    {
        do {
            return try HDRToneMapper(settings: .init(method: .exposureFusion(), outputFormat: .rgba8, threads: threads))
                .map(linear, to: colorSpace.colorSpace)
        } catch {
            throw .processing("exposure fusion failed: \(error)")
        }
    }
}
