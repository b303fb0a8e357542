public import LuxPixels

/// A parameter value passed to a filter by name (the CIFilter input value role).
///
/// Literals work where a value is expected: `["intensity": 0.8, "center": [100, 50], "image": .image(photo)]`.
public enum FilterValue: Sendable, CustomStringConvertible {
    /// A scalar (also integers and booleans given as numbers).
    case number(Double)
    /// A vector: points `(x, y)`, rectangles `(x, y, width, height)`, weights…
    case vector([Double])
    /// A colour with its colour space.
    case color(Color)
    /// An image.
    case image(Image)
    /// A 2-D affine transform.
    case transform(AffineTransform)
    /// Text (names of modes, file paths…).
    case string(String)
    /// A flag.
    case boolean(Bool)
    /// Bytes (a barcode's message).
    case data([UInt8])

    /// A point as a two-element vector.
    public static func point(_ x: Double, _ y: Double) -> FilterValue { .vector([x, y]) }

    /// A rectangle as a four-element vector `(x, y, width, height)`.
    public static func rect(_ r: Rect) -> FilterValue { .vector([r.minX, r.minY, r.width, r.height]) }

    /// The kind of value, for error messages.
    public var typeName: String {
        switch self {
        case .number: "number"
        case .vector(let v): "vector of \(v.count)"
        case .color: "colour"
        case .image: "image"
        case .transform: "transform"
        case .string: "string"
        case .boolean: "boolean"
        case .data(let d): "data of \(d.count) bytes"
        }
    }

    public var description: String {
        switch self {
        case .number(let v): shortNumber(v)
        case .vector(let v): "[" + v.map(shortNumber).joined(separator: " ") + "]"
        case .color(let c): c.description
        case .image(let i): i.description
        case .transform(let t): t.description
        case .string(let s): s
        case .boolean(let b): b ? "true" : "false"
        case .data(let d): String(decoding: d, as: UTF8.self)
        }
    }
}

extension FilterValue: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral
{
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: Double...) { self = .vector(elements) }
}
