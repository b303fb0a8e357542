public import LuxPixels
public import LuxRender

extension Filters {
    /// The mean of each row of a region, as a one-pixel-wide image at the origin (row `j` of the result is
    /// row `extent.minY + j`). Premultiplied colour is averaged; pixels outside the image count as transparent.
    public struct RowAverage: Filter {
        public static let descriptor = FilterDescriptor(
            name: "RowAverage", displayName: "Row Average",
            categories: [.reduction, .stillImage, .video, .highDynamicRange],
            summary: "The average of each row of a region, as a single column.",
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
            return LineAverage.apply(image, area: area, columns: false)
        }
    }
}

extension Image {
    /// The mean of each row of `extent` (default: the whole image) as one column (see ``Filters/RowAverage``).
    public func rowAverage(extent: Rect = .null) -> Image {
        Filters.RowAverage(image: self, extent: extent).outputImage
    }
}
