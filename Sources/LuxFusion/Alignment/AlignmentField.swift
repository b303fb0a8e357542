/// Where each block of a reference frame is found in another frame: a field of translations, one per block.
///
/// Block `(column, row)` covers the reference pixels `column·blockSize ..< (column+1)·blockSize` (and the same
/// rows); its content is found in the aligned frame at that position plus ``displacement(column:row:)``.
/// Displacements and block sizes are in the frame's own pixels (raw photosites for Bayer frames).
public struct AlignmentField: Hashable, Sendable {
    /// The side of a block in pixels.
    public let blockSize: Int
    /// Blocks per row.
    public let columns: Int
    /// Rows of blocks.
    public let rows: Int
    /// Displacements row by row (`columns × rows`), in pixels.
    public internal(set) var displacements: [SIMD2<Float>]
    /// How well the reference texture of each block pins its displacement down: 0 (flat, the displacement is a
    /// guess) … 1 (strong texture in both directions, relative to the noise).
    public internal(set) var confidences: [Float]

    /// Creates a field (every displacement zero, every confidence one).
    public init(blockSize: Int, columns: Int, rows: Int) {
        precondition(blockSize > 0 && columns > 0 && rows > 0)
        self.blockSize = blockSize
        self.columns = columns
        self.rows = rows
        displacements = Array(repeating: .zero, count: columns * rows)
        confidences = Array(repeating: 1, count: columns * rows)
    }

    /// Creates a field from its values.
    ///
    /// - Precondition: both arrays hold `columns × rows` values.
    public init(blockSize: Int, columns: Int, rows: Int, displacements: [SIMD2<Float>], confidences: [Float]) {
        precondition(displacements.count == columns * rows && confidences.count == columns * rows)
        self.blockSize = blockSize
        self.columns = columns
        self.rows = rows
        self.displacements = displacements
        self.confidences = confidences
    }

    /// The displacement of block `(column, row)`.
    public func displacement(column: Int, row: Int) -> SIMD2<Float> { displacements[row * columns + column] }

    /// The centre of block `(column, row)` in reference pixels.
    public func blockCenter(column: Int, row: Int) -> SIMD2<Float> {
        SIMD2(Float(column) + 0.5, Float(row) + 0.5) * Float(blockSize)
    }

    /// The displacement at a reference position, interpolated bilinearly between block centres.
    public func displacement(atX x: Float, y: Float) -> SIMD2<Float> {
        let fx = min(max(x / Float(blockSize) - 0.5, 0), Float(columns - 1))
        let fy = min(max(y / Float(blockSize) - 0.5, 0), Float(rows - 1))
        let x0 = Int(fx)
        let y0 = Int(fy)
        let x1 = min(x0 + 1, columns - 1)
        let y1 = min(y0 + 1, rows - 1)
        let ax = fx - Float(x0)
        let ay = fy - Float(y0)
        let top = displacement(column: x0, row: y0) * (1 - ax) + displacement(column: x1, row: y0) * ax
        let bottom = displacement(column: x0, row: y1) * (1 - ax) + displacement(column: x1, row: y1) * ax
        return top * (1 - ay) + bottom * ay
    }

    /// The field with displacements multiplied by `factor` and blocks `factor` times larger (for a frame
    /// analysed at reduced resolution).
    func scaled(by factor: Int) -> AlignmentField {
        AlignmentField(
            blockSize: blockSize * factor, columns: columns, rows: rows,
            displacements: displacements.map { $0 * Float(factor) }, confidences: confidences)
    }
}
