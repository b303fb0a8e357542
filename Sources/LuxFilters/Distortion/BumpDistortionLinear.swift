public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A bulge (positive `scale`) or dent (negative) in the image along the line through `center` in the direction
    /// `angle`.
    ///
    /// ``BumpDistortion``'s profile across a line instead of around a point: a pixel at distance `d < radius` from the
    /// line reads the source at distance `d·(1 − scale·(1 − d/radius)²)` on the same side, at the same position along
    /// the line. For `scale` in −1…1 every pixel reads inside the band `|d| < radius`. The extent is the input's.
    public struct BumpDistortionLinear: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "BumpDistortionLinear", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Bulges or dents the image along a line.", .image(\.image),
            .parameter("center", \.center, summary: "A point of the bump's line."),
            .parameter(
                "radius", \.radius, slider: 0...600, allowed: 0...1e6, unit: .pixels,
                summary: "The bump's half-width."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The direction of the line."),
            .parameter(
                "scale", \.scale, slider: -1...1, allowed: -1...1,
                summary: "How much the line is magnified (positive) or shrunk (negative)."))

        public var image: Image = .empty
        public var center: Point = Point(x: 300, y: 300)
        public var radius: Double = 300
        public var angle: Double = 0
        public var scale: Double = 0.5

        public init() {}

        public var outputImage: Image {
            let r0 = max(radius, 1e-6)
            let k = scale
            let c = center
            // The unit normal of the line.
            let nx = -Double.sin(angle)
            let ny = Double.cos(angle)
            let kernel = WarpKernel(name: "bumpLinear") { row in
                let py = Double(row.y) + 0.5 - c.y
                for i in 0..<row.count {
                    let px = Double(row.x + i) + 0.5 - c.x
                    let d = nx * px + ny * py
                    let t = max(1 - abs(d) / r0, 0)
                    let shift = d * k * t * t
                    row.sourceX[i] = Float(c.x + px - shift * nx)
                    row.sourceY[i] = Float(c.y + py - shift * ny)
                }
            }
            return kernel.apply(
                extent: image.extent, image: image,
                arguments: "center=\(center) radius=\(radius) angle=\(angle) scale=\(scale)"
            ) { rect in
                // Pixels move across the line, within the band: the rectangle's corners slid across to the band's
                // edges and to the line bound the sources.
                let corners = [
                    (rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY),
                ]
                let ds = corners.map { nx * ($0.0 - c.x) + ny * ($0.1 - c.y) }
                // A rectangle outside the band reads itself.
                if ds.min()! >= r0 || ds.max()! <= -r0 { return rect }
                var xs = [rect.minX, rect.maxX]
                var ys = [rect.minY, rect.maxY]
                for ((x, y), d) in zip(corners, ds) {
                    for target in [-r0, 0, r0] {
                        xs.append(x + (target - d) * nx)
                        ys.append(y + (target - d) * ny)
                    }
                }
                return Rect(minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!)
            }
        }
    }
}

extension Image {
    /// The image bulged or dented along a line (see ``Filters/BumpDistortionLinear``).
    public func bumpDistortionLinear(center: Point, radius: Double = 300, angle: Double = 0, scale: Double = 0.5)
        -> Image
    {
        applyingFilter(
            Filters.BumpDistortionLinear {
                $0.center = center
                $0.radius = radius
                $0.angle = angle
                $0.scale = scale
            })
    }
}
