import LuxPixels
import LuxRender

/// Short forms for declaring the parameter kinds the built-in filters use.
extension FilterParameter {
    /// A point `(x, y)` in pixels.
    static func point(_ name: String, default p: [Double], summary: String) -> FilterParameter {
        FilterParameter(name, kind: .point, default: .vector(p), unit: .pixels, summary: summary)
    }

    /// A colour (sRGB unless the value names another space).
    static func color(_ name: String, default c: Color, summary: String) -> FilterParameter {
        FilterParameter(name, kind: .color, default: .color(c), summary: summary)
    }

    /// A vector of `values.count` numbers.
    static func vector(_ name: String, default values: [Double], summary: String) -> FilterParameter {
        FilterParameter(name, kind: .vector(count: values.count), default: .vector(values), summary: summary)
    }

    /// A flag.
    static func boolean(_ name: String, default b: Bool, summary: String) -> FilterParameter {
        FilterParameter(name, kind: .boolean, default: .boolean(b), summary: summary)
    }

    /// A rectangle `(x, y, width, height)` in pixels.
    static func rect(_ name: String, default r: [Double]? = nil, summary: String) -> FilterParameter {
        FilterParameter(name, kind: .rect, default: r.map { .vector($0) }, unit: .pixels, summary: summary)
    }

    /// A whole number.
    static func integer(
        _ name: String, default value: Int, slider: ClosedRange<Double>? = nil, allowed: ClosedRange<Double>,
        summary: String
    ) -> FilterParameter {
        FilterParameter(
            name, kind: .integer, default: .number(Double(value)), slider: slider, allowed: allowed, summary: summary)
    }

    /// The region a reduction reads; the default (an empty rectangle) means the image's extent.
    static let reductionExtent = FilterParameter(
        "extent", kind: .rect, default: .vector([0, 0, 0, 0]), unit: .pixels,
        summary: "The region to reduce (x, y, width, height); empty means the whole image.")
}

extension FilterArguments {
    /// A vector parameter of four numbers as a SIMD vector.
    func vector4(_ name: String) -> SIMD4<Double> {
        let v = vector(name)
        return SIMD4(v[0], v[1], v[2], v[3])
    }

    /// A vector parameter of two numbers as a SIMD vector.
    func vector2(_ name: String) -> SIMD2<Double> {
        let v = vector(name)
        return SIMD2(v[0], v[1])
    }
}

/// A compact, stable rendering of numbers for kernel argument strings (printing and cache keys).
func describe(_ values: [Double]) -> String { values.map { "\($0)" }.joined(separator: ",") }

/// A compact rendering of a SIMD vector for kernel argument strings.
func describe(_ v: SIMD4<Double>) -> String { "\(v.x),\(v.y),\(v.z),\(v.w)" }

/// A compact rendering of a point for kernel argument strings.
func describe(_ p: Point) -> String { "\(p.x),\(p.y)" }

/// `ColorDodgeBlendMode` → `Color Dodge Blend Mode`.
func spacedWords(_ camel: String) -> String {
    var out = ""
    for c in camel {
        if c.isUppercase && !out.isEmpty { out += " " }
        out.append(c)
    }
    return out
}
