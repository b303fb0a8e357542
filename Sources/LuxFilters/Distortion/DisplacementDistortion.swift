public import LuxPixels
public import LuxRender

extension Filters {
    /// Moves each pixel by an amount read from a displacement image: red shifts it horizontally, green vertically.
    ///
    /// The output at `(x, y)` is the image sampled (bilinearly) at `(x + scale·(r − ½), y − scale·(g − ½))`, with `r`
    /// and `g` the displacement image's straight red and green at `(x, y)`, clamped to 0…1. Green is subtracted
    /// because Lux's y axis points down: in Core Image's y-up coordinates the same rule reads `y + scale·(g − ½)`, so a
    /// displacement map made for Core Image moves pixels the same way on screen. Mid-grey (½, ½) leaves a pixel
    /// where it is; no pixel moves more than `|scale|/2` in either direction (the ROI). The extent is the image's.
    public struct DisplacementDistortion: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "DisplacementDistortion", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Moves pixels by the red and green of a displacement image.", .image(\.image),
            .image(\.displacement, "displacementImage", summary: "Red moves pixels across, green up and down."),
            .parameter(
                "scale", \.scale, slider: 0...200, allowed: -1e5...1e5, unit: .pixels,
                summary: "The displacement of a full-scale value."))

        public var image: Image = .empty
        public var displacement: Image = .empty
        public var scale: Double = 50

        public init() {}

        public var outputImage: Image {
            let k = Float(scale)
            let kernel = GeneralKernel(name: "displacementDistortion", inputCount: 2) { row in
                let source = row.sampler(0)
                let map = row.sampler(1)
                let y = Float(row.y) + 0.5
                for i in 0..<row.count {
                    let d = map.pixel(x: row.x + i, y: row.y)
                    let inverse: Float = d.w > 0 ? 1 / d.w : 0
                    let r = min(max(d.x * inverse, 0), 1)
                    let g = min(max(d.y * inverse, 0), 1)
                    let x = Float(row.x + i) + 0.5
                    row.store(source.sample(x: x + k * (r - 0.5), y: y - k * (g - 0.5)), at: i)
                }
            }
            let reach = abs(scale) / 2 + 1
            return kernel.apply(
                extent: image.extent, inputs: [image, displacement], arguments: "scale=\(scale)"
            ) { index, rect in
                index == 0 ? rect.insetBy(dx: -reach, dy: -reach) : rect
            }
        }
    }
}

extension Image {
    /// The image displaced by the red and green of `displacement` (see ``Filters/DisplacementDistortion``).
    public func displacementDistortion(_ displacement: Image, scale: Double = 50) -> Image {
        applyingFilter(
            Filters.DisplacementDistortion {
                $0.displacement = displacement
                $0.scale = scale
            })
    }
}
