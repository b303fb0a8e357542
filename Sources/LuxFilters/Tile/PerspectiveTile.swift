import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the plane with the image and views the tiling in perspective: the image's extent lands on the
    /// quadrilateral `topLeft`, `topRight`, `bottomRight`, `bottomLeft`, and its copies, repeated by translation, on
    /// the quadrilaterals the same perspective makes of their rectangles.
    ///
    /// An output pixel is taken to the plane of the tiling by the projective transform that maps the quadrilateral
    /// onto the extent, wrapped into the extent and sampled there (edge pixels extended, so copies meet without a
    /// seam). Pixels at or beyond the horizon are transparent. The extent is infinite. A tile of the output reads only
    /// the part of the image its copies show: all of it only where the tile spans a copy's edge or the horizon.
    ///
    /// Seen from afar (Core Image's default corners take a 12 MP photo to about 500 pixels) every output tile shows
    /// whole copies and reads the whole image: the engine then materialises the image once for the render and every
    /// tile samples it.
    public struct PerspectiveTile: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "PerspectiveTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image and views the tiling in perspective.", .image(\.image), .corners(\.quadrilateral))

        public var image: Image = .empty
        public var quadrilateral = Quadrilateral.defaultTarget

        public init() {}

        public var outputImage: Image {
            let e = image.extent
            guard !e.isEmpty, !e.isInfinite,
                let toUnit = Homography(
                    from: quadrilateral.corners, to: Quadrilateral(Rect(x: 0, y: 0, width: 1, height: 1)).corners)
            else { return .empty }
            let projective = toUnit.warpKernel(name: "perspectiveTile")
            let (x0, y0, w, h) = (Float(e.minX), Float(e.minY), Float(e.width), Float(e.height))
            let kernel = WarpKernel(name: "perspectiveTile") { row in
                projective(row)
                for i in 0..<row.count where row.sourceX[i] > -1e8 {
                    let u = row.sourceX[i]
                    let v = row.sourceY[i]
                    row.sourceX[i] = x0 + (u - u.rounded(.down)) * w
                    row.sourceY[i] = y0 + (v - v.rounded(.down)) * h
                }
            }
            return kernel.apply(
                extent: .infinite, image: image.clampedToExtent(), arguments: "corners=\(quadrilateral.digest)"
            ) { r in Self.region(of: toUnit.apply(r), in: e) }
        }

        /// The part of extent `e` that a tile whose image in the tiling's unit coordinates is `unit` reads: per axis,
        /// the span of the one copy it lies in, or the whole side where it crosses a copy's edge (`nil`: the tile
        /// reaches the horizon).
        static func region(of unit: Rect?, in e: Rect) -> Rect {
            guard let unit else { return e.insetBy(dx: -1, dy: -1) }
            func span(_ low: Double, _ high: Double, _ origin: Double, _ length: Double) -> (Double, Double) {
                let cell = low.rounded(.down)
                guard high - cell <= 1 else { return (origin, origin + length) }
                return (origin + (low - cell) * length, origin + (high - cell) * length)
            }
            let (x0, x1) = span(unit.minX, unit.maxX, e.minX, e.width)
            let (y0, y1) = span(unit.minY, unit.maxY, e.minY, e.height)
            return Rect(minX: x0, minY: y0, maxX: x1, maxY: y1).insetBy(dx: -1, dy: -1)
        }
    }
}

extension Image {
    /// The image tiled and seen in perspective, its extent landing on `quadrilateral` (see
    /// ``Filters/PerspectiveTile``).
    public func perspectiveTile(_ quadrilateral: Quadrilateral) -> Image {
        applyingFilter(Filters.PerspectiveTile { $0.quadrilateral = quadrilateral })
    }
}
