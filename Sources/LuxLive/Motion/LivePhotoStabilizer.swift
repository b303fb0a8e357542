public import LuxPixels
import RealModule

/// Steadies a Live Photo movie: the camera path measured from frame to frame is smoothed over time, and each frame
/// is moved so the picture follows the smooth path, inside a slight zoom that hides the moved edges.
///
/// The result is one transform per frame for ``LivePhotoEditingContext/videoFrameTransforms`` (applied before the
/// frame processor, so the still — taken at the photo time — is unaffected):
///
/// ```swift
/// context.videoFrameTransforms = try context.stabilizationTransforms()
/// ```
public struct LivePhotoStabilizer: Hashable, Sendable, Codable {
    /// The standard deviation of the temporal smoothing, in frames. Default 8.
    public var smoothing: Double
    /// The fraction of the width and height given up to the correction (the zoom). Default 0.08.
    public var crop: Double

    /// Creates a stabiliser.
    public init(smoothing: Double = 8, crop: Double = 0.08) {
        self.smoothing = smoothing
        self.crop = crop
    }

    /// The per-frame transforms for a movie whose consecutive frames moved by `motion` (`frameCount − 1` values).
    public func transforms(motion: [FrameMotion], width: Int, height: Int) -> [AffineTransform] {
        let shifts = cameraCorrections(motion: motion)
        let zoom = 1 / (1 - min(max(crop, 0), 0.5))
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        let limitX = Double(width) * crop / 2
        let limitY = Double(height) * crop / 2
        return shifts.map { s in
            AffineTransform(translationX: min(max(s.x, -limitX), limitX), y: min(max(s.y, -limitY), limitY))
                .translatedBy(x: -cx, y: -cy).scaledBy(x: zoom, y: zoom).translatedBy(x: cx, y: cy)
        }
    }

    /// The per-frame transforms for `frames`.
    public func transforms(frames: [PixelBuffer]) -> [AffineTransform] {
        guard let first = frames.first else { return [] }
        return transforms(motion: FrameMotion.measure(frames), width: first.width, height: first.height)
    }

    /// Per frame, the shift that moves it from the measured camera path onto the smoothed one. (LuxFusion's
    /// ``VideoStabilizer``-style similarity path replaces this translation-only path when it is available.)
    func cameraCorrections(motion: [FrameMotion]) -> [SIMD2<Double>] {
        var path = [SIMD2<Double>.zero]
        for m in motion { path.append(path[path.count - 1] + m.translation) }
        let sigma = max(smoothing, 1e-6)
        let radius = Int((3 * sigma).rounded(.up))
        let weights = (-radius...radius).map { Double.exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let n = path.count
        return (0..<n).map { i in
            var sum = SIMD2<Double>.zero
            var total = 0.0
            for (k, w) in weights.enumerated() {
                // Reflected ends keep the smoothed path from being pulled towards the first and last frames.
                var j = i + k - radius
                if j < 0 { j = -j }
                if j >= n { j = 2 * (n - 1) - j }
                j = min(max(j, 0), n - 1)
                sum += w * path[j]
                total += w
            }
            return sum / total - path[i]
        }
    }
}
