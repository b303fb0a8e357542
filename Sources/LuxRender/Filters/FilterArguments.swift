public import LuxPixels

/// A filter's parameter values, checked against its ``FilterDescriptor`` and completed with defaults.
///
/// Filters read them with typed accessors in `init(arguments:)`; the registry builds them from
/// name–value pairs, so a filter never sees a missing, unknown or mistyped value.
public struct FilterArguments: Sendable {
    /// The filter the values belong to.
    public let descriptor: FilterDescriptor
    /// Every parameter's value (given or default), by name.
    public let values: [String: FilterValue]

    /// Validates `given` against `descriptor`.
    ///
    /// Names may be Core Image's keys (`inputIntensity`, `inputBackgroundImage`). Numbers convert to one-element
    /// vectors and booleans, vectors of 3 or 4 to sRGB colours, vectors of 6 to transforms.
    ///
    /// - Throws: ``FilterError`` naming the parameter and what it accepts.
    public init(_ descriptor: FilterDescriptor, _ given: [String: FilterValue]) throws(FilterError) {
        self.descriptor = descriptor
        var values: [String: FilterValue] = [:]
        for (rawName, value) in given {
            guard let p = Self.parameter(rawName, in: descriptor) else {
                throw .unknownParameter(
                    filter: descriptor.name, parameter: rawName, accepted: descriptor.parameters.map(\.name))
            }
            values[p.name] = try Self.coerce(value, to: p, filter: descriptor.name)
        }
        for p in descriptor.parameters where values[p.name] == nil {
            guard let d = p.defaultValue else { throw .missingParameter(filter: descriptor.name, parameter: p.name) }
            values[p.name] = d
        }
        self.values = values
    }

    /// The parameter `rawName` names: its name, its Core Image key (`inputBackgroundImage`), the name with Core
    /// Image's `input` prefix (`inputIntensity`), or either in another letter case.
    package static func parameter(_ rawName: String, in d: FilterDescriptor) -> FilterParameter? {
        if let p = d.parameter(named: rawName) { return p }
        if let p = d.parameters.first(where: { $0.coreImageName == rawName }) { return p }
        if rawName.hasPrefix("input"), rawName.count > 5 {
            let rest = rawName.dropFirst(5)
            let name = rest.prefix(1).lowercased() + rest.dropFirst()
            if let p = d.parameter(named: name) { return p }
        }
        let lower = rawName.lowercased()
        return d.parameters.first { $0.name.lowercased() == lower || $0.coreImageName.lowercased() == lower }
    }

    static func coerce(_ v: FilterValue, to p: FilterParameter, filter: String) throws(FilterError) -> FilterValue {
        func wrong() -> FilterError {
            .wrongType(filter: filter, parameter: p.name, expected: "\(p.kind)", got: "\(v.typeName) \(v)")
        }
        func checkRange(_ x: Double) throws(FilterError) {
            guard x.isFinite else { throw wrong() }
            if let r = p.allowedRange, !r.contains(x) {
                throw .outOfRange(filter: filter, parameter: p.name, value: x, allowed: r)
            }
        }
        switch (p.kind, v) {
        case (.image, .image): return v
        case (.number, .number(let x)):
            try checkRange(x)
            return v
        case (.number, .vector(let a)) where a.count == 1:
            try checkRange(a[0])
            return .number(a[0])
        case (.integer, .number(let x)) where x.rounded() == x:
            try checkRange(x)
            return v
        case (.boolean, .boolean): return v
        case (.boolean, .number(let x)) where x == 0 || x == 1: return .boolean(x == 1)
        case (.vector(let n), .vector(let a)) where a.count == n && a.allSatisfy(\.isFinite): return v
        case (.vector(let n), .number(let x)) where n == 1: return .vector([x])
        case (.numbers, .vector(let a)) where a.allSatisfy(\.isFinite): return v
        case (.numbers, .number(let x)): return .vector([x])
        case (.point, .vector(let a)) where a.count == 2 && a.allSatisfy(\.isFinite): return v
        case (.rect, .vector(let a)) where a.count == 4 && a.allSatisfy(\.isFinite) && a[2] >= 0 && a[3] >= 0: return v
        case (.color, .color): return v
        case (.color, .vector(let a)) where a.count == 3 || a.count == 4:
            return .color(Color(red: a[0], green: a[1], blue: a[2], alpha: a.count == 4 ? a[3] : 1))
        case (.transform, .transform): return v
        case (.transform, .vector(let a)) where a.count == 6:
            return .transform(AffineTransform(a: a[0], b: a[1], c: a[2], d: a[3], tx: a[4], ty: a[5]))
        case (.string(let choices), .string(let s)) where choices.isEmpty || choices.contains(s): return v
        case (.data, .data): return v
        case (.data, .string(let s)): return .data(Array(s.utf8))
        default: throw wrong()
        }
    }

    /// The value of `name` (declared by the filter).
    public subscript(name: String) -> FilterValue {
        guard let v = values[name] else { preconditionFailure("\(descriptor.name) declares no parameter '\(name)'") }
        return v
    }

    /// An image parameter.
    public func image(_ name: String = "image") -> Image {
        guard case .image(let i) = self[name] else { preconditionFailure("\(name) is not an image") }
        return i
    }

    /// A number parameter.
    public func number(_ name: String) -> Double {
        switch self[name] {
        case .number(let x): return x
        case .boolean(let b): return b ? 1 : 0
        default: preconditionFailure("\(name) is not a number")
        }
    }

    /// An integer parameter.
    public func integer(_ name: String) -> Int { Int(number(name)) }

    /// A boolean parameter.
    public func boolean(_ name: String) -> Bool {
        switch self[name] {
        case .boolean(let b): return b
        case .number(let x): return x != 0
        default: preconditionFailure("\(name) is not a boolean")
        }
    }

    /// A vector parameter.
    public func vector(_ name: String) -> [Double] {
        guard case .vector(let v) = self[name] else { preconditionFailure("\(name) is not a vector") }
        return v
    }

    /// A point parameter.
    public func point(_ name: String) -> Point {
        let v = vector(name)
        return Point(x: v[0], y: v[1])
    }

    /// A rectangle parameter.
    public func rect(_ name: String) -> Rect {
        let v = vector(name)
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// A colour parameter.
    public func color(_ name: String) -> Color {
        guard case .color(let c) = self[name] else { preconditionFailure("\(name) is not a colour") }
        return c
    }

    /// A transform parameter.
    public func transform(_ name: String) -> AffineTransform {
        guard case .transform(let t) = self[name] else { preconditionFailure("\(name) is not a transform") }
        return t
    }

    /// A data parameter (text given for it is its UTF-8 bytes).
    public func data(_ name: String) -> [UInt8] { [UInt8](checked: self[name]) }

    /// A string parameter.
    public func string(_ name: String) -> String {
        guard case .string(let s) = self[name] else { preconditionFailure("\(name) is not a string") }
        return s
    }
}
