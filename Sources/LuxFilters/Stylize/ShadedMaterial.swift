public import LuxRender

extension Filters {
    /// Shades a height field with a picture of a lit sphere: each pixel takes the sphere's colour where the sphere's
    /// surface faces the same way as the height field's.
    ///
    /// The image's luma `h` (working space) is the height; with `scale` times its central-difference slope
    /// `(hx, hy)`, the surface normal is `(−hx, −hy, 1)` normalised to `(nx, ny, nz)`. The shading image, a sphere
    /// filling its extent, is read (bilinear) at its centre plus `(nx, ny)` times half its width and height. The
    /// output keeps the height field's alpha. The extent is the image's.
    public struct ShadedMaterial: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ShadedMaterial", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Shades a height field with a picture of a lit sphere.",
            .image(\.image, summary: "The height field (its luma)."),
            .image(\.shading, "shadingImage", summary: "A picture of a lit sphere filling its extent."),
            .parameter(
                "scale", \.scale, slider: 0...200, allowed: -1e5...1e5, summary: "How steep the heights are."))

        public var image: Image = .empty
        public var shading: Image = .empty
        public var scale: Double = 10

        public init() {}

        public var outputImage: Image {
            let s = shading.extent
            guard !s.isEmpty, !s.isInfinite else { return .empty }
            let k = Float(scale)
            let (cx, cy, rx, ry) = (Float(s.midX), Float(s.midY), Float(s.width / 2), Float(s.height / 2))
            let kernel = GeneralKernel(name: "shadedMaterial", inputCount: 2) { row in
                let height = row.sampler(0)
                let sphere = row.sampler(1)
                func h(_ x: Int, _ y: Int) -> Float {
                    let p = height.pixel(x: x, y: y)
                    return p.w > 0 ? (Luma.red * p.x + Luma.green * p.y + Luma.blue * p.z) / p.w : 0
                }
                for i in 0..<row.count {
                    let x = row.x + i
                    let hx = k * (h(x + 1, row.y) - h(x - 1, row.y)) / 2
                    let hy = k * (h(x, row.y + 1) - h(x, row.y - 1)) / 2
                    let n = 1 / (hx * hx + hy * hy + 1).squareRoot()
                    let alpha = height.pixel(x: x, y: row.y).w
                    row.store(sphere.sample(x: cx - hx * n * rx, y: cy - hy * n * ry) * alpha, at: i)
                }
            }
            return kernel.apply(
                extent: image.extent, inputs: [image.clampedToExtent(), shading], arguments: "scale=\(scale)"
            ) { index, rect in
                index == 0 ? rect.insetBy(dx: -1, dy: -1) : s
            }
        }
    }
}

extension Image {
    /// This height field shaded with a picture of a lit sphere (see ``Filters/ShadedMaterial``).
    public func shadedMaterial(shading: Image, scale: Double = 10) -> Image {
        applyingFilter(
            Filters.ShadedMaterial {
                $0.shading = shading
                $0.scale = scale
            })
    }
}
