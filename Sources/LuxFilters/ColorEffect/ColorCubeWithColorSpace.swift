public import LuxColor
public import LuxRender

extension Filters {
    /// A ``ColorCube`` whose table is indexed by, and returns, values in `colorSpace` (for example sRGB-encoded
    /// values, as most published LUTs expect).
    ///
    /// The image is matched from the working space into `colorSpace`, looked up, and matched back; the matches
    /// fuse with the look-up into one pass.
    public struct ColorCubeWithColorSpace: Filter {
        public static let descriptor = FilterDescriptor(
            name: "ColorCubeWithColorSpace", displayName: "Color Cube with Color Space",
            categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Maps colour through a 3-D look-up table made for a given colour space.",
            parameters: [
                .image(),
                .integer(
                    "cubeDimension", default: 2, slider: 2...64, allowed: 2...128,
                    summary: "Entries along each axis of the table."),
                FilterParameter(
                    "cubeData", kind: .numbers, default: .vector(ColorCubeTable.identity(dimension: 2).values),
                    summary: "dimension³ RGBA entries, red fastest, then green, then blue."),
                FilterParameter(
                    "colorSpace", kind: .string(choices: ColorSpace.shortNames.keys.sorted()), default: "srgb",
                    summary: "The space the table's inputs and outputs are in."),
            ])

        public var image: Image
        public var table: ColorCubeTable
        public var colorSpace: ColorSpace

        public init(image: Image, table: ColorCubeTable, colorSpace: ColorSpace = .sRGB) {
            self.image = image
            self.table = table
            self.colorSpace = colorSpace
        }

        public init(arguments a: FilterArguments) throws(FilterError) {
            let table = try ColorCubeTable(
                dimension: a.integer("cubeDimension"), values: a.vector("cubeData"), filter: Self.descriptor.name)
            self.init(image: a.image(), table: table, colorSpace: ColorSpace.named(a.string("colorSpace")) ?? .sRGB)
        }

        public var outputImage: Image {
            table.apply(to: image.matchedFromWorkingSpace(to: colorSpace)).matchedToWorkingSpace(from: colorSpace)
        }
    }
}

extension Image {
    /// The image mapped through a 3-D look-up table made for `colorSpace` (see ``Filters/ColorCubeWithColorSpace``).
    public func colorCube(_ table: ColorCubeTable, colorSpace: ColorSpace) -> Image {
        Filters.ColorCubeWithColorSpace(image: self, table: table, colorSpace: colorSpace).outputImage
    }
}
