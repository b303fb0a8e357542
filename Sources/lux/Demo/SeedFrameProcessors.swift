import Foundation
import Lux

/// The four frame processors of the Live Photo editing session (seed 002), as the demo applies them: each runs on
/// the still and on every movie frame.
enum SeedFrameProcessors {
    /// A named processor and what it shows.
    struct Example {
        var name: String
        var summary: String
        var processor: LivePhotoEditingContext.FrameProcessor
    }

    /// The examples for a Live Photo whose still is at `photoTime` of a movie of `duration` seconds.
    static func all(photoTime: Double, duration: Double) -> [Example] {
        [
            Example(name: "square", summary: "static crop to the centred square", processor: squareCrop),
            Example(
                name: "sliding-crop",
                summary: "the square crop slides with a ramp −1 → 0 → +1 through the still's time",
                processor: slidingCrop(photoTime: photoTime, duration: duration)),
            Example(
                name: "line-screen", summary: "a line screen whose width is scaled by each frame's renderScale",
                processor: lineScreen),
            Example(name: "watermark", summary: "a glowing badge added to the still only", processor: watermark),
        ]
    }

    /// The centred square of `extent`.
    static func centredSquare(_ extent: Rect) -> Rect {
        let side = min(extent.width, extent.height)
        return Rect(
            x: extent.minX + (extent.width - side) / 2, y: extent.minY + (extent.height - side) / 2, width: side,
            height: side)
    }

    /// Static crop: the still and every frame get the same centred square.
    static let squareCrop: LivePhotoEditingContext.FrameProcessor = { frame in
        frame.image.cropped(to: centredSquare(frame.image.extent))
    }

    /// Time-based crop: a linear ramp from (0, photo time, duration) to (−1, 0, +1) moves the square's origin.
    static func slidingCrop(photoTime tP: Double, duration: Double) -> LivePhotoEditingContext.FrameProcessor {
        { frame in
            let square = centredSquare(frame.image.extent)
            let tF = frame.time.seconds
            let dt = tF < tP ? (tF - tP) / max(tP, 1e-9) : (tF - tP) / max(duration - tP, 1e-9)
            return frame.image.cropped(
                to: Rect(
                    x: square.minX + dt * square.minX, y: square.minY + dt * square.minY, width: square.width,
                    height: square.height))
        }
    }

    /// Resolution-dependent effect: a line screen 20 pixels wide on the still, as many lines on each movie frame.
    static let lineScreen: LivePhotoEditingContext.FrameProcessor = { frame in
        let e = frame.image.extent
        return try frame.image.applyingFilter(
            "LineScreen",
            parameters: [
                "angle": .number(3 * Double.pi / 4), "width": .number(20 * frame.renderScale),
                "center": .vector([e.midX, e.midY]),
            ]
        ).cropped(to: e)
    }

    /// Photo-only watermark: a soft light badge added (linear dodge) near the still's lower-left corner.
    static let watermark: LivePhotoEditingContext.FrameProcessor = { frame in
        guard frame.type == .photo else { return frame.image }
        let e = frame.image.extent
        let r = 0.06 * min(e.width, e.height)
        let centre = Point(x: e.minX + 2 * r, y: e.maxY - 2 * r)
        let badge = Image.radialGradient(
            center: centre, radius0: 0.4 * r, radius1: r,
            color0: Color(red: 0.55, green: 0.5, blue: 0.35, colorSpace: .extendedLinearSRGB),
            color1: Color(red: 0, green: 0, blue: 0, colorSpace: .extendedLinearSRGB)
        ).cropped(to: Rect(x: centre.x - r, y: centre.y - r, width: 2 * r, height: 2 * r))
        return badge.blended(onto: frame.image, mode: .linearDodge).cropped(to: e)
    }
}
