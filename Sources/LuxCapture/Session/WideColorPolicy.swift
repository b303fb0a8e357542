/// The automatic colour-space choice of a session (seed 000, "Automatic Color Space Selection"): with a photo output,
/// the camera is set to Display P3 — unless a movie file output records (sRGB, because P3 movies are badly supported
/// elsewhere), or a video data output is present and the preset is not ``SessionPreset/photo``.
///
/// Without a photo output, sRGB. The format must support P3, else sRGB.
enum WideColorPolicy {
    static func colorSpace(
        hasPhotoOutput: Bool, hasMovieFileOutput: Bool, hasVideoDataOutput: Bool, preset: SessionPreset,
        format: DeviceFormat
    ) -> CaptureColorSpace {
        guard hasPhotoOutput, !hasMovieFileOutput, format.supports(.displayP3) else { return .sRGB }
        if hasVideoDataOutput && preset != .photo { return .sRGB }
        return .displayP3
    }
}
