public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A copier's light bar sweeps across `extent`, leaving the target behind it.
    ///
    /// Core Image gives no formula; Lux's is this. With `u` a pixel's distance along the direction `angle` from the
    /// first corner of `extent` that the bar reaches (clamped to the extent's length `L` in that direction), the bar's
    /// middle is at `f = time·(L + width) − width / 2`. Behind it (`u < f`) the pixel is the target, ahead of it the
    /// image, and the bar adds the light `color·opacity·max(0, 1 − ((u − f) / (width / 2))²)` (its alpha as
    /// ``SunbeamsGenerator``'s light). At time 0 the bar lies wholly before the extent and at time 1 wholly past it,
    /// so time 0 is the image and time 1 the target exactly. The extent is the union of the two images.
    public struct CopyMachineTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "CopyMachineTransition", categories: [.transition, .stillImage, .video, .highDynamicRange],
            summary: "Sweeps a copier's light bar across the image, leaving the target.",
            .image(\.image, summary: "Shown at time 0."), .image(\.target, "targetImage", summary: "Shown at time 1."),
            .parameter("extent", \.extent, summary: "The rectangle the bar sweeps across."),
            .parameter("color", \.color, summary: "The colour of the light."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The direction of travel."),
            .parameter(
                "width", \.width, slider: 0.1...500, allowed: 0.1...1e6, unit: .pixels, summary: "The width of the bar."
            ),
            .parameter(
                "opacity", \.opacity, slider: 0...3, allowed: 0...100, summary: "The brightness of the bar's middle."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var extent: Rect = Rect(x: 0, y: 0, width: 300, height: 300)
        public var color: Color = Color(red: 0.6, green: 1, blue: 0.8)
        public var time: Double = 0
        public var angle: Double = 0
        public var width: Double = 200
        public var opacity: Double = 1.3

        public init() {}

        public var outputImage: Image {
            let sweep = TransitionMix.Sweep(across: extent, angle: angle)
            let w = max(width, 0.1)
            let front = Float(time * (sweep.length + w) - w / 2)
            let length = Float(sweep.length)
            let inverseHalf = Float(2 / w)
            let gain = Float(opacity)
            return TransitionMix.applyLit(
                image, target: target, color: color, name: "copyMachine",
                arguments: "extent=\(extent) time=\(time) angle=\(angle) width=\(width) opacity=\(opacity)"
            ) { row, k, light in
                let y = Float(row.y) + 0.5
                for i in 0..<row.count {
                    let u = min(max(sweep.distance(Float(row.x + i) + 0.5, y), 0), length)
                    let d = (u - front) * inverseHalf
                    k[i] = u < front ? 1 : 0
                    light[i] = gain * max(0, 1 - d * d)
                }
            }
        }
    }
}
