public import LuxColor
public import LuxRender

extension Filters {
    /// A ``ColorCube`` whose table is indexed by, and returns, values in `colorSpace` (for example sRGB-encoded
    /// values, as most published LUTs expect).
    ///
    /// The image is matched from the working space into `colorSpace`, looked up, and matched back; the matches
    /// fuse with the look-up into one pass.
    public struct ColorCubeWithColorSpace: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorCubeWithColorSpace", displayName: "Color Cube with Color Space",
            categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Maps colour through a 3-D look-up table made for a given colour space.",
            .image(\.image), .table(\.table, filter: "ColorCubeWithColorSpace"),
            .parameter("colorSpace", \.colorSpace, summary: "The space the table's inputs and outputs are in."))

        public var image: Image = .empty
        public var table = ColorCubeTable.identity(dimension: 2)
        public var colorSpace = ColorSpace.sRGB

        public init() {}

        public var outputImage: Image {
            table.apply(to: image.matchedFromWorkingSpace(to: colorSpace)).matchedToWorkingSpace(from: colorSpace)
        }
    }
}

extension Image {
    /// The image mapped through a 3-D look-up table made for `colorSpace` (see ``Filters/ColorCubeWithColorSpace``).
    public func colorCube(_ table: ColorCubeTable, colorSpace: ColorSpace) -> Image {
        applyingFilter(
            Filters.ColorCubeWithColorSpace {
                $0.table = table
                $0.colorSpace = colorSpace
            })
    }
}
