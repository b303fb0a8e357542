import FuzzSupport
import LuxColor

/// ICC profiles (LuxColor): header and tag table, description, and the matrix/TRC → ``ColorSpace``
/// conversion; a profile that converts must be writable again.
func fuzzICC(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let profile = try? ICCProfile(data: Fuzz.bytes(data, count)) else { return 0 }
    _ = profile.description
    _ = profile.tagSignatures
    _ = profile.profileID
    guard let space = try? profile.colorSpace() else { return 0 }
    _ = try? ColorSpace(iccProfile: profile)
    if let written = try? space.iccProfile() { _ = try? ICCProfile(data: written.data) }
    return 0
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
