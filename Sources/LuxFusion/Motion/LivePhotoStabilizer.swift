public import LuxPixels

/// Steadies a Live Photo movie with ``VideoStabilizer``: the camera path (similarity motions between
/// reduced frames) is smoothed over time and each frame is warped onto the smooth path inside a crop, which is
/// then enlarged back to the frame's size so the movie keeps the still's geometry.
///
/// The result is one forward transform per frame (apply it with `frame.clampedToExtent().transformed(by:)` and crop to
/// the frame): LuxLive's editing context applies them before its frame processor, and a Live Photo capture before
/// encoding its movie.
public struct LivePhotoStabilizer: Hashable, Sendable, Codable {
    /// The stabiliser's smoothing, crop and motion model (default: similarity, 12 frames, 10 % crop).
    public var settings: VideoStabilizer.Settings
    /// Frames are reduced to at most this width before their motion is measured (default 480).
    public var analysisWidth: Int

    /// Creates a stabiliser.
    public init(settings: VideoStabilizer.Settings = VideoStabilizer.Settings(), analysisWidth: Int = 480) {
        self.settings = settings
        self.analysisWidth = analysisWidth
    }

    /// The per-frame transforms for `frames` (all the same size).
    ///
    /// - Throws: ``FusionError`` for frames the stabiliser refuses (smaller than 64 pixels) or bad settings.
    public func transforms(frames: [PixelBuffer]) throws(FusionError) -> [AffineTransform] {
        guard let first = frames.first else { return [] }
        return try transforms(reduced: frames.map(reduced), width: first.width, height: first.height)
    }

    /// `frame` box-reduced by a whole factor to at most ``analysisWidth`` pixels wide, as `.rgba8`.
    public func reduced(_ frame: PixelBuffer) -> PixelBuffer {
        AnalysisFrame.reducedColor(frame, maximumWidth: analysisWidth)
    }

    /// The per-frame transforms from frames already reduced by ``reduced(_:)`` from `width` × `height` (reduce each
    /// frame as it arrives to keep only small copies).
    public func transforms(reduced: [PixelBuffer], width: Int, height: Int) throws(FusionError) -> [AffineTransform] {
        guard let small = reduced.first else { return [] }
        var analysis = settings
        analysis.analysisWidth = max(64, small.width)
        let stabilizer = VideoStabilizer(settings: analysis)
        // Motions measured on the reduced frames, scaled to full size, and the path planned at full size.
        let measured = try stabilizer.plan(reduced)
        let fx = Double(width) / Double(small.width)
        let fy = Double(height) / Double(small.height)
        let motions = measured.frameMotions.map { m in
            var t = m.transform
            t.tx *= fx
            t.ty *= fy
            return GlobalMotion(transform: t, inlierFraction: m.inlierFraction, residualRMS: m.residualRMS)
        }
        let plan = try stabilizer.plan(motions: motions, width: width, height: height)
        // The plan maps crop pixels (centres on integers) to input positions; the engine wants the forward map with
        // centres on half-integers, followed by the enlargement of the crop to the frame.
        let half = AffineTransform(translationX: 0.5, y: 0.5)
        let enlarge = AffineTransform(
            scaleX: Double(width) / Double(plan.outputWidth), y: Double(height) / Double(plan.outputHeight))
        return plan.transforms.map { t in
            let toInput = AffineTransform(translationX: -0.5, y: -0.5).concatenating(t).concatenating(half)
            return (toInput.inverted ?? .identity).concatenating(enlarge)
        }
    }
}
