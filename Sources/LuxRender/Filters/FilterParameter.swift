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
            }
        }
    }

    /// The unit of a numeric parameter (for user interfaces and documentation).
    public enum Unit: String, Hashable, Sendable {
        case none, pixels, degrees, radians, stops, kelvin, scale, fraction
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

    /// Creates a declaration.
    public init(
        _ name: String, kind: Kind, default defaultValue: FilterValue? = nil, slider: ClosedRange<Double>? = nil,
        allowed: ClosedRange<Double>? = nil, unit: Unit = .none, summary: String
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        sliderRange = slider
        allowedRange = allowed
        self.unit = unit
        self.summary = summary
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
        var s = "\(name): \(kind)"
        if unit != .none { s += " in \(unit.rawValue)" }
        if let d = defaultValue { s += ", default \(d)" } else { s += ", required" }
        if let r = sliderRange { s += ", slider \(range(r))" }
        if let r = allowedRange { s += ", allowed \(range(r))" }
        return s + " — " + summary
    }
}
