extension ColorSpace {
    /// IEC 61966-2-1 sRGB, values clipped to 0…1.
    public static let sRGB = ColorSpace(
        name: "sRGB IEC61966-2.1", primaries: .rec709, whitePoint: WhitePoint.d65, transferFunction: .sRGB)
    /// sRGB with values outside 0…1 kept (mirrored curve below 0).
    public static let extendedSRGB = sRGB.withExtendedRange(true, name: "Extended sRGB")
    /// sRGB primaries with linear values, clipped to 0…1.
    public static let linearSRGB = ColorSpace(
        name: "Linear sRGB", primaries: .rec709, whitePoint: WhitePoint.d65, transferFunction: .linear)
    /// sRGB primaries, linear, extended range: Lux's default working space.
    public static let extendedLinearSRGB = linearSRGB.withExtendedRange(true, name: "Extended Linear sRGB")
    /// Display P3: DCI-P3 primaries, D65 white, the sRGB curve.
    public static let displayP3 = ColorSpace(
        name: "Display P3", primaries: .p3, whitePoint: WhitePoint.d65, transferFunction: .sRGB)
    /// Display P3 primaries with linear values.
    public static let linearDisplayP3 = ColorSpace(
        name: "Linear Display P3", primaries: .p3, whitePoint: WhitePoint.d65, transferFunction: .linear)
    /// Display P3 primaries, linear, extended range.
    public static let extendedLinearDisplayP3 = linearDisplayP3.withExtendedRange(
        true, name: "Extended Linear Display P3")
    /// Adobe RGB (1998): gamma 563/256.
    public static let adobeRGB = ColorSpace(
        name: "Adobe RGB (1998)", primaries: .adobeRGB, whitePoint: WhitePoint.d65,
        transferFunction: .gamma(563.0 / 256.0))
    /// Recommendation ITU-R BT.709 with its OETF.
    public static let itur709 = ColorSpace(
        name: "ITU-R BT.709", primaries: .rec709, whitePoint: WhitePoint.d65, transferFunction: .rec709)
    /// Recommendation ITU-R BT.2020 with its (BT.709-shaped) OETF.
    public static let itur2020 = ColorSpace(
        name: "ITU-R BT.2020", primaries: .rec2020, whitePoint: WhitePoint.d65, transferFunction: .rec709)
    /// ROMM RGB (ProPhoto RGB), D50 white.
    public static let rommRGB = ColorSpace(
        name: "ROMM RGB", primaries: .romm, whitePoint: WhitePoint.d50, transferFunction: .romm)
    /// ACEScg: AP1 primaries, ACES white, linear.
    public static let acesCG = ColorSpace(
        name: "ACEScg", primaries: .acesAP1, whitePoint: WhitePoint.aces, transferFunction: .linear,
        isExtendedRange: true)
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The name mirrors Apple's `CGColorSpace.genericGrayGamma2_2`.
    /// Generic gray with gamma 2.2.
    public static let genericGrayGamma2_2 = ColorSpace(
        name: "Generic Gray Gamma 2.2", model: .gray, whitePoint: WhitePoint.d65, transferFunction: .gamma(2.2),
        isExtendedRange: false)
    /// Gray with the sRGB tone curve and D65 white: the gray of sRGB's neutral axis, which vips, libpng and most
    /// viewers assume for gray files without a profile.
    public static let sGray = ColorSpace(
        name: "sGray", model: .gray, whitePoint: WhitePoint.d65, transferFunction: .sRGB, isExtendedRange: false)
    /// Linear gray.
    public static let linearGray = ColorSpace(
        name: "Linear Gray", model: .gray, whitePoint: WhitePoint.d65, transferFunction: .linear,
        isExtendedRange: false)
    /// CIE XYZ with a D50 white (the ICC profile connection space).
    public static let xyzD50 = ColorSpace(
        name: "CIE XYZ (D50)", model: .xyz, whitePoint: WhitePoint.d50, transferFunction: .linear,
        isExtendedRange: true)
    /// CIE XYZ with a D65 white.
    public static let xyzD65 = ColorSpace(
        name: "CIE XYZ (D65)", model: .xyz, whitePoint: WhitePoint.d65, transferFunction: .linear,
        isExtendedRange: true)
    /// CIE 1976 L*a*b* relative to D50.
    public static let labD50 = ColorSpace(
        name: "CIE L*a*b* (D50)", model: .lab, whitePoint: WhitePoint.d50, transferFunction: .linear,
        isExtendedRange: true)

    /// Every predefined colour space.
    public static let standardSpaces: [ColorSpace] = [
        .sRGB, .extendedSRGB, .linearSRGB, .extendedLinearSRGB, .displayP3, .linearDisplayP3,
        .extendedLinearDisplayP3, .adobeRGB, .itur709, .itur2020, .rommRGB, .acesCG, .genericGrayGamma2_2,
        .sGray, .linearGray, .xyzD50, .xyzD65, .labD50,
    ]

    /// Short names accepted by ``named(_:)`` (and the `lux` command line).
    public static let shortNames: [String: ColorSpace] = [
        "srgb": .sRGB, "extended-srgb": .extendedSRGB, "linear-srgb": .linearSRGB, "linear": .extendedLinearSRGB,
        "extended-linear-srgb": .extendedLinearSRGB, "p3": .displayP3, "display-p3": .displayP3,
        "linear-p3": .linearDisplayP3, "extended-linear-p3": .extendedLinearDisplayP3, "adobe": .adobeRGB,
        "adobe-rgb": .adobeRGB, "rec709": .itur709, "bt709": .itur709, "rec2020": .itur2020, "bt2020": .itur2020,
        "prophoto": .rommRGB, "romm": .rommRGB, "acescg": .acesCG, "gray": .genericGrayGamma2_2, "sgray": .sGray,
        "linear-gray": .linearGray, "xyz": .xyzD50, "xyz-d50": .xyzD50, "xyz-d65": .xyzD65, "lab": .labD50,
    ]

    /// Looks a colour space up by short name (`"srgb"`, `"p3"`, `"adobe"`, `"linear"`, …) or by full name.
    public static func named(_ name: String) -> ColorSpace? {
        let key = name.lowercased()
        if let space = shortNames[key] { return space }
        return standardSpaces.first { $0.name.lowercased() == key }
    }
}
