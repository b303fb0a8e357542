/// A catalogue of filters by name and category.
///
/// A registry is a value: extend one with ``adding(_:)``. LuxFilters provides `FilterRegistry.builtIn`
/// and `Image.applyingFilter(_:parameters:)` on top of it.
///
/// ```swift
/// let registry = FilterRegistry.builtIn.adding(Posterize.self)
/// let out = try registry.apply("Posterize", to: photo, parameters: ["levels": 4])
/// for name in registry.names(in: .blur) { print(name) }
/// ```
public struct FilterRegistry: Sendable {
    private var types: [String: any Filter.Type] = [:]
    /// Lux names by lower-cased Lux name and by lower-cased Core Image name.
    private var lowercasedNames: [String: String] = [:]

    /// Creates a registry holding `filters`.
    public init(_ filters: [any Filter.Type] = []) {
        for f in filters { add(f) }
    }

    /// A registry with `filters` added (replacing filters of the same name).
    public func adding(_ filters: any Filter.Type...) -> FilterRegistry {
        var r = self
        for f in filters { r.add(f) }
        return r
    }

    private mutating func add(_ filter: any Filter.Type) {
        let d = filter.descriptor
        types[d.name] = filter
        lowercasedNames[d.name.lowercased()] = d.name
        lowercasedNames[d.coreImageName.lowercased()] = d.name
    }

    /// Every filter name, sorted.
    public var names: [String] { types.keys.sorted() }

    /// Every descriptor, sorted by name.
    public var descriptors: [FilterDescriptor] { names.map { types[$0]!.descriptor } }

    /// The names of filters in `category`, sorted.
    public func names(in category: FilterCategory) -> [String] {
        names.filter { types[$0]!.descriptor.categories.contains(category) }
    }

    /// Every category some filter is in, sorted.
    public var categories: [FilterCategory] {
        Set(types.values.flatMap { $0.descriptor.categories }).sorted()
    }

    /// The filter type called `name`: its Lux name, its Core Image name (``FilterDescriptor/coreImageName``, such as
    /// `CIEdgePreserveUpsampleFilter`), the Lux name with Core Image's `CI` prefix, in any letter case.
    ///
    /// - Throws: ``FilterError/unknownFilter(_:available:)`` listing the names.
    public func filterType(named name: String) throws(FilterError) -> any Filter.Type {
        if let t = types[name] { return t }
        let stripped = name.hasPrefix("CI") ? String(name.dropFirst(2)) : name
        for key in [name.lowercased(), stripped.lowercased()] {
            if let luxName = lowercasedNames[key], let t = types[luxName] { return t }
        }
        throw .unknownFilter(name, available: names)
    }

    /// The descriptor of the filter called `name`.
    public func descriptor(named name: String) throws(FilterError) -> FilterDescriptor {
        try filterType(named: name).descriptor
    }

    /// Creates the filter called `name` from name–value pairs.
    public func makeFilter(_ name: String, parameters: [String: FilterValue]) throws(FilterError) -> any Filter {
        let t = try filterType(named: name)
        return try t.init(arguments: FilterArguments(t.descriptor, parameters))
    }

    /// Applies the filter called `name` to `image` (passed as its `image` parameter; `nil` for generators).
    public func apply(_ name: String, to image: Image?, parameters: [String: FilterValue] = [:]) throws(FilterError)
        -> Image
    {
        var p = parameters
        if let image, p["image"] == nil, p["inputImage"] == nil { p["image"] = .image(image) }
        return try makeFilter(name, parameters: p).outputImage
    }
}

extension Image {
    /// Applies the filter called `name` from `registry`, with this image as its `image` parameter.
    public func applyingFilter(
        _ name: String, parameters: [String: FilterValue] = [:], registry: FilterRegistry
    ) throws(FilterError) -> Image {
        try registry.apply(name, to: self, parameters: parameters)
    }
}
