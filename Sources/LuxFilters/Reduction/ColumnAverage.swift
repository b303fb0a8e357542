public import LuxPixels
public import LuxRender

extension Filters {
    /// The mean of each column of a region, as a one-pixel-high image at the origin (column `i` of the result is
    /// column `extent.minX + i`). Premultiplied colour is averaged; pixels outside the image count as transparent.
    public struct ColumnAverage: Filter {
        public static let descriptor = FilterDescriptor(
            name: "ColumnAverage", displayName: "Column Average",
            categories: [.reduction, .stillImage, .video, .highDynamicRange],
            summary: "The average of each column of a region, as a single row.",
            parameters: [.image(), .reductionExtent])

        public var image: Image
        /// The region; empty means the image's extent.
        public var extent: Rect

        public init(image: Image, extent: Rect = .null) {
            self.image = image
            self.extent = extent
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), extent: a.rect("extent")) }

        public var outputImage: Image {
            guard let area = Reduction.area(extent, of: image) else { return .empty }
            return LineAverage.apply(image, area: area, columns: true)
        }
    }
}

extension Image {
    /// The mean of each column of `extent` (default: the whole image) as one row (see ``Filters/ColumnAverage``).
    public func columnAverage(extent: Rect = .null) -> Image {
        Filters.ColumnAverage(image: self, extent: extent).outputImage
    }
}
