public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A circular wave spreads from `center`, leaving the target in its wake.
    ///
    /// Core Image gives no formula; Lux's is this. The wave is a ring `width` pixels wide whose outer edge is at
    /// `ρ = time·(D + width)`, `D` the largest distance from `center` to a corner of `extent` and of the two images'
    /// extents. Ahead of it (`r ≥ ρ`) the pixel is the image, behind it (`r ≤ ρ − width`) the target. In the ring,
    /// with `s = (ρ − r) / width`, both images are read `scale·sin(π·s)` pixels nearer the centre and mixed as
    /// `image + (target − image)·s`; the wave's surface, of height `scale·sin(π·s)`, is lit by `shadingImage` (a lit
    /// sphere filling its extent, as for ``ShadedMaterial``): the mix is multiplied by
    /// `1 + sin(π·s)·(shade − 1)`, `shade` the sphere's colour where its normal matches the wave's. Without a
    /// shading image the wave is unlit. Time 0 is the image and time 1 the target exactly, within the extents. The
    /// extent is the union of the two images.
    public struct RippleTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "RippleTransition", categories: [.transition, .stillImage, .video, .highDynamicRange],
            summary: "Spreads a circular wave that leaves the target behind it.",
            .image(\.image, summary: "Shown at time 0."), .image(\.target, "targetImage", summary: "Shown at time 1."),
            .image(\.shading, "shadingImage", summary: "A picture of a lit sphere that lights the wave."),
            .parameter("center", \.center, summary: "Where the wave starts."),
            .parameter("extent", \.extent, summary: "The rectangle the wave crosses by time 1."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."),
            .parameter(
                "width", \.width, slider: 1...1000, allowed: 0.1...1e6, unit: .pixels, summary: "The width of the wave."
            ),
            .parameter(
                "scale", \.scale, slider: -50...50, allowed: -1e4...1e4, unit: .pixels,
                summary: "The height of the wave, as the distance it displaces the images."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var shading: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var extent: Rect = Rect(x: 0, y: 0, width: 300, height: 300)
        public var time: Double = 0
        public var width: Double = 100
        public var scale: Double = 50

        public init() {}

        public var outputImage: Image {
            let frames = [extent, image.extent, target.extent].filter { !$0.isInfinite && !$0.isEmpty }
            // The farthest corner of the frames from the centre.
            var reach = 0.0
            for e in frames {
                for (x, y) in [(e.minX, e.minY), (e.maxX, e.minY), (e.minX, e.maxY), (e.maxX, e.maxY)] {
                    let dx = x - center.x
                    let dy = y - center.y
                    reach = max(reach, (dx * dx + dy * dy).squareRoot())
                }
            }
            let w = Float(max(width, 0.1))
            let outer = Float(time * (reach + max(width, 0.1)))
            let cx = Float(center.x)
            let cy = Float(center.y)
            let a = Float(scale)
            let sh = shading.extent
            let lit = !sh.isEmpty && !sh.isInfinite
            let (sx, sy, hx, hy) = (Float(sh.midX), Float(sh.midY), Float(sh.width / 2), Float(sh.height / 2))
            let kernel = GeneralKernel(name: "ripple", inputCount: 3) { row in
                let source = row.sampler(0)
                let goal = row.sampler(1)
                let light = row.sampler(2)
                let dy = Float(row.y) + 0.5 - cy
                for i in 0..<row.count {
                    let px = Float(row.x + i) + 0.5
                    let dx = px - cx
                    let r = (dx * dx + dy * dy).squareRoot()
                    if r >= outer {
                        row.store(source.pixel(x: row.x + i, y: row.y), at: i)
                    } else if r <= outer - w {
                        row.store(goal.pixel(x: row.x + i, y: row.y), at: i)
                    } else {
                        let s = (outer - r) / w
                        let bump = Float.sin(Float.pi * s)
                        let f = r > 0 ? (r - a * bump) / r : 1
                        let qx = cx + dx * f
                        let qy = cy + dy * f
                        let from = source.sample(x: qx, y: qy)
                        var mixed = from + (goal.sample(x: qx, y: qy) - from) * s
                        if lit, r > 0 {
                            // The wave's slope along the ray, outwards: −(a·π/w)·cos(π·s); its normal, (−slope, 1).
                            let slope = -a * Float.pi / w * Float.cos(Float.pi * s)
                            let n = 1 / (1 + slope * slope).squareRoot()
                            let shade = light.sample(x: sx - slope * n * dx / r * hx, y: sy - slope * n * dy / r * hy)
                            let unlit = SIMD4<Float>(1, 1, 1, 1)
                            let shadeColor =
                                shade.w > 0 ? SIMD4(shade.x / shade.w, shade.y / shade.w, shade.z / shade.w, 1) : unlit
                            mixed *= unlit + bump * (shadeColor - unlit)
                        }
                        row.store(mixed, at: i)
                    }
                }
            }
            let margin = abs(scale) + 1
            return kernel.apply(
                extent: image.extent.union(target.extent), inputs: [image, target, lit ? shading : image],
                arguments: "center=\(center) extent=\(extent) time=\(time) width=\(width) scale=\(scale) lit=\(lit)"
            ) { index, rect in
                index == 2 ? (lit ? sh : rect) : rect.insetBy(dx: -margin, dy: -margin)
            }
        }
    }
}
