import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the plane with the image and views the tiling in perspective: the image's extent lands on the
    /// quadrilateral `topLeft`, `topRight`, `bottomRight`, `bottomLeft`, and its copies, repeated by translation, on
    /// the quadrilaterals the same perspective makes of their rectangles.
    ///
    /// An output pixel is taken to the plane of the tiling by the projective transform that maps the quadrilateral
    /// onto the extent, wrapped into the extent and sampled there (edge pixels extended, so copies meet without a
    /// seam). Pixels at or beyond the horizon are transparent. The extent is infinite.
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
            ) { _ in e.insetBy(dx: -1, dy: -1) }
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
