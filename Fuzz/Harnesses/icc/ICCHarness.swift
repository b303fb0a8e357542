import FuzzSupport
import LuxColor

/// The sRGB profile the Little CMS path converts to and from.
private let sRGBProfile = try? ColorSpace.sRGB.iccProfile()

/// ICC profiles (LuxColor): header and tag table, description, the matrix/TRC → ``ColorSpace`` conversion (a
/// profile that converts must be writable again), and every profile that passes validation through Little CMS
/// (``ICCTransform``) both ways, as a decode of a CMYK or LUT-profiled file would use it.
func fuzzICC(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let profile = try? ICCProfile(data: Fuzz.bytes(data, count)) else { return 0 }
    _ = profile.description
    _ = profile.tagSignatures
    _ = profile.profileID
    fuzzLittleCMS(profile)
    guard let space = try? profile.colorSpace() else { return 0 }
    _ = try? ColorSpace(iccProfile: profile)
    if let written = try? space.iccProfile() { _ = try? ICCProfile(data: written.data) }
    return 0
}

/// Converts a row of samples from and to `profile` through Little CMS, for the models Lux hands to it.
private func fuzzLittleCMS(_ profile: ICCProfile) {
    guard let sRGB = sRGBProfile else { return }
    let layout: ICCTransform.Layout
    switch profile.dataColorSpace {
    case .cmyk: layout = .cmyk8(inverted: true)
    case .rgb: layout = .rgba8
    case .gray: layout = .gray8
    default: return
    }
    let width = 64
    var source = [UInt8](repeating: 0, count: width * 16)
    for i in source.indices { source[i] = UInt8(truncatingIfNeeded: i &* 37) }
    var output = [UInt8](repeating: 0, count: width * 16)
    for intent in [RenderingIntent.relativeColorimetric, .perceptual] {
        if let t = try? ICCTransform(from: profile, layout: layout, to: sRGB, layout: .rgba8, intent: intent) {
            t.convert(
                source, to: &output, width: width, rows: 1, sourceStride: width * layout.bytesPerPixel,
                destinationStride: width * 4)
        }
        if let t = try? ICCTransform(from: sRGB, layout: .rgba8, to: profile, layout: layout, intent: intent) {
            t.convert(
                source, to: &output, width: width, rows: 1, sourceStride: width * 4,
                destinationStride: width * layout.bytesPerPixel)
        }
    }
}

@_cdecl("fuzz_icc_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzICC) {
        var seeds: [(String, [UInt8])] = []
        let spaces: [(String, ColorSpace)] = [
            ("srgb", .sRGB), ("p3", .displayP3), ("adobergb", .adobeRGB), ("linear-srgb", .extendedLinearSRGB),
        ]
        for (name, space) in spaces {
            seeds.append(("\(name)-v4.icc", try space.iccProfile(version: .v4).data))
            seeds.append(("\(name)-v2.icc", try space.iccProfile(version: .v2).data))
        }
        return seeds
    }
}
