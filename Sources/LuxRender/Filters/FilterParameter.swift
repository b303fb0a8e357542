/// The declaration of one filter parameter: name, type, default, ranges and documentation.
public struct FilterParameter: Sendable, CustomStringConvertible {
    /// What values a parameter takes.
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        case image
        case number
        case integer
        case boolean
        /// A vector of exactly `count` numbers.
        case vector(count: Int)
        /// A list of numbers of any length (look-up tables, curves); the filter checks the length.
        case numbers
        /// `(x, y)`.
        case point
        /// `(x, y, width, height)`.
        case rect
        case color
        case transform
        /// Text; when `choices` is not empty, one of them.
        case string(choices: [String])
        /// Bytes (a barcode's message); text converts to its UTF-8 bytes.
        case data

        public var description: String {
            switch self {
            case .image: "image"
            case .number: "number"
            case .integer: "integer"
            case .boolean: "boolean"
            case .vector(let n): "vector of \(n) numbers"
            case .numbers: "list of numbers"
            case .point: "point x,y"
            case .rect: "rectangle x,y,width,height"
            case .color: "colour r,g,b[,a]"
            case .transform: "transform a,b,c,d,tx,ty"
            case .string(let c): c.isEmpty ? "string" : "one of " + c.joined(separator: ", ")
            case .data: "data (text as UTF-8)"
            }
        }
    }

    /// The unit of a numeric parameter (for user interfaces and documentation).
    public enum Unit: String, Hashable, Sendable {
        case none, pixels, degrees, radians, stops, kelvin, scale, fraction
    }

    /// How a value changes between Core Image's coordinates (origin at the bottom left, y up) and Lux's (origin at
    /// the top left, y down); ``CoreImageCoordinates`` applies it.
    public enum Geometry: Hashable, Sendable {
        /// Not geometric (colours, amounts, a hue angle).
        case none
        /// A position: a point, a rectangle, or a vector whose first two numbers are x and y.
        case position
        /// An angle from the x axis, counter-clockwise in Core Image: its sign flips.
        case angle
        /// An affine transform: conjugated by the flip.
        case transform
        /// A displacement such as a shadow's offset: its y component changes sign.
        case displacement
    }

    /// The parameter's name (`intensity`, `radius`, `image`…).
    public let name: String
    /// Its type.
    public let kind: Kind
    /// The value used when none is given; `nil` makes the parameter required.
    public let defaultValue: FilterValue?
    /// The range a slider would offer (informational).
    public let sliderRange: ClosedRange<Double>?
    /// The range values must lie in (enforced); `nil` accepts any finite number.
    public let allowedRange: ClosedRange<Double>?
    /// The unit of numbers.
    public let unit: Unit
    /// A one-sentence description.
    public let summary: String
    /// Core Image's key for the parameter (`inputBackgroundImage` for `background`); names given to a filter match
    /// it too.
    public let coreImageName: String
    /// How the value changes between Core Image's coordinates and Lux's.
    public let geometry: Geometry

    /// Creates a declaration.
    ///
    /// - Parameters:
    ///   - coreImageName: Core Image's key; `nil` derives it: `input` and the capitalised name, followed by `Image`
    ///     for images whose name does not end in it (`background` → `inputBackgroundImage`).
    ///   - geometry: `nil` derives it: points and rectangles are positions, transforms transforms, numbers in
    ///     radians angles.
    public init(
        _ name: String, kind: Kind, default defaultValue: FilterValue? = nil, slider: ClosedRange<Double>? = nil,
        allowed: ClosedRange<Double>? = nil, unit: Unit = .none, coreImageName: String? = nil,
        geometry: Geometry? = nil, summary: String
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        sliderRange = slider
        allowedRange = allowed
        self.unit = unit
        self.summary = summary
        self.coreImageName = coreImageName ?? Self.coreImageName(of: name, kind: kind)
        self.geometry = geometry ?? Self.geometry(of: kind, unit: unit)
    }

    /// `input` + the capitalised name (+ `Image` for images).
    static func coreImageName(of name: String, kind: Kind) -> String {
        let key = "input" + name.prefix(1).uppercased() + name.dropFirst()
        return kind == .image && !name.lowercased().hasSuffix("image") ? key + "Image" : key
    }

    static func geometry(of kind: Kind, unit: Unit) -> Geometry {
        switch kind {
        case .point, .rect: .position
        case .transform: .transform
        case .number where unit == .radians: .angle
        default: .none
        }
    }

    /// The same declaration with another default.
    func defaulting(to value: FilterValue?) -> FilterParameter {
        FilterParameter(
            name, kind: kind, default: value, slider: sliderRange, allowed: allowedRange, unit: unit,
            coreImageName: coreImageName, geometry: geometry, summary: summary)
    }

    /// A required image parameter (named `image` unless said otherwise).
    public static func image(_ name: String = "image", summary: String = "The image to process.") -> FilterParameter {
        FilterParameter(name, kind: .image, summary: summary)
    }

    /// A number with a default.
    public static func number(
        _ name: String, default value: Double, slider: ClosedRange<Double>? = nil, allowed: ClosedRange<Double>? = nil,
        unit: Unit = .none, summary: String
    ) -> FilterParameter {
        FilterParameter(
            name, kind: .number, default: .number(value), slider: slider, allowed: allowed, unit: unit, summary: summary
        )
    }

    public var description: String {
        func range(_ r: ClosedRange<Double>) -> String { "\(shortNumber(r.lowerBound))…\(shortNumber(r.upperBound))" }
        var s = "\(name) (\(coreImageName)): \(kind)"
        if unit != .none { s += " in \(unit.rawValue)" }
        if let d = defaultValue { s += ", default \(d)" } else { s += ", required" }
        if let r = sliderRange { s += ", slider \(range(r))" }
        if let r = allowedRange { s += ", allowed \(range(r))" }
        return s + " — " + summary
    }
}
