extension ICCProfile {
    /// The colour space a matrix/TRC RGB or gray profile describes.
    ///
    /// The colorants (`rXYZ`, `gXYZ`, `bXYZ`) are adapted to the D50 connection space; the adaptation is
    /// undone with the `chad` matrix (or, in v2 profiles without one, with Bradford from the `wtpt` white)
    /// to recover the native primaries and white point. Tone curves come from `para` (all five function
    /// types) or `curv` (identity, u8Fixed8 gamma, or a sampled table).
    ///
    /// A profile that is colorimetrically one of the standard spaces (within s15Fixed16 rounding: 10⁻⁴ in
    /// the xy of the white and the primaries, 2·10⁻⁵ in the curve) returns that space itself, e.g.
    /// ``ColorSpace/sRGB`` or ``ColorSpace/displayP3``, so identity conversions are recognised. Sampled
    /// curves that match a standard curve to 16-bit precision become that curve.
    /// If a profile carries both LUTs and matrix/TRC tags, the matrix/TRC tags are used.
    ///
    /// - Throws: ``ColorError/unsupportedProfile(description:reason:)`` for profiles that are not matrix/TRC
    ///   RGB or gray — LUT-only (`A2B0`/`B2A0`), CMYK and other data spaces, Lab connection space, device
    ///   links, abstract and named-colour profiles — or whose three tone curves differ;
    ///   ``ColorError/malformedProfile(reason:offset:)`` when a needed tag is truncated or of the wrong type.
    public func colorSpace() throws(ColorError) -> ColorSpace {
        let name = profileDescription.isEmpty ? "ICC profile" : profileDescription
        func unsupported(_ reason: String) -> ColorError { .unsupportedProfile(description: name, reason: reason) }

        let convertible: [DeviceClass] = [.display, .input, .output, .colorSpace]
        guard convertible.contains(deviceClass) else {
            throw unsupported("it is a \(deviceClass) profile; only matrix/TRC RGB and gray profiles can be converted")
        }
        let isRGB = dataColorSpace == .rgb
        guard isRGB || dataColorSpace == .gray else {
            throw unsupported(
                "its data colour space is \(dataColorSpace)\(lutSummary); only matrix/TRC RGB and gray profiles "
                    + "can be converted")
        }
        let required = isRGB ? ["rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"] : ["kTRC"]
        let missing = required.filter { !hasTag($0) }
        guard missing.isEmpty else {
            let kind = lutSummary.isEmpty ? "" : "it is LUT-based\(lutSummary) and "
            throw unsupported(
                "\(kind)it lacks the matrix/TRC tags \(missing.joined(separator: ", ")); only matrix/TRC profiles "
                    + "can be converted")
        }
        guard connectionSpace == .xyz else {
            throw unsupported("its connection space is \(connectionSpace); matrix/TRC profiles need XYZ")
        }

        // The adaptation from the profile's adopted white to the D50 connection space.
        var toPCS = Matrix3x3.identity
        if let chad = try tag("chad") {
            toPCS = try ICCTagCoding.matrix(chad)
        } else if version == .v2, let wtpt = try tag("wtpt") {
            let white = try ICCTagCoding.xyz(wtpt)
            guard white.y > 0, white.x > 0, white.z > 0 else {
                throw unsupported("its media white point is not positive")
            }
            toPCS = ChromaticAdaptation.bradford(from: white, to: WhitePoint.iccD50XYZ)
        }
        guard let fromPCS = toPCS.inverse else { throw unsupported("its chromatic adaptation ('chad') is singular") }

        if isRGB {
            var columns = [SIMD3<Double>]()
            for signature in ["rXYZ", "gXYZ", "bXYZ"] {
                guard let t = try tag(signature) else { throw unsupported("it lacks \(signature)") }
                columns.append(fromPCS * (try ICCTagCoding.xyz(t)))
            }
            let native = Matrix3x3(columns: columns[0], columns[1], columns[2])
            guard let white = Chromaticity(xyz: native * SIMD3(1, 1, 1)),
                let red = Chromaticity(xyz: columns[0]), let green = Chromaticity(xyz: columns[1]),
                let blue = Chromaticity(xyz: columns[2])
            else { throw unsupported("a colorant or the white it sums to is black") }
            let curve = try sharedCurve(["rTRC", "gTRC", "bTRC"], unsupported)
            let space = ColorSpace(
                name: name, primaries: RGBPrimaries(red: red, green: green, blue: blue), whitePoint: white,
                transferFunction: curve)
            guard space.matrixToXYZ?.inverse != nil else { throw unsupported("its colorants are collinear") }
            return Self.standardRGB.first { $0.isRecognized(in: space) } ?? space
        } else {
            var white = WhitePoint.d50
            if hasTag("chad") {
                white = Chromaticity(xyz: fromPCS * WhitePoint.iccD50XYZ) ?? white
            } else if version == .v2, let wtpt = try tag("wtpt") {
                white = Chromaticity(xyz: try ICCTagCoding.xyz(wtpt)) ?? white
            }
            let curve = try sharedCurve(["kTRC"], unsupported)
            let space = ColorSpace(
                name: name, model: .gray, whitePoint: white, transferFunction: curve, isExtendedRange: false)
            return Self.standardGray.first { $0.isRecognized(in: space) } ?? space
        }
    }

    /// The curve shared by the tags in `signatures`, recognised as a standard curve when it matches one.
    private func sharedCurve(
        _ signatures: [String], _ unsupported: (String) -> ColorError
    ) throws(ColorError) -> TransferFunction {
        var curves = [TransferFunction]()
        for signature in signatures {
            guard let t = try tag(signature) else { throw unsupported("it lacks \(signature)") }
            let curve = try ICCTagCoding.curve(t)
            for i in 0...16 {
                let y = curve.linear(fromEncoded: Double(i) / 16)
                guard y.isFinite else { throw unsupported("its \(signature) curve has non-finite values") }
            }
            curves.append(curve)
        }
        for (signature, curve) in zip(signatures, curves).dropFirst()
        where !curve.isApproximatelyEqual(to: curves[0]) {
            throw unsupported(
                "its tone curves differ (\(signatures[0]) ≠ \(signature)); Lux colour spaces use one curve for all "
                    + "channels")
        }
        return TransferFunction.standardEquivalent(of: curves[0])
    }

    /// " (A2B0 'mft2', B2A0 'mft2')" for the LUT tags present, or "".
    private var lutSummary: String {
        let lutTags = ["A2B0", "A2B1", "A2B2", "B2A0", "B2A1", "B2A2", "D2B0", "B2D0"]
        let found = lutTags.compactMap { signature -> String? in
            guard let t = try? tag(signature), let type = try? ICCTagCoding.typeSignature(t) else { return nil }
            return "\(signature) '\(type)'"
        }
        return found.isEmpty ? "" : " (\(found.joined(separator: ", ")))"
    }

    /// Standard RGB spaces a profile is recognised as (see ``ColorSpace/isRecognized(in:)``).
    static let standardRGB: [ColorSpace] = [
        .sRGB, .displayP3, .adobeRGB, .itur2020, .itur709, .rommRGB, .linearSRGB, .linearDisplayP3,
    ]
    /// Standard gray spaces a profile is recognised as.
    static let standardGray: [ColorSpace] = [.genericGrayGamma2_2, .linearGray]
}

extension ColorSpace {
    /// Creates the colour space an ICC profile describes; see ``ICCProfile/colorSpace()``.
    ///
    /// - Throws: ``ColorError/unsupportedProfile(description:reason:)`` or
    ///   ``ColorError/malformedProfile(reason:offset:)`` as ``ICCProfile/colorSpace()`` does.
    public init(iccProfile: ICCProfile) throws(ColorError) {
        self = try iccProfile.colorSpace()
    }
}

extension ColorSpace {
    /// Whether `candidate` (read from a profile) is this standard space.
    ///
    /// Requires the same model, curves within 2·10⁻⁵ (s15Fixed16 and 16-bit table rounding), and for RGB
    /// the white and primaries within 10⁻⁴ in xy (``isColorimetricallyEqual(to:)``). The white of a gray
    /// space does not change relative colorimetry (gray always maps to neutral), so gray compares only the
    /// curve.
    ///
    /// The bounds are tight on purpose: a matrix that differs by 4·10⁻⁴ already moves a near-black channel
    /// of an 8-bit sRGB value by more than one level.
    func isRecognized(in candidate: ColorSpace) -> Bool {
        guard transferFunction.isApproximatelyEqual(to: candidate.transferFunction, tolerance: 2e-5) else {
            return false
        }
        switch (model, candidate.model) {
        case (.rgb, .rgb): return isColorimetricallyEqual(to: candidate)
        case (.gray, .gray): return true
        default: return false
        }
    }
}

extension TransferFunction {
    /// The standard curve `curve` matches (a sampled table within 2e-5 at every sample, about 1.3 steps of
    /// 16 bits; a parametric curve within 2e-5 over 0…1), or `curve` itself.
    static func standardEquivalent(of curve: TransferFunction) -> TransferFunction {
        let candidates: [TransferFunction] = [
            .sRGB, .rec709, .romm, .gamma(2.2), .gamma(563.0 / 256.0), .gamma(1.8), .linear,
        ]
        switch curve {
        case .linear:
            return .linear
        case .sampled(let s):
            let last = Double(s.samples.count - 1)
            return candidates.first { candidate in
                s.samples.indices.allSatisfy {
                    abs(Double(s.samples[$0]) - candidate.linear(fromEncoded: Double($0) / last)) <= 2e-5
                }
            } ?? curve
        case .parametric:
            return candidates.first { candidate in
                (0...256).allSatisfy {
                    let x = Double($0) / 256
                    return abs(curve.linear(fromEncoded: x) - candidate.linear(fromEncoded: x)) <= 2e-5
                }
            } ?? curve
        }
    }
}
