/// One level of an ``AlignmentPlan``, in the level's own pixels: its size, tiles, blocks and search radius.
///
/// Each block of the level's block grid is matched by the tile centred on it (tiles larger than blocks overlap).
struct AlignmentLevelPlan: Sendable {
    var downsampling: Int
    var tileSize: Int
    var blockSize: Int
    var searchRadius: Int
    var width: Int
    var height: Int
    var columns: Int { (width + blockSize - 1) / blockSize }
    var rows: Int { (height + blockSize - 1) / blockSize }

    /// The tile of block `(i, j)` clipped to the level.
    @inline(__always)
    func tile(_ i: Int, _ j: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let pad = (tileSize - blockSize) / 2
        let x0 = i * blockSize - pad
        let y0 = j * blockSize - pad
        return (max(x0, 0), max(y0, 0), min(x0 + tileSize, width), min(y0 + tileSize, height))
    }

    /// The part of a tile where central differences exist (one pixel inside the image).
    @inline(__always)
    func gradientRegion(_ t: (x0: Int, y0: Int, x1: Int, y1: Int)) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        (max(t.x0, 1), max(t.y0, 1), min(t.x1, width - 1), min(t.y1, height - 1))
    }
}
