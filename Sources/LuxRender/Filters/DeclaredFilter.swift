/// A filter whose parameters are stated once, in a ``FilterDeclaration`` that binds each to the property storing it.
///
/// The descriptor, `init(arguments:)`, the defaults (the properties' initial values) and the Core Image keys all
/// come from the declaration, so a filter is its properties, its declaration and its `outputImage`:
///
/// ```swift
/// public struct Posterize: DeclaredFilter {
///     public static let declaration = FilterDeclaration<Self>(
///         "Posterize", categories: [.colorEffect], summary: "Reduces each channel to a number of levels.",
///         .image(\.image),
///         .parameter("levels", \.levels, slider: 2...30, allowed: 2...256, summary: "Levels per channel."))
///
///     public var image = Image.empty
///     public var levels = 6.0
///
///     public init() {}
///
///     public var outputImage: Image { … }
/// }
///
/// var posterize = Posterize()
/// posterize.image = photo
/// posterize.levels = 4
/// let poster = posterize.outputImage                          // typed, as Core Image's CIFilterBuiltins
/// let same = photo.applyingFilter(Posterize { $0.levels = 4 })   // configured in place
/// ```
public protocol DeclaredFilter: Filter {
    /// The filter with every parameter at its default (image inputs empty).
    init()
    /// The filter's name, categories, summary and parameters.
    static var declaration: FilterDeclaration<Self> { get }
}

extension DeclaredFilter {
    public static var descriptor: FilterDescriptor { declaration.descriptor }

    public init(arguments: FilterArguments) throws(FilterError) {
        self = try Self.declaration.filter(from: arguments)
    }

    /// The filter with its defaults changed by `configure`.
    ///
    /// ```swift
    /// let twirl = Filters.TwirlDistortion { $0.image = photo; $0.angle = 2 }.outputImage
    /// ```
    public init(_ configure: (inout Self) -> Void) {
        self.init()
        configure(&self)
    }
}

extension Image {
    /// The output of `filter` with this image as its main input (its parameter called `image`).
    ///
    /// ```swift
    /// let pixels = photo.applyingFilter(Filters.Pixellate { $0.scale = 16 })
    /// ```
    public func applyingFilter<F: DeclaredFilter>(_ filter: F) -> Image {
        var f = filter
        if let input = F.declaration.imageInput { f[keyPath: input] = self }
        return f.outputImage
    }
}
