public import LuxPixels

/// How a Live Photo recipe's crop moves over the movie.
///
/// ```swift
/// var recipe = LivePhotoAdjustments(aspectRatio: 1)   // the centred square at the photo time…
/// recipe.cropMotion = .slide                          // …sliding from one corner to the other
/// ```
public enum LivePhotoCropMotion: String, Hashable, Sendable, Codable {
    /// The seed's time-based crop: the crop rectangle is offset by `dt` times its distance from the frame's origin,
    /// where `dt` ramps linearly from −1 at the movie's start through 0 at the still's time to +1 at its end.
    ///
    /// A centred crop therefore slides from the frame's origin corner through its own place (on the still) to the
    /// opposite corner. The rectangle is kept inside the frame.
    case slide

    /// The ramp `dt` at `time` for a still at `pivot` in a movie lasting `duration`: −1 at 0, 0 at `pivot`, +1 at
    /// `duration` (0 when `pivot` is at either end, where the ramp is undefined on that side).
    public static func ramp(at time: MediaTime, pivot: MediaTime, duration: MediaTime) -> Double {
        let t = time.seconds
        let p = pivot.seconds
        let d = duration.seconds
        if t < p { return p > 0 ? max((t - p) / p, -1) : 0 }
        return d > p ? min((t - p) / (d - p), 1) : 0
    }

    /// `window` moved for ramp value `dt` within `frame` (the seed's `rect.offsetBy(dx: dt · minX, dy: dt · minY)`
    /// with the frame's origin at its corner), kept inside `frame`.
    static func slid(_ window: Rect, by dt: Double, in frame: Rect) -> Rect {
        let x = window.minX + dt * (window.minX - frame.minX)
        let y = window.minY + dt * (window.minY - frame.minY)
        let cx = min(max(x, frame.minX), max(frame.maxX - window.width, frame.minX))
        let cy = min(max(y, frame.minY), max(frame.maxY - window.height, frame.minY))
        return Rect(x: cx, y: cy, width: window.width, height: window.height)
    }
}
