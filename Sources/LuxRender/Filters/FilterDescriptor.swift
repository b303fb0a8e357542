/// What a filter is: its name, categories and parameters (the CIFilter attributes dictionary role).
public struct FilterDescriptor: Sendable, CustomStringConvertible {
    /// The name filters are looked up by (`SepiaTone`).
    public let name: String
    /// A name for people (`Sepia Tone`).
    public let displayName: String
    /// The categories the filter is listed under.
    public let categories: Set<FilterCategory>
    /// One sentence on what it does.
    public let summary: String
    /// The parameters in declaration order.
    public let parameters: [FilterParameter]

    /// Creates a descriptor.
    public init(
        name: String, displayName: String, categories: Set<FilterCategory>, summary: String,
        parameters: [FilterParameter]
    ) {
        self.name = name
        self.displayName = displayName
        self.categories = categories.union([.builtIn])
        self.summary = summary
        self.parameters = parameters
    }

    /// The parameter called `name`.
    public func parameter(named name: String) -> FilterParameter? { parameters.first { $0.name == name } }

    /// Whether the filter reads an image called `image` (filters in a chain receive the previous output there).
    public var takesImage: Bool { parameter(named: "image")?.kind == .image }

    public var description: String {
        "\(name) — \(summary)\n" + parameters.map { "  \($0)" }.joined(separator: "\n")
    }
}
