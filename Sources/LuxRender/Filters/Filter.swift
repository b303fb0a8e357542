/// A named, parameterised image operation (the CIFilter role).
///
/// Conforming types are values with typed properties (the Swift API) that can also be built by name
/// from loosely typed parameters (the registry, the CLI's `--chain`, adjustment data):
///
/// ```swift
/// public struct Posterize: Filter {
///     public static let descriptor = FilterDescriptor(
///         name: "Posterize", displayName: "Posterize", categories: [.colorEffect],
///         summary: "Reduces each channel to a number of levels.",
/// parameters: [.image(), .number("levels", default: 6, slider: 2...30, allowed: 2...256, summary: "Levels.")])
///     public var image: Image
///     public var levels: Double
///     public init(arguments a: FilterArguments) { image = a.image(); levels = a.number("levels") }
///     public var outputImage: Image { … }
/// }
/// ```
///
/// Declare filters as ``DeclaredFilter``s, which state each parameter once and get the descriptor and
/// `init(arguments:)` from that; conform to `Filter` directly only when the parameters need a shape a
/// ``FilterDeclaration`` cannot express. Build `outputImage` from ``ColorKernel``s, ``GeneralKernel``s,
/// ``ImageProcessor``s and ``Image`` operations; it must not render anything.
public protocol Filter: Sendable {
    /// Name, categories and parameters.
    static var descriptor: FilterDescriptor { get }
    /// Creates the filter from validated arguments.
    init(arguments: FilterArguments) throws(FilterError)
    /// The result (a lazy recipe).
    var outputImage: Image { get }
}

extension Filter {
    /// Creates the filter from name–value pairs (validated against ``descriptor``).
    public init(parameters: [String: FilterValue]) throws(FilterError) {
        try self.init(arguments: FilterArguments(Self.descriptor, parameters))
    }
}
