import Foundation
import LuxTestSupport
import Testing

@testable import LuxColor

/// Generated profiles against the published numbers of FORMATS.md §4.3 (lcms 2.14's built-in sRGB
/// matches them bit for bit) and the ICC.1 layout rules.
@Suite struct ICCProfileWritingTests {
    static func words(_ tag: [UInt8], from: Int, count: Int) -> [UInt32] {
        (0..<count).map { be32(tag, from + 4 * $0) }
    }

    @Test func srgbV4HeaderAndTagsMatchPublishedBytes() throws {
        let data = try ColorSpace.sRGB.iccProfile(version: .v4).data
        #expect(Int(be32(data, 0)) == data.count)
        #expect(data.count % 4 == 0)
        #expect(Array(data[8..<12]) == [0x04, 0x30, 0, 0])
        #expect(Array(data[12..<24]) == fourCC("mntr") + fourCC("RGB ") + fourCC("XYZ "))
        #expect(Array(data[36..<40]) == fourCC("acsp"))
        #expect(Self.words(data, from: 68, count: 3) == [0x0000_F6D6, 0x0001_0000, 0x0000_D32D])

        let chad = try #require(tagBytes(data, "chad"))
        #expect(Array(chad[0..<4]) == fourCC("sf32"))
        #expect(
            Self.words(chad, from: 8, count: 9) == [
                0x0001_0C42, 0x0000_05DE, 0xFFFF_F325, 0x0000_0793, 0x0000_FD90, 0xFFFF_FBA1, 0xFFFF_FDA2,
                0x0000_03DC, 0x0000_C06E,
            ])
        #expect(Self.words(try #require(tagBytes(data, "wtpt")), from: 8, count: 3) == [0xF6D6, 0x10000, 0xD32D])
        #expect(Self.words(try #require(tagBytes(data, "rXYZ")), from: 8, count: 3) == [0x6FA0, 0x38F5, 0x0390])
        #expect(Self.words(try #require(tagBytes(data, "gXYZ")), from: 8, count: 3) == [0x6297, 0xB787, 0x18D9])
        #expect(Self.words(try #require(tagBytes(data, "bXYZ")), from: 8, count: 3) == [0x249F, 0x0F84, 0xB6C3])

        let trc = try #require(tagBytes(data, "rTRC"))
        #expect(Array(trc[0..<4]) == fourCC("para"))
        #expect(be16(trc, 8) == 3)  // ICC function type 3
        #expect(
            Self.words(trc, from: 12, count: 5) == [0x0002_6666, 0x0000_F2A7, 0x0000_0D59, 0x0000_13D0, 0x0000_0A5B])
        // The three TRCs share one block.
        #expect(tagOffset(data, "rTRC") == tagOffset(data, "gTRC"))
        #expect(tagOffset(data, "rTRC") == tagOffset(data, "bTRC"))
        // mluc description, en-US.
        let desc = try #require(tagBytes(data, "desc"))
        #expect(Array(desc[0..<4]) == fourCC("mluc"))
        #expect(Array(desc[16..<20]) == fourCC("enUS"))
    }

    @Test func displayP3ColorantsMatchPublishedBytes() throws {
        let data = try ColorSpace.displayP3.iccProfile().data
        #expect(Self.words(try #require(tagBytes(data, "rXYZ")), from: 8, count: 3) == [0x83DF, 0x3DBF, 0xFFFF_FFBB])
        #expect(Self.words(try #require(tagBytes(data, "gXYZ")), from: 8, count: 3) == [0x4ABF, 0xB137, 0x0AB9])
        #expect(Self.words(try #require(tagBytes(data, "bXYZ")), from: 8, count: 3) == [0x2838, 0x110B, 0xC8B9])
    }

    @Test func v2ProfileUsesRealWhiteDescTextAndCurv() throws {
        let data = try ColorSpace.displayP3.iccProfile(version: .v2).data
        #expect(Array(data[8..<12]) == [0x02, 0x40, 0, 0])
        #expect(tagBytes(data, "chad") == nil)
        #expect(Array(data[84..<100]) == Array(repeating: 0, count: 16))
        // D65 xy (0.3127, 0.3290) → XYZ (0.3127/0.3290, 1, 0.3583/0.3290) in s15Fixed16.
        #expect(
            try #require(tagBytes(data, "wtpt"))[8..<20] == (s15(0.3127 / 0.3290) + s15(1) + s15(0.3583 / 0.3290))[...])
        #expect(Self.words(try #require(tagBytes(data, "rXYZ")), from: 8, count: 3) == [0x83DF, 0x3DBF, 0xFFFF_FFBB])
        let desc = try #require(tagBytes(data, "desc"))
        #expect(Array(desc[0..<4]) == fourCC("desc"))
        #expect(be32(desc, 8) == UInt32("Display P3".utf8.count + 1))
        #expect(Array(try #require(tagBytes(data, "cprt"))[0..<4]) == fourCC("text"))
        let trc = try #require(tagBytes(data, "gTRC"))
        #expect(Array(trc[0..<4]) == fourCC("curv"))
        #expect(be32(trc, 8) == 1024)
        // Entry 512 of 1023 is the sRGB curve at x = 512/1023, hand-computed: ((x + 0.055)/1.055)^2.4.
        let x = 512.0 / 1023
        let expected = UInt16((Foundation.pow((x + 0.055) / 1.055, 2.4) * 65535).rounded())
        #expect(be16(trc, 12 + 2 * 512) == expected)
        #expect(be16(trc, 12) == 0 && be16(trc, 12 + 2 * 1023) == 65535)
    }

    @Test func v2PurePowerLawIsOneGammaEntry() throws {
        let data = try ColorSpace.adobeRGB.iccProfile(version: .v2).data
        let trc = try #require(tagBytes(data, "rTRC"))
        #expect(be32(trc, 8) == 1)
        #expect(be16(trc, 12) == 563)  // u8Fixed8 of 563/256
        let linear = try ColorSpace.linearSRGB.iccProfile(version: .v2).data
        #expect(be32(try #require(tagBytes(linear, "rTRC")), 8) == 0)  // identity curve
    }

    @Test func v4ProfileIDIsTheMD5OfTheProfileWithHeaderFieldsZeroed() throws {
        // Oracle: coreutils md5sum over the bytes with flags, intent and ID zeroed (ICC.1 §7.2.18).
        let data = try ColorSpace.displayP3.iccProfile().data
        var zeroed = data
        for r in [44..<48, 64..<68, 84..<100] { zeroed.replaceSubrange(r, with: repeatElement(0, count: r.count)) }
        let dir = try ExternalTool.temporaryDirectory()
        let path = dir + "/zeroed.bin"
        try Data(zeroed).write(to: URL(fileURLWithPath: path))
        let out = try ExternalTool.run("md5sum", [path], input: "")
        let hex = data[84..<100].map {
            String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
        }.joined()
        #expect(out.stdout.hasPrefix(hex), "\(out.stdout) vs \(hex)")
    }

    @Test func grayProfilesHaveOnlyKTRC() throws {
        for version in [ICCProfile.Version.v4, .v2] {
            let profile = try ColorSpace.genericGrayGamma2_2.iccProfile(version: version)
            #expect(profile.dataColorSpace == .gray)
            #expect(profile.tagSignatures.contains("kTRC"))
            #expect(!profile.tagSignatures.contains("rXYZ"))
        }
    }

    @Test func xyzAndLabSpacesAreNotWritten() {
        for space in [ColorSpace.xyzD50, .xyzD65, .labD50] {
            #expect(throws: ColorError.self) { try space.iccProfile() }
        }
    }

    @Test func writtenProfilesReadBackAsTheSameSpace() throws {
        let spaces: [ColorSpace] = [
            .sRGB, .displayP3, .adobeRGB, .itur709, .itur2020, .rommRGB, .linearSRGB, .linearDisplayP3,
            .genericGrayGamma2_2, .linearGray,
        ]
        for space in spaces {
            for version in [ICCProfile.Version.v4, .v2] {
                let read = try ColorSpace(iccProfile: try space.iccProfile(version: version))
                #expect(read == space, "\(space) \(version) read back as \(read)")
            }
        }
        // A space that is not standard keeps its name and numbers.
        let custom = ColorSpace(
            name: "Custom D55",
            primaries: .init(
                red: .init(x: 0.66, y: 0.32), green: .init(x: 0.28, y: 0.65), blue: .init(x: 0.14, y: 0.07)),
            whitePoint: .init(x: 0.3324, y: 0.3474), transferFunction: .gamma(2.0))
        for version in [ICCProfile.Version.v4, .v2] {
            let read = try ColorSpace(iccProfile: try custom.iccProfile(version: version))
            #expect(read.name == "Custom D55")
            #expect(read.isColorimetricallyEqual(to: custom), "\(version): \(read.primaries!) \(read.whitePoint)")
        }
    }

    @Test func outputIsDeterministic() throws {
        #expect(try ColorSpace.displayP3.iccProfile().data == ColorSpace.displayP3.iccProfile().data)
    }
}
