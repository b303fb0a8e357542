import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Swipes the target in with bars: the boundary moves across the images in the direction `angle`, every other
    /// bar `barOffset` pixels behind.
    ///
    /// Bars `width` pixels wide run along the direction of travel. With `u` a pixel's distance along the direction
    /// from the first corner of the extent that it reaches and `L` the extent's length in that direction, a pixel of
    /// bar `k` shows the target when `u < time·(L + barOffset) − barOffset·(k mod 2)`, so time 0 is the image and
    /// time 1 the target. Images of infinite extent are swept across the 1000-pixel square at the origin. The extent
    /// is the union of the two images.
    public struct BarsSwipeTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "BarsSwipeTransition", categories: [.transition, .stillImage, .video, .highDynamicRange],
            summary: "Swipes the target in with bars.", .image(\.image, summary: "Shown at time 0."),
            .image(\.target, "targetImage", summary: "Shown at time 1."),
            .parameter(
                "angle", \.angle, slider: 0...2 * Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The direction of travel."),
            .parameter(
                "width", \.width, slider: 2...300, allowed: 0.01...1e6, unit: .pixels, summary: "The bars' width."),
            .parameter(
                "barOffset", \.barOffset, slider: 1...100, allowed: 0...1e6, unit: .pixels,
                summary: "How far every other bar lags behind."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var angle: Double = .pi
        public var width: Double = 30
        public var barOffset: Double = 10
        public var time: Double = 0

        public init() {}

        public var outputImage: Image {
            let sweep = TransitionMix.Sweep(across: image.extent.union(target.extent), angle: angle)
            let front = Float(time * (sweep.length + barOffset))
            let lag = Float(barOffset)
            let (vx, vy) = (Float(-Double.sin(angle) / width), Float(Double.cos(angle) / width))
            return TransitionMix.apply(
                image, target: target, name: "barsSwipe",
                arguments: "angle=\(angle) width=\(width) barOffset=\(barOffset) time=\(time)"
            ) { row, k in
                let y = Float(row.y) + 0.5
                for i in 0..<row.count {
                    let x = Float(row.x + i) + 0.5
                    let bar = Int((x * vx + y * vy).rounded(.down))
                    let u = sweep.distance(x, y)
                    k[i] = u < front - (bar & 1 == 0 ? 0 : lag) ? 1 : 0
                }
            }
        }
    }
}
