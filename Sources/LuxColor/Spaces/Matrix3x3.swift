/// A 3×3 matrix of `Double`, stored row-major, used for colour-space conversions.
///
/// Colour matrices are derived in `Double` from primaries and white points, then narrowed to
/// `Float` only where a pixel loop needs them.
public struct Matrix3x3: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The nine entries in row-major order.
    public var entries: [Double]

    /// Creates a matrix from three rows.
    public init(rows: [[Double]]) {
        precondition(rows.count == 3 && rows.allSatisfy { $0.count == 3 }, "a 3×3 matrix needs three rows of three")
        entries = rows.flatMap { $0 }
    }

    /// Creates a matrix from nine entries in row-major order.
    public init(_ entries: [Double]) {
        precondition(entries.count == 9, "a 3×3 matrix needs nine entries")
        self.entries = entries
    }

    /// Creates a matrix whose columns are the given vectors.
    public init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        entries = [c0.x, c1.x, c2.x, c0.y, c1.y, c2.y, c0.z, c1.z, c2.z]
    }

    /// The identity matrix.
    public static let identity = Matrix3x3([1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// A diagonal matrix.
    public static func diagonal(_ d: SIMD3<Double>) -> Matrix3x3 {
        Matrix3x3([d.x, 0, 0, 0, d.y, 0, 0, 0, d.z])
    }

    /// The entry at `row`, `column`.
    public subscript(row: Int, column: Int) -> Double {
        get { entries[row * 3 + column] }
        set { entries[row * 3 + column] = newValue }
    }

    /// The row at `index` as a vector.
    public func row(_ index: Int) -> SIMD3<Double> {
        SIMD3(entries[index * 3], entries[index * 3 + 1], entries[index * 3 + 2])
    }

    /// The determinant.
    public var determinant: Double {
        let e = entries
        return e[0] * (e[4] * e[8] - e[5] * e[7]) - e[1] * (e[3] * e[8] - e[5] * e[6])
            + e[2] * (e[3] * e[7] - e[4] * e[6])
    }

    /// The inverse, or `nil` when the matrix is singular.
    public var inverse: Matrix3x3? {
        let e = entries
        let det = determinant
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        let inv = 1 / det
        return Matrix3x3([
            (e[4] * e[8] - e[5] * e[7]) * inv, (e[2] * e[7] - e[1] * e[8]) * inv, (e[1] * e[5] - e[2] * e[4]) * inv,
            (e[5] * e[6] - e[3] * e[8]) * inv, (e[0] * e[8] - e[2] * e[6]) * inv, (e[2] * e[3] - e[0] * e[5]) * inv,
            (e[3] * e[7] - e[4] * e[6]) * inv, (e[1] * e[6] - e[0] * e[7]) * inv, (e[0] * e[4] - e[1] * e[3]) * inv,
        ])
    }

    /// The transpose.
    public var transposed: Matrix3x3 {
        let e = entries
        return Matrix3x3([e[0], e[3], e[6], e[1], e[4], e[7], e[2], e[5], e[8]])
    }

    /// The matrix product `lhs · rhs` (apply `rhs` first).
    public static func * (lhs: Matrix3x3, rhs: Matrix3x3) -> Matrix3x3 {
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 {
                out[r * 3 + c] = lhs[r, 0] * rhs[0, c] + lhs[r, 1] * rhs[1, c] + lhs[r, 2] * rhs[2, c]
            }
        }
        return Matrix3x3(out)
    }

    /// The matrix applied to a column vector.
    public static func * (lhs: Matrix3x3, rhs: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(
            (lhs.row(0) * rhs).sum(),
            (lhs.row(1) * rhs).sum(),
            (lhs.row(2) * rhs).sum())
    }

    /// The matrix scaled entry by entry.
    public static func * (lhs: Double, rhs: Matrix3x3) -> Matrix3x3 {
        Matrix3x3(rhs.entries.map { $0 * lhs })
    }

    /// The entry-wise sum.
    public static func + (lhs: Matrix3x3, rhs: Matrix3x3) -> Matrix3x3 {
        Matrix3x3(zip(lhs.entries, rhs.entries).map { $0 + $1 })
    }

    /// The largest absolute difference between corresponding entries.
    public func maxDifference(to other: Matrix3x3) -> Double {
        zip(entries, other.entries).map { abs($0 - $1) }.max() ?? 0
    }

    /// Whether the matrix is the identity to within `tolerance`.
    public func isIdentity(tolerance: Double = 1e-9) -> Bool {
        maxDifference(to: .identity) <= tolerance
    }

    public var description: String {
        (0..<3).map { r in "[" + (0..<3).map { c in String(self[r, c]) }.joined(separator: ", ") + "]" }
            .joined(separator: "\n")
    }
}
