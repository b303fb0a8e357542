public import LuxPixels
public import LuxRender

extension Filters {
    /// Repeats the image's extent in every direction, then applies an affine transform: an infinite wallpaper of the
    /// image, scaled, rotated or skewed.
    ///
    /// The output at `q` is the input at `T⁻¹(q)` wrapped into the input's extent, so the tiling is invariant under the
    /// translations `T(width, 0)` and `T(0, height)` (without `T`'s translation). An image of infinite or empty extent,
    /// or a transform that cannot be inverted, gives the transformed image. The extent is infinite.
    public struct AffineTile: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "AffineTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image and applies an affine transform.", .image(\.image),
            .parameter("transform", \.transform, summary: "The transform applied to the tiling."))

        public var image: Image = .empty
        public var transform: LuxPixels.AffineTransform = .identity

        public init() {}

        public var outputImage: Image {
            let e = image.extent
            guard !e.isInfinite, !e.isEmpty, let inverse = transform.inverted else {
                return image.transformed(by: transform)
            }
            let kernel = WarpKernel(name: "affineTile") { row in
                let y = Double(row.y) + 0.5
                for i in 0..<row.count {
                    let p = inverse.apply(to: Point(x: Double(row.x + i) + 0.5, y: y))
                    let u = (p.x - e.minX) / e.width
                    let v = (p.y - e.minY) / e.height
                    row.sourceX[i] = Float(e.minX + e.width * (u - u.rounded(.down)))
                    row.sourceY[i] = Float(e.minY + e.height * (v - v.rounded(.down)))
                }
            }
            // Seams read the edge pixels repeated, not the transparent outside. A rectangle reads its preimage wrapped
            // into the extent: along each axis one interval, or the whole side when the preimage crosses a seam.
            return kernel.apply(extent: .infinite, image: image.clampedToExtent(), arguments: "transform=\(transform)")
            { rect in
                let b = inverse.apply(to: rect).insetBy(dx: -1, dy: -1)
                func wrapped(_ lo: Double, _ hi: Double, _ start: Double, _ side: Double) -> (Double, Double) {
                    guard hi - lo < side else { return (start, start + side) }
                    let shift = side * ((lo - start) / side).rounded(.down)
                    return hi - shift <= start + side ? (lo - shift, hi - shift) : (start, start + side)
                }
                let (x0, x1) = wrapped(b.minX, b.maxX, e.minX, e.width)
                let (y0, y1) = wrapped(b.minY, b.maxY, e.minY, e.height)
                return Rect(minX: x0, minY: y0, maxX: x1, maxY: y1)
            }
        }
    }
}

extension Image {
    /// The image repeated in every direction and transformed (see ``Filters/AffineTile``).
    public func affineTile(_ transform: LuxPixels.AffineTransform) -> Image {
        applyingFilter(Filters.AffineTile { $0.transform = transform })
    }
}
