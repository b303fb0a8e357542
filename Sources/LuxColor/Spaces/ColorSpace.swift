/// A colour space: how stored values relate to CIE XYZ.
///
/// Every image in Lux carries one. RGB spaces are defined by primaries, a white point and a transfer
/// function; their matrices are derived from those, never hard-coded. Extended-range spaces keep values
/// below 0 and above 1 (the transfer function is mirrored for negatives), which is how wide-gamut colours
/// travel through an sRGB-primaried working space.
///
/// ```swift
/// let converter = try ColorConverter(from: .sRGB, to: .displayP3)
/// let p3 = converter.convert(SIMD3(1, 0, 0))   // ≈ (0.9175, 0.2003, 0.1386)
/// ```
public struct ColorSpace: Hashable, Sendable, CustomStringConvertible {
    /// What kind of values the space holds.
    public enum Model: Hashable, Sendable {
        /// Three channels mixed from RGB primaries.
        case rgb(RGBPrimaries)
        /// One achromatic channel (luminance relative to the white point).
        case gray
        /// CIE XYZ tristimulus values (Y = 1 for the white point).
        case xyz
        /// CIE 1976 L*a*b* relative to the white point (L in 0…100).
        case lab
    }

    /// A human-readable name (also the ICC description of generated profiles).
    public let name: String
    /// The colour model.
    public let model: Model
    /// The white point (the adopted white of the space).
    public let whitePoint: Chromaticity
    /// How encoded values map to linear light (`.linear` for XYZ and Lab).
    public let transferFunction: TransferFunction
    /// Whether values outside `0...1` are meaningful and kept.
    public let isExtendedRange: Bool

    /// Creates an RGB colour space from its primaries, white point and transfer function.
    public init(
        name: String, primaries: RGBPrimaries, whitePoint: Chromaticity, transferFunction: TransferFunction,
        isExtendedRange: Bool = false
    ) {
        self.name = name
        self.model = .rgb(primaries)
        self.whitePoint = whitePoint
        self.transferFunction = transferFunction
        self.isExtendedRange = isExtendedRange
    }

    /// Creates a colour space of any model.
    public init(
        name: String, model: Model, whitePoint: Chromaticity, transferFunction: TransferFunction,
        isExtendedRange: Bool
    ) {
        self.name = name
        self.model = model
        self.whitePoint = whitePoint
        self.transferFunction = transferFunction
        self.isExtendedRange = isExtendedRange
    }

    /// The number of colour channels (3, or 1 for gray).
    public var channelCount: Int {
        if case .gray = model { return 1 }
        return 3
    }

    /// The primaries of an RGB space, `nil` otherwise.
    public var primaries: RGBPrimaries? {
        if case .rgb(let p) = model { return p }
        return nil
    }

    /// Whether the space's values are linear light.
    public var isLinear: Bool { transferFunction.isLinear }

    /// The matrix from linear values to XYZ relative to the space's own white (Y of white = 1).
    ///
    /// For gray this maps (Y, Y, Y) to the white scaled by Y; for XYZ it is the identity. Lab has no matrix (it is not
    /// linear): `nil`.
    public var matrixToXYZ: Matrix3x3? {
        switch model {
        case .rgb(let p): return p.matrixToXYZ(white: whitePoint)
        case .gray:
            let w = whitePoint.xyz()
            return Matrix3x3([w.x, 0, 0, 0, 1, 0, 0, 0, w.z])
        case .xyz: return .identity
        case .lab: return nil
        }
    }

    /// The same space with the extended-range behaviour switched on or off.
    public func withExtendedRange(_ extended: Bool, name: String? = nil) -> ColorSpace {
        ColorSpace(
            name: name ?? self.name, model: model, whitePoint: whitePoint, transferFunction: transferFunction,
            isExtendedRange: extended)
    }

    /// The same primaries and white point with a linear transfer function.
    public func linearized(name: String? = nil) -> ColorSpace {
        ColorSpace(
            name: name ?? "Linear " + self.name, model: model, whitePoint: whitePoint, transferFunction: .linear,
            isExtendedRange: isExtendedRange)
    }

    /// Whether two spaces describe the same colours (same model, primaries, white and curve within
    /// tolerance), regardless of name — a colour match between them is the identity apart from range clipping.
    public func isColorimetricallyEqual(to other: ColorSpace) -> Bool {
        guard model == other.model || modelsApproximatelyEqual(model, other.model) else { return false }
        guard abs(whitePoint.x - other.whitePoint.x) < 1e-4, abs(whitePoint.y - other.whitePoint.y) < 1e-4 else {
            return false
        }
        return transferFunction.isApproximatelyEqual(to: other.transferFunction)
    }

    private func modelsApproximatelyEqual(_ a: Model, _ b: Model) -> Bool {
        guard case .rgb(let p) = a, case .rgb(let q) = b else { return false }
        let pairs = [(p.red, q.red), (p.green, q.green), (p.blue, q.blue)]
        return pairs.allSatisfy { abs($0.x - $1.x) < 1e-4 && abs($0.y - $1.y) < 1e-4 }
    }

    public var description: String { name }
}
