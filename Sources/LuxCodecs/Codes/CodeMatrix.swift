/// The modules of a code symbol: a grid of dark and light cells, one per module, with no quiet zone.
///
/// Linear codes are one row of bars; PDF417 has its rows several modules tall, as zxing-cpp lays them out.
public struct CodeMatrix: Sendable, Hashable {
    /// Modules across.
    public let width: Int
    /// Modules down.
    public let height: Int
    /// `width × height` flags, row by row from the top left; `true` is a dark module.
    public let modules: [Bool]

    /// Creates a matrix.
    ///
    /// - Precondition: `modules.count == width · height`.
    public init(width: Int, height: Int, modules: [Bool]) {
        precondition(modules.count == width * height, "a \(width) × \(height) matrix needs \(width * height) modules")
        self.width = width
        self.height = height
        self.modules = modules
    }

    /// Whether module `(x, y)` is dark.
    public subscript(x: Int, y: Int) -> Bool { modules[y * width + x] }
}
