public import LuxPixels
public import LuxRender

extension Filters {
    /// Hexagons of one colour each: the image's colour at the hexagon's centre.
    ///
    /// The centres form a hexagonal lattice with rows along x, `scale` pixels between neighbouring centres and one
    /// centre at `center`; every pixel takes the bilinear sample at the centre nearest to it (so the cells are the
    /// lattice's hexagons, with corners up and down). The extent is the input's.
    public struct HexagonalPixelate: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "HexagonalPixelate", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Makes the image out of hexagons of one colour.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of one hexagon."),
            .parameter(
                "scale", \.scale, slider: 1...100, allowed: 1...1e5, unit: .pixels,
                summary: "The distance between neighbouring hexagons' centres."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var scale: Double = 8

        public init() {}

        public var outputImage: Image {
            let size = max(scale, 1)
            let c = center
            let kernel = WarpKernel(name: "hexagonalPixelate") { row in
                let v = (Double(row.y) + 0.5 - c.y) / size
                for i in 0..<row.count {
                    let (hu, hv) = HexagonalLattice.nearest((Double(row.x + i) + 0.5 - c.x) / size, v)
                    row.sourceX[i] = Float(c.x + hu * size)
                    row.sourceY[i] = Float(c.y + hv * size)
                }
            }
            return kernel.apply(extent: image.extent, image: image, arguments: "center=\(center) scale=\(scale)") {
                $0.insetBy(dx: -size, dy: -size)
            }
        }
    }
}

extension Image {
    /// The image in hexagons `scale` pixels apart (see ``Filters/HexagonalPixelate``).
    public func hexagonalPixelate(center: Point = Point(x: 150, y: 150), scale: Double = 8) -> Image {
        applyingFilter(
            Filters.HexagonalPixelate {
                $0.center = center
                $0.scale = scale
            })
    }
}
