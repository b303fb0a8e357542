/// How a grid image of a HEIF file is tiled: rows and columns of coded images of one size, cropped to the output size.
///
/// iPhones store every photo as a grid of 512 × 512 HEVC tiles; other cameras use a few large tiles. The layout
/// describes the stored image, before its transforms (`irot`, `imir`, `clap`): an iPhone photo taken upright is a
/// 4032 × 3024 grid shown as 3024 × 4032.
///
/// ```swift
/// let info = try ImageFile.info(url: URL(fileURLWithPath: "IMG_0001.HEIC"))
/// if let grid = info.heif?.images.first?.grid {
///     print("\(grid.columns) × \(grid.rows) tiles of \(grid.tileWidth) × \(grid.tileHeight) \(grid.tileCodec)")
/// }
/// ```
public struct HEIFGridLayout: Hashable, Sendable, Codable {
    /// The number of rows of tiles.
    public var rows: Int
    /// The number of columns of tiles.
    public var columns: Int
    /// The width of every tile (its `ispe`).
    public var tileWidth: Int
    /// The height of every tile.
    public var tileHeight: Int
    /// The item type of the tiles: `hvc1` (HEVC), `av01` (AV1) or another.
    public var tileCodec: String
    /// The width of the grid's output: the tiles laid side by side, cropped on the right to this width.
    public var width: Int
    /// The height of the grid's output, cropped at the bottom.
    public var height: Int

    /// Creates a layout.
    public init(
        rows: Int, columns: Int, tileWidth: Int, tileHeight: Int, tileCodec: String, width: Int, height: Int
    ) {
        self.rows = rows
        self.columns = columns
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.tileCodec = tileCodec
        self.width = width
        self.height = height
    }
}
