public import LuxPixels
public import LuxRender

extension Filters {
    /// Blocks of `scale × scale` pixels, each one colour: the image's colour at the block's centre.
    ///
    /// The grid is aligned so that a block corner lies at `center`; each block takes the bilinear sample at its
    /// centre (as Core Image does, not the block's average). The extent is the input's.
    public struct Pixellate: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Pixellate", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Makes the image blocky.", .image(\.image),
            .parameter("center", \.center, summary: "A corner of the grid of blocks."),
            .parameter(
                "scale", \.scale, slider: 1...100, allowed: 1...1e5, unit: .pixels, summary: "The size of a block."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var scale: Double = 8

        public init() {}

        public var outputImage: Image {
            let size = max(scale, 1)
            let cx = center.x
            let cy = center.y
            let kernel = WarpKernel(name: "pixellate") { row in
                let sy = Float(((Double(row.y) + 0.5 - cy) / size).rounded(.down) * size + cy + size / 2)
                for i in 0..<row.count {
                    let cell = ((Double(row.x + i) + 0.5 - cx) / size).rounded(.down)
                    row.sourceX[i] = Float(cell * size + cx + size / 2)
                    row.sourceY[i] = sy
                }
            }
            return kernel.apply(
                extent: image.extent, image: image, arguments: "center=\(center) scale=\(scale)"
            ) { r in
                r.insetBy(dx: -size, dy: -size)
            }
        }
    }
}

extension Image {
    /// The image in blocks of `scale` pixels (see ``Filters/Pixellate``).
    public func pixellate(center: Point = Point(x: 150, y: 150), scale: Double = 8) -> Image {
        applyingFilter(
            Filters.Pixellate {
                $0.center = center
                $0.scale = scale
            })
    }
}
