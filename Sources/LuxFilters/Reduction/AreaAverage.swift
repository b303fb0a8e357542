public import LuxPixels
public import LuxRender

extension Filters {
    /// The mean colour of a region, as a one-pixel image at (0, 0).
    ///
    /// Premultiplied colour is averaged over every pixel of `extent` (pixels outside the image count as
    /// transparent), so the result is what a large blur would give at the centre. Render it with `colorSpace:
    /// nil` for working-space values.
    public struct AreaAverage: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "AreaAverage", categories: [.reduction, .stillImage, .video, .highDynamicRange],
            summary: "The average colour of a region, as a single pixel.", .image(\.image), .reductionExtent(\.extent))

        public var image: Image = .empty
        /// The region to average; empty means the image's extent.
        public var extent: Rect = .zero

        public init() {}

        public var outputImage: Image {
            guard let area = Reduction.area(extent, of: image) else { return .empty }
            let count = Double(area.width * area.height)
            let processor = Reduction.rowwise("areaAverage", argumentDigest: "\(area)", area: area) {
                Reduction.channelSums($0, $1)
            } finish: { rows, output in
                var total = SIMD4<Double>()
                for j in 0..<(rows.count / 4) { total += Reduction.rowValue(rows, j) }
                Reduction.store(total / count, output)
            }
            return processor.apply(to: [image], extent: Rect(width: 1, height: 1))
        }
    }
}

extension Image {
    /// The mean colour of `extent` (default: the whole image) as a one-pixel image (see ``Filters/AreaAverage``).
    public func areaAverage(extent: Rect = .null) -> Image {
        applyingFilter(Filters.AreaAverage { $0.extent = extent })
    }
}
