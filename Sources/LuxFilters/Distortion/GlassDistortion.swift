public import LuxPixels
public import LuxRender

extension Filters {
    /// Looks at the image through rippled glass whose relief is the texture's luma: pixels read uphill by `scale`
    /// times the slope.
    ///
    /// The texture is placed with its centre at `center`, its edge pixels extended. With `L` its Rec. 709 luma
    /// (unpremultiplied, working space, clamped to 0…1) and the slope taken by central differences,
    /// `((L(x+1, y) − L(x−1, y))/2, (L(x, y+1) − L(x, y−1))/2)`, a pixel reads the image (bilinear) at its centre plus
    /// `scale` times the slope. The extent is the image's.
    public struct GlassDistortion: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "GlassDistortion", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Distorts the image as seen through textured glass.", .image(\.image),
            .image(\.texture, "texture", coreImageName: "inputTexture", summary: "The relief of the glass (its luma)."),
            .parameter("center", \.center, summary: "Where the texture's centre lies."),
            .parameter(
                "scale", \.scale, slider: 0...500, allowed: -1e5...1e5, unit: .pixels,
                summary: "The displacement per unit of slope."))

        public var image: Image = .empty
        public var texture: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var scale: Double = 200

        public init() {}

        public var outputImage: Image {
            let t = texture.extent
            guard !t.isEmpty else { return image }
            let placed =
                t.isInfinite
                ? texture : texture.clampedToExtent().translatedBy(x: center.x - t.midX, y: center.y - t.midY)
            let k = Float(scale)
            let kernel = GeneralKernel(name: "glassDistortion", inputCount: 2) { row in
                let source = row.sampler(0)
                let relief = row.sampler(1)
                func luma(_ x: Int, _ y: Int) -> Float {
                    let p = relief.pixel(x: x, y: y)
                    let l = p.w > 0 ? (Luma.red * p.x + Luma.green * p.y + Luma.blue * p.z) / p.w : 0
                    return min(max(l, 0), 1)
                }
                let y = Float(row.y) + 0.5
                for i in 0..<row.count {
                    let x = row.x + i
                    let gx = (luma(x + 1, row.y) - luma(x - 1, row.y)) / 2
                    let gy = (luma(x, row.y + 1) - luma(x, row.y - 1)) / 2
                    row.store(source.sample(x: Float(x) + 0.5 + k * gx, y: y + k * gy), at: i)
                }
            }
            // Slopes of a luma in 0…1 are at most ½ in each direction.
            let reach = abs(scale) / 2 + 1
            return kernel.apply(
                extent: image.extent, inputs: [image, placed], arguments: "center=\(center) scale=\(scale)"
            ) { index, rect in
                index == 0 ? rect.insetBy(dx: -reach, dy: -reach) : rect.insetBy(dx: -1, dy: -1)
            }
        }
    }
}

extension Image {
    /// The image seen through glass whose relief is `texture`'s luma (see ``Filters/GlassDistortion``).
    public func glassDistortion(texture: Image, center: Point, scale: Double = 200) -> Image {
        applyingFilter(
            Filters.GlassDistortion {
                $0.texture = texture
                $0.center = center
                $0.scale = scale
            })
    }
}
