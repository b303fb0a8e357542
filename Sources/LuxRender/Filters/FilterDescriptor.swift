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
    /// Core Image's name for the filter (`CISepiaTone`); the registry finds the filter by it too.
    public let coreImageName: String

    /// Creates a descriptor.
    ///
    /// - Parameter coreImageName: Core Image's name; `nil` means `CI` followed by `name`.
    public init(
        name: String, displayName: String, categories: Set<FilterCategory>, summary: String,
        parameters: [FilterParameter], coreImageName: String? = nil
    ) {
        self.name = name
        self.displayName = displayName
        self.categories = categories.union([.builtIn])
        self.summary = summary
        self.parameters = parameters
        self.coreImageName = coreImageName ?? "CI" + name
    }

    /// The name's words spaced: `ColorDodgeBlendMode` → `Color Dodge Blend Mode`, `CMYKHalftone` → `CMYK Halftone`.
    public static func displayName(for name: String) -> String {
        let c = Array(name)
        var out = ""
        for (i, ch) in c.enumerated() {
            if i > 0, ch.isUppercase {
                let afterLower = !c[i - 1].isUppercase
                let endsAcronym = c[i - 1].isUppercase && i + 1 < c.count && c[i + 1].isLowercase
                if afterLower || endsAcronym { out += " " }
            }
            out.append(ch)
        }
        return out
    }

    /// The parameter called `name`.
    public func parameter(named name: String) -> FilterParameter? { parameters.first { $0.name == name } }

    /// Whether the filter reads an image called `image` (filters in a chain receive the previous output there).
    public var takesImage: Bool { parameter(named: "image")?.kind == .image }

    public var description: String {
        "\(name) (Core Image: \(coreImageName)) — \(summary)\n" + parameters.map { "  \($0)" }.joined(separator: "\n")
    }
}
