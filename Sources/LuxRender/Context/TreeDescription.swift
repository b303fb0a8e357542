/// Which views of a render ``RenderContext/describe(_:bounds:format:colorSpace:detail:)`` produces —
/// the `LUX_PRINT_TREE` levels.
public struct TreeDescription: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    /// Creates a set from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The initial graph with extents and regions of interest (`LUX_PRINT_TREE=1`).
    public static let graph = TreeDescription(rawValue: 1)
    /// The fused programs after optimisation (`LUX_PRINT_TREE=8`).
    public static let programs = TreeDescription(rawValue: 8)
    /// The programs as a Graphviz `dot` graph (`LUX_PRINT_TREE="8 graphviz"`).
    public static let graphviz = TreeDescription(rawValue: 16)

    /// Parses an `LUX_PRINT_TREE` value such as `"1"`, `"8"`, `"1 8"` or `"8 graphviz"`.
    public init(environmentValue value: String) {
        var d: TreeDescription = []
        for word in value.split(whereSeparator: { $0 == " " || $0 == "," }) {
            if word == "graphviz" || word == "dot" {
                d.insert(.graphviz)
            } else if let n = Int(word) {
                if n & 1 != 0 { d.insert(.graph) }
                if n & 8 != 0 { d.insert(.programs) }
            }
        }
        if d.contains(.graphviz) { d.remove(.programs) }
        self = d
    }
}
