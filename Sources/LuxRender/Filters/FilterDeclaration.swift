/// The one statement of a ``DeclaredFilter``'s name, categories and parameters.
///
/// Each parameter is bound to the property that stores it by a key path; its type comes from the property's type
/// (``FilterParameterValue``) and its default from the property's initial value, so the declaration states only
/// the name and what the property cannot: ranges, unit and a summary. From it come the filter's
/// ``FilterDescriptor``, `init(arguments:)` and the Core Image keys its parameters answer to.
public struct FilterDeclaration<F: DeclaredFilter>: Sendable {
    /// What the filter is, with every parameter's default read from `F()`.
    public let descriptor: FilterDescriptor
    private let parameters: [Parameter]
    /// The property of the parameter called `image` (filters in a chain receive the previous output there).
    public let imageInput: (any WritableKeyPath<F, Image> & Sendable)?

    /// Declares a filter.
    ///
    /// - Parameters:
    ///   - name: The name filters are looked up by (Core Image's without the `CI` prefix).
    ///   - displayName: A name for people; `nil` spaces the name's words (``FilterDescriptor/displayName(for:)``).
    ///   - coreImageName: Core Image's name; `nil` means `CI` followed by `name`.
    ///   - categories: The categories the filter is listed under.
    ///   - summary: One sentence on what it does.
    ///   - parameters: The parameters in order.
    public init(
        _ name: String, displayName: String? = nil, coreImageName: String? = nil, categories: Set<FilterCategory>,
        summary: String, _ parameters: Parameter...
    ) {
        let prototype = F()
        self.parameters = parameters
        imageInput = parameters.lazy.compactMap(\.imageInput).first
        descriptor = FilterDescriptor(
            name: name, displayName: displayName ?? FilterDescriptor.displayName(for: name), categories: categories,
            summary: summary,
            parameters: parameters.flatMap { $0.declarations(prototype) }, coreImageName: coreImageName)
    }

    /// A filter with every parameter set from `arguments`.
    func filter(from arguments: FilterArguments) throws(FilterError) -> F {
        var f = F()
        for p in parameters { try p.assign(arguments, &f) }
        return f
    }
}

extension FilterDeclaration {
    /// One or more parameters of a declaration and the property they are stored in.
    public struct Parameter: Sendable {
        let declarations: @Sendable (_ prototype: F) -> [FilterParameter]
        let assign: @Sendable (FilterArguments, inout F) throws(FilterError) -> Void
        let imageInput: (any WritableKeyPath<F, Image> & Sendable)?

        /// A parameter stored in the property at `keyPath`; its kind comes from the property's type and its default
        /// from the property's initial value.
        ///
        /// - Parameters:
        ///   - name: The parameter's name (Core Image's key without `input`, first letter lower-cased).
        ///   - keyPath: The property.
        ///   - required: Whether a value must be given (the initial value is then a placeholder, not a default).
        ///   - slider: The range a slider would offer.
        ///   - allowed: The range values must lie in; `nil` accepts any finite number.
        ///   - unit: The unit of numbers; `nil` means the type's (pixels for points and rectangles).
        ///   - coreImageName: Core Image's key when it is not `input` + the capitalised name.
        ///   - geometry: How the value changes with Core Image's coordinates when the kind does not tell.
        ///   - summary: One sentence on the parameter.
        public static func parameter<V: FilterParameterValue>(
            _ name: String, _ keyPath: any WritableKeyPath<F, V> & Sendable, required: Bool = false,
            slider: ClosedRange<Double>? = nil, allowed: ClosedRange<Double>? = nil, unit: FilterParameter.Unit? = nil,
            coreImageName: String? = nil, geometry: FilterParameter.Geometry? = nil, summary: String
        ) -> Parameter {
            Parameter(
                declarations: { prototype in
                    let value = prototype[keyPath: keyPath]
                    return [
                        FilterParameter(
                            name, kind: V.parameterKind(default: value), default: required ? nil : value.filterValue,
                            slider: slider, allowed: allowed, unit: unit ?? V.defaultUnit, coreImageName: coreImageName,
                            geometry: geometry, summary: summary)
                    ]
                },
                assign: { arguments, filter in filter[keyPath: keyPath] = V(checked: arguments[name]) },
                imageInput: nil)
        }

        /// An image input (required).
        ///
        /// - Parameters:
        ///   - keyPath: The property.
        ///   - name: The parameter's name; the main input is `image`.
        ///   - coreImageName: Core Image's key when it is not `input` + the capitalised name (+ `Image`).
        ///   - summary: One sentence on the input.
        public static func image(
            _ keyPath: any WritableKeyPath<F, Image> & Sendable, _ name: String = "image", coreImageName: String? = nil,
            summary: String = "The image to process."
        ) -> Parameter {
            Parameter(
                declarations: { _ in
                    [FilterParameter(name, kind: .image, coreImageName: coreImageName, summary: summary)]
                },
                assign: { arguments, filter in filter[keyPath: keyPath] = arguments.image(name) },
                imageInput: name == "image" ? keyPath : nil)
        }

        /// Several parameters declared as one, in order: a group that filters of one family share.
        ///
        /// A family's filters store the shared values in one property and declare them with one group built from
        /// key paths through it (`\.lattice.center`), so each filter states only what sets it apart.
        ///
        /// - Parameter parameters: The parameters, in the order they are listed.
        public static func group(_ parameters: [Parameter]) -> Parameter {
            Parameter(
                declarations: { prototype in parameters.flatMap { $0.declarations(prototype) } },
                assign: { arguments, filter throws(FilterError) in
                    for p in parameters { try p.assign(arguments, &filter) }
                },
                imageInput: parameters.lazy.compactMap(\.imageInput).first)
        }

        /// Parameters stored together in one property, such as a table given as a size and its values, or a value
        /// that needs checking.
        ///
        /// - Parameters:
        ///   - keyPath: The property.
        ///   - parameters: The parameters; their defaults are ignored (they come from `values`).
        ///   - values: The parameters' values for a value of the property, in order (the defaults, from the initial
        ///     value).
        ///   - make: The property's value from the checked arguments.
        public static func combined<V: Sendable>(
            _ keyPath: any WritableKeyPath<F, V> & Sendable, _ parameters: [FilterParameter],
            values: @escaping @Sendable (V) -> [FilterValue],
            make: @escaping @Sendable (FilterArguments) throws(FilterError) -> V
        ) -> Parameter {
            Parameter(
                declarations: { prototype in
                    zip(parameters, values(prototype[keyPath: keyPath])).map { $0.defaulting(to: $1) }
                },
                assign: { arguments, filter throws(FilterError) in filter[keyPath: keyPath] = try make(arguments) },
                imageInput: nil)
        }
    }
}
