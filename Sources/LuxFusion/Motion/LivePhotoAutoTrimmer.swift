public import LuxPixels

/// Finds a "shoe shot" — the camera being raised at the start of a Live Photo movie or lowered at its end — from
/// the frames' global motion, and proposes the part of the movie to keep.
///
/// A transition between two frames is *violent* when the camera moves by more than ``motionThreshold`` of the
/// frame width per 1/30 s, or when the frames still differ by more than ``residualThreshold`` after aligning them
/// (motion blur, a scene swept away). A run of at least ``minimumRun`` violent transitions that reaches the end of
/// the movie is cut from its first moving frame; one that starts the movie is cut up to its last moving frame.
/// ``photoMargin`` around the photo is always kept.
///
/// ```swift
/// let motion = FrameMotion.measure(frames)
/// let keep = LivePhotoAutoTrimmer().trimRange(
///     motion: motion, frameTimes: times, frameWidth: frames[0].width, photoTime: photoTime, duration: duration)
/// ```
public struct LivePhotoAutoTrimmer: Hashable, Sendable, Codable {
    /// Camera speed (fraction of the frame width per 1/30 s) above which a transition is violent (default 0.04).
    public var motionThreshold: Double
    /// Mean grey difference after alignment (0…1) above which a transition is violent (default 0.12).
    public var residualThreshold: Double
    /// The fewest consecutive violent transitions that count as a shoe shot (default 3).
    public var minimumRun: Int
    /// Kept on each side of the photo time whatever the motion (default 0.5 s).
    public var photoMargin: MediaTime

    /// Creates a trimmer.
    public init(
        motionThreshold: Double = 0.04, residualThreshold: Double = 0.12, minimumRun: Int = 3,
        photoMargin: MediaTime = MediaTime(value: 1, timescale: 2)
    ) {
        self.motionThreshold = motionThreshold
        self.residualThreshold = residualThreshold
        self.minimumRun = minimumRun
        self.photoMargin = photoMargin
    }

    /// Whether the transition `motion` (taking `seconds`) is violent for frames `frameWidth` pixels wide.
    public func isViolent(_ motion: FrameMotion, seconds: Double, frameWidth: Int) -> Bool {
        let length = (motion.translation.x * motion.translation.x + motion.translation.y * motion.translation.y)
            .squareRoot()
        let speed = length / Double(max(frameWidth, 1)) / max(seconds * 30, 1e-3)
        return speed > motionThreshold || motion.residual > residualThreshold
    }

    /// The part of the movie to keep.
    ///
    /// - Parameters:
    ///   - motion: The motion between consecutive frames (`frameTimes.count − 1` values, ``FrameMotion/measure(_:)``).
    ///   - frameTimes: When each frame starts.
    ///   - duration: The movie's duration (the end of the last frame).
    /// - Returns: `0..<duration` when there is no shoe shot.
    public func trimRange(
        motion: [FrameMotion], frameTimes: [MediaTime], frameWidth: Int, photoTime: MediaTime, duration: MediaTime
    ) -> Range<MediaTime> {
        var start = MediaTime.zero
        var end = duration
        let n = min(motion.count, frameTimes.count - 1)
        guard n > 0 else { return start..<end }
        // violent[i]: the transition from frame i to frame i + 1.
        let violent = (0..<n).map { i in
            isViolent(motion[i], seconds: (frameTimes[i + 1] - frameTimes[i]).seconds, frameWidth: frameWidth)
        }
        var tail = n
        while tail > 0, violent[tail - 1] { tail -= 1 }
        if n - tail >= minimumRun {
            // Frames tail + 1 … already moved: keep up to frame `tail`.
            let cut = tail + 1 < frameTimes.count ? frameTimes[tail + 1] : duration
            end = max(cut, min(duration, photoTime + photoMargin))
        }
        var head = 0
        while head < n, violent[head] { head += 1 }
        if head >= minimumRun, head < n {
            // Frames … head moved relative to their successors until frame `head`: start there.
            start = min(frameTimes[head], max(.zero, photoTime - photoMargin))
        }
        if start >= end { return .zero..<duration }
        return start..<end
    }
}
