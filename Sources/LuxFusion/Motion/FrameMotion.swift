public import LuxPixels

/// The camera's global motion from one movie frame to the next.
public struct FrameMotion: Hashable, Sendable {
    /// The shift in frame pixels: content at `p` in the previous frame is at `p + translation` in this one.
    public var translation: SIMD2<Double>
    /// The mean absolute grey difference left after aligning the frames (0…1): large when the picture changes
    /// beyond a shift (fast motion blur, a new scene).
    public var residual: Double

    /// Creates a motion.
    public init(translation: SIMD2<Double>, residual: Double) {
        self.translation = translation
        self.residual = residual
    }

    /// Measures the motion between each pair of consecutive frames (`frames.count − 1` values).
    ///
    /// - Complexity: O(frames × 192 × 144) after reducing each frame.
    public static func measure(_ frames: [PixelBuffer]) -> [FrameMotion] {
        measure(count: frames.count) { frames[$0] }
    }

    /// Measures the motion between consecutive frames obtained one at a time from `frame` (called once per
    /// index, in order; each frame is reduced to a small grey image and dropped).
    public static func measure<E: Error>(count: Int, frame: (Int) throws(E) -> PixelBuffer) throws(E) -> [FrameMotion] {
        var previous: AnalysisFrame?
        var out: [FrameMotion] = []
        for i in 0..<count {
            let current = AnalysisFrame(try frame(i))
            if let p = previous {
                let (shift, residual) = TranslationEstimator.estimate(from: p, to: current)
                out.append(FrameMotion(translation: shift, residual: residual))
            }
            previous = current
        }
        return out
    }
}
