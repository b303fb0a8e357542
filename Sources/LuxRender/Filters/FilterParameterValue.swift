public import LuxColor
public import LuxPixels

/// A Swift type a declared filter can store a parameter in (see ``FilterDeclaration``).
///
/// The type decides the parameter's ``FilterParameter/Kind`` and converts to and from ``FilterValue``. Lux provides
/// conformances for `Double` (numbers), `Int` (integers), `Bool`, `String`, `[UInt8]` (data), ``Point``, ``Rect``,
/// ``Color``, ``AffineTransform``, ``Image``, `SIMD2/3/4<Double>` and `[Double]` (vectors whose length is the
/// default's), `ColorSpace` (one of its short names, such as `srgb` or `p3`), and for string enumerations (`enum Level: String, CaseIterable, FilterParameterValue`), which
/// become a choice of their raw values.
public protocol FilterParameterValue: Sendable {
    /// The kind of a parameter whose default is `value` (vectors take their length from it).
    static func parameterKind(default value: Self) -> FilterParameter.Kind
    /// The unit of a parameter that states none (pixels for points and rectangles).
    static var defaultUnit: FilterParameter.Unit { get }
    /// The value as a filter value.
    var filterValue: FilterValue { get }
    /// Converts a value already checked against ``parameterKind(default:)`` by ``FilterArguments``.
    init(checked value: FilterValue)
}

extension FilterParameterValue {
    public static var defaultUnit: FilterParameter.Unit { .none }

    static func mismatch(_ value: FilterValue) -> Never {
        preconditionFailure("\(Self.self) cannot hold the checked value \(value.typeName) \(value)")
    }
}

extension Double: FilterParameterValue {
    public static func parameterKind(default value: Double) -> FilterParameter.Kind { .number }
    public var filterValue: FilterValue { .number(self) }
    public init(checked value: FilterValue) {
        switch value {
        case .number(let x): self = x
        case .boolean(let b): self = b ? 1 : 0
        default: Self.mismatch(value)
        }
    }
}

extension Int: FilterParameterValue {
    public static func parameterKind(default value: Int) -> FilterParameter.Kind { .integer }
    public var filterValue: FilterValue { .number(Double(self)) }
    public init(checked value: FilterValue) { self = Int(Double(checked: value)) }
}

extension Bool: FilterParameterValue {
    public static func parameterKind(default value: Bool) -> FilterParameter.Kind { .boolean }
    public var filterValue: FilterValue { .boolean(self) }
    public init(checked value: FilterValue) {
        switch value {
        case .boolean(let b): self = b
        case .number(let x): self = x != 0
        default: Self.mismatch(value)
        }
    }
}

extension String: FilterParameterValue {
    public static func parameterKind(default value: String) -> FilterParameter.Kind { .string(choices: []) }
    public var filterValue: FilterValue { .string(self) }
    public init(checked value: FilterValue) {
        guard case .string(let s) = value else { Self.mismatch(value) }
        self = s
    }
}

extension Array: FilterParameterValue where Element: FilterParameterElement {
    public static func parameterKind(default value: [Element]) -> FilterParameter.Kind {
        Element.arrayKind(count: value.count)
    }
    public var filterValue: FilterValue { Element.arrayValue(self) }
    public init(checked value: FilterValue) { self = Element.array(checked: value) }
}

/// The element types of arrays that are filter parameters: `Double` (a vector) and `UInt8` (data).
public protocol FilterParameterElement: Sendable {
    /// The kind of an array of `count` elements.
    static func arrayKind(count: Int) -> FilterParameter.Kind
    /// The array as a filter value.
    static func arrayValue(_ array: [Self]) -> FilterValue
    /// The array held by a checked value.
    static func array(checked value: FilterValue) -> [Self]
}

extension Double: FilterParameterElement {
    public static func arrayKind(count: Int) -> FilterParameter.Kind { .vector(count: count) }
    public static func arrayValue(_ array: [Double]) -> FilterValue { .vector(array) }
    public static func array(checked value: FilterValue) -> [Double] {
        switch value {
        case .vector(let v): return v
        case .number(let x): return [x]
        default: mismatch(value)
        }
    }
}

extension UInt8: FilterParameterElement {
    public static func arrayKind(count: Int) -> FilterParameter.Kind { .data }
    public static func arrayValue(_ array: [UInt8]) -> FilterValue { .data(array) }
    public static func array(checked value: FilterValue) -> [UInt8] {
        switch value {
        case .data(let d): return d
        case .string(let s): return Array(s.utf8)
        default: preconditionFailure("[UInt8] cannot hold the checked value \(value.typeName) \(value)")
        }
    }
}

extension Point: FilterParameterValue {
    public static var defaultUnit: FilterParameter.Unit { .pixels }
    public static func parameterKind(default value: Point) -> FilterParameter.Kind { .point }
    public var filterValue: FilterValue { .vector([x, y]) }
    public init(checked value: FilterValue) {
        let v = [Double](checked: value)
        self.init(x: v[0], y: v[1])
    }
}

extension Rect: FilterParameterValue {
    public static var defaultUnit: FilterParameter.Unit { .pixels }
    public static func parameterKind(default value: Rect) -> FilterParameter.Kind { .rect }
    public var filterValue: FilterValue { .rect(self) }
    public init(checked value: FilterValue) {
        let v = [Double](checked: value)
        self.init(x: v[0], y: v[1], width: v[2], height: v[3])
    }
}

extension Color: FilterParameterValue {
    public static func parameterKind(default value: Color) -> FilterParameter.Kind { .color }
    public var filterValue: FilterValue { .color(self) }
    public init(checked value: FilterValue) {
        guard case .color(let c) = value else { Self.mismatch(value) }
        self = c
    }
}

extension AffineTransform: FilterParameterValue {
    public static func parameterKind(default value: AffineTransform) -> FilterParameter.Kind { .transform }
    public var filterValue: FilterValue { .transform(self) }
    public init(checked value: FilterValue) {
        guard case .transform(let t) = value else { Self.mismatch(value) }
        self = t
    }
}

extension Image: FilterParameterValue {
    public static func parameterKind(default value: Image) -> FilterParameter.Kind { .image }
    public var filterValue: FilterValue { .image(self) }
    public init(checked value: FilterValue) {
        guard case .image(let i) = value else { Self.mismatch(value) }
        self = i
    }
}

extension SIMD2: FilterParameterValue where Scalar == Double {
    public static func parameterKind(default value: SIMD2<Double>) -> FilterParameter.Kind { .vector(count: 2) }
    public var filterValue: FilterValue { .vector([x, y]) }
    public init(checked value: FilterValue) {
        let v = [Double](checked: value)
        self.init(v[0], v[1])
    }
}

extension SIMD3: FilterParameterValue where Scalar == Double {
    public static func parameterKind(default value: SIMD3<Double>) -> FilterParameter.Kind { .vector(count: 3) }
    public var filterValue: FilterValue { .vector([x, y, z]) }
    public init(checked value: FilterValue) {
        let v = [Double](checked: value)
        self.init(v[0], v[1], v[2])
    }
}

extension SIMD4: FilterParameterValue where Scalar == Double {
    public static func parameterKind(default value: SIMD4<Double>) -> FilterParameter.Kind { .vector(count: 4) }
    public var filterValue: FilterValue { .vector([x, y, z, w]) }
    public init(checked value: FilterValue) {
        let v = [Double](checked: value)
        self.init(v[0], v[1], v[2], v[3])
    }
}

extension ColorSpace: FilterParameterValue {
    public static func parameterKind(default value: ColorSpace) -> FilterParameter.Kind {
        .string(choices: shortNames.keys.sorted())
    }
    /// The space's first short name in alphabetical order, or its name when it has none.
    public var filterValue: FilterValue {
        .string(Self.shortNames.keys.sorted().first { Self.shortNames[$0] == self } ?? name)
    }
    public init(checked value: FilterValue) {
        guard case .string(let s) = value, let space = ColorSpace.named(s) else { Self.mismatch(value) }
        self = space
    }
}

extension FilterParameterValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    public static func parameterKind(default value: Self) -> FilterParameter.Kind {
        .string(choices: allCases.map(\.rawValue))
    }
    public var filterValue: FilterValue { .string(rawValue) }
    public init(checked value: FilterValue) {
        guard case .string(let s) = value, let v = Self(rawValue: s) else { Self.mismatch(value) }
        self = v
    }
}
