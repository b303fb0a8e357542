public import LuxColor

/// A colour with alpha in a named colour space (the CIColor role).
///
/// Components are unpremultiplied and encoded in `colorSpace` (so `Color(red: 0.5, …)` in ``ColorSpace/sRGB``
/// is sRGB code 0.5, not linear 0.5). Kernels receive colours already converted into the render's working
/// space (see ``ColorKernel/apply(extent:inputs:arguments:colors:)``).
///
/// ```swift
/// let orange = Color(red: 1, green: 0.5, blue: 0)             // sRGB
/// let wide = Color(red: 1, green: 0, blue: 0, colorSpace: .displayP3)
/// ```
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red (or gray) component.
    public var red: Double
    /// Green component.
    public var green: Double
    /// Blue component.
    public var blue: Double
    /// Alpha, 0 = transparent, 1 = opaque.
    public var alpha: Double
    /// The space the components are encoded in.
    public var colorSpace: ColorSpace

    /// Creates a colour.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1, colorSpace: ColorSpace = .sRGB) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.colorSpace = colorSpace
    }

    /// Creates a gray colour (the same value in red, green and blue).
    public init(gray: Double, alpha: Double = 1, colorSpace: ColorSpace = .sRGB) {
        self.init(red: gray, green: gray, blue: gray, alpha: alpha, colorSpace: colorSpace)
    }

    /// Opaque black.
    public static let black = Color(gray: 0)
    /// Opaque white.
    public static let white = Color(gray: 1)
    /// Transparent black.
    public static let clear = Color(gray: 0, alpha: 0)
    /// Opaque sRGB red.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Opaque sRGB green.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Opaque sRGB blue.
    public static let blue = Color(red: 0, green: 0, blue: 1)

    /// The components as a vector (red, green, blue, alpha).
    public var components: SIMD4<Double> { SIMD4(red, green, blue, alpha) }

    /// The colour converted into `space` (unpremultiplied; `nil` space means no conversion).
    func converted(to space: ColorSpace?) -> SIMD4<Float> {
        var rgb = SIMD3(red, green, blue)
        if let space,
            !colorSpace.isColorimetricallyEqual(to: space) || colorSpace.isExtendedRange != space.isExtendedRange,
            let converter = try? ColorConverter(from: colorSpace, to: space)
        {
            rgb = converter.convert(rgb)
        }
        return SIMD4(Float(rgb.x), Float(rgb.y), Float(rgb.z), Float(alpha))
    }

    public var description: String {
        "(\(shortNumber(red)) \(shortNumber(green)) \(shortNumber(blue)) \(shortNumber(alpha)))"
            + (colorSpace == .sRGB ? "" : " \"\(colorSpace.name)\"")
    }
}

/// A compact decimal rendering for tree printing (integers without a fraction).
func shortNumber(_ v: Double) -> String {
    if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return "\(v)"
}
