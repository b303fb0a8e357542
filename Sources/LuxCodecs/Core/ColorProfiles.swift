public import LuxColor

/// The bridge between embedded ICC profiles and ``ColorSpace`` values.
///
/// LuxColor's ICC reader and writer (``ICCProfile``) arrive on `main` separately; until then profiles are
/// carried as bytes and identified only by their description.
enum ColorProfiles {
    /// The profile bytes describing `space` (ICC v4), or `nil` when no profile can be made (XYZ, Lab).
    static func profile(for space: ColorSpace) -> [UInt8]? {
        (try? space.iccProfile(version: .v4))?.data
    }

    /// The colour space an embedded profile describes, or `nil` when it cannot be used.
    static func colorSpace(fromProfile bytes: [UInt8]) -> ColorSpace? {
        guard let profile = try? ICCProfile(data: bytes) else { return nil }
        return try? ColorSpace(iccProfile: profile)
    }

    /// The profile's description text (`desc` tag), for display.
    static func description(ofProfile bytes: [UInt8]) -> String? {
        (try? ICCProfile(data: bytes))?.profileDescription
    }

    /// The profile to embed for pixels written in `space`: the source file's own profile when it describes that
    /// space (or when neither is known and the pixels were left alone), otherwise one made for `space`.
    static func profileToEmbed(for space: ColorSpace?, original: [UInt8]?, options: EncodingOptions) -> [UInt8]? {
        guard options.embedsColorProfile else { return nil }
        if let original {
            if let described = colorSpace(fromProfile: original) {
                if let space, described.isColorimetricallyEqual(to: space) { return original }
            } else if space == nil || (options.colorSpace == nil && !options.optimizesColorForSharing) {
                return original
            }
        }
        return space.flatMap { profile(for: $0) }
    }

    /// `space` with values outside 0…1 kept: the standard extended space with the same colours when there is one
    /// (sRGB becomes Extended sRGB), otherwise the space itself with extended range ("Extended …").
    ///
    /// Files of floating-point samples are read in such spaces, so extended-range data written by a render comes
    /// back unclipped.
    static func extendedRange(_ space: ColorSpace) -> ColorSpace {
        guard !space.isExtendedRange else { return space }
        if let standard = ColorSpace.standardSpaces.first(where: {
            $0.isExtendedRange && $0.isColorimetricallyEqual(to: space)
        }) {
            return standard
        }
        return space.withExtendedRange(true, name: "Extended " + space.name)
    }

    /// The space an integer (8/16-bit) file should be written in for pixels in `space`: linear and
    /// extended-range spaces would waste codes or clip, so they become the same primaries with the sRGB curve.
    static func integerEncodingSpace(for space: ColorSpace) -> ColorSpace {
        guard space.isLinear || space.isExtendedRange else { return space }
        guard let primaries = space.primaries else {
            return space.model == .gray ? .genericGrayGamma2_2 : .sRGB
        }
        if primaries == ColorSpace.sRGB.primaries, space.whitePoint == ColorSpace.sRGB.whitePoint { return .sRGB }
        if primaries == ColorSpace.displayP3.primaries, space.whitePoint == ColorSpace.displayP3.whitePoint {
            return .displayP3
        }
        return ColorSpace(
            name: space.name.replacingFirst("Extended ", with: "").replacingFirst("Linear ", with: ""),
            primaries: primaries, whitePoint: space.whitePoint, transferFunction: .sRGB)
    }
}

extension ColorSpace {
    /// The space an 8- or 16-bit file of these colours is written in: the space itself, or for a linear or
    /// extended-range space the same primaries with the sRGB curve (Extended Linear Display P3 → Display P3).
    public var integerFileEncoding: ColorSpace { ColorProfiles.integerEncodingSpace(for: self) }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let r = firstRange(of: target) else { return self }
        var s = self
        s.replaceSubrange(r, with: replacement)
        return s
    }
}
