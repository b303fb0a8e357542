public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Swipes the target in across `extent` with a soft edge `width` pixels wide, tinted with `color`.
    ///
    /// With `u` a pixel's distance along the direction `angle` from the first corner of `extent` that the edge
    /// reaches (clamped to the extent's length `L` in that direction), the pixel shows
    /// `image + (target − image)·k` with `k = clamp((time·(L + width) − u)/width, 0, 1)`, so time 0 is the image
    /// and time 1 the target; `color` is laid over the edge with opacity `opacity·(1 − |2k − 1|)`. The extent is
    /// the union of the two images.
    public struct SwipeTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "SwipeTransition", categories: [.transition, .stillImage, .video, .highDynamicRange],
            summary: "Swipes the target in with a soft, tinted edge.", .image(\.image, summary: "Shown at time 0."),
            .image(\.target, "targetImage", summary: "Shown at time 1."),
            .parameter("extent", \.extent, summary: "The rectangle the edge sweeps across."),
            .parameter("color", \.color, summary: "The tint of the edge."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The direction of travel."),
            .parameter(
                "width", \.width, slider: 0.1...1000, allowed: 0.1...1e6, unit: .pixels,
                summary: "The width of the soft edge."),
            .parameter(
                "opacity", \.opacity, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "The opacity of the tint at the middle of the edge."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var extent: Rect = Rect(x: 0, y: 0, width: 300, height: 300)
        public var color: Color = Color(red: 1, green: 1, blue: 1)
        public var time: Double = 0
        public var angle: Double = 0
        public var width: Double = 300
        public var opacity: Double = 0

        public init() {}

        public var outputImage: Image {
            let sweep = TransitionMix.Sweep(across: extent, angle: angle)
            let w = max(width, 0.1)
            let front = time * (sweep.length + w)
            let progress: @Sendable (Float, Float) -> Float = { x, y in
                let u = min(max(sweep.distance(x, y), 0), Float(sweep.length))
                return min(max((Float(front) - u) / Float(w), 0), 1)
            }
            let arguments = "extent=\(extent) time=\(time) angle=\(angle) width=\(width) opacity=\(opacity)"
            let mixed = TransitionMix.apply(image, target: target, name: "swipe", arguments: arguments) { row, k in
                let y = Float(row.y) + 0.5
                for i in 0..<row.count { k[i] = progress(Float(row.x + i) + 0.5, y) }
            }
            guard opacity > 0 else { return mixed }
            let o = Float(opacity)
            let tint = ColorKernel(name: "swipeEdge") { row in
                let c = row.color(0)
                let p = row.pixels
                let y = Float(row.y) + 0.5
                for i in 0..<row.count {
                    let a = o * (1 - abs(2 * progress(Float(row.x + i) + 0.5, y) - 1))
                    p.red[i] += (c.x - p.red[i]) * a
                    p.green[i] += (c.y - p.green[i]) * a
                    p.blue[i] += (c.z - p.blue[i]) * a
                    p.alpha[i] += (1 - p.alpha[i]) * a
                }
            }
            return tint.apply(extent: mixed.extent, inputs: [mixed], arguments: arguments, colors: [color])
        }
    }
}

extension Image {
    /// A swipe from this image to `target` across the target's extent (see ``Filters/SwipeTransition``).
    public func swipeTransition(to target: Image, time: Double, angle: Double = 0, width: Double = 300) -> Image {
        applyingFilter(
            Filters.SwipeTransition {
                $0.target = target
                $0.time = time
                $0.angle = angle
                $0.width = width
                $0.extent = target.extent.isInfinite ? $0.extent : target.extent
            })
    }
}
