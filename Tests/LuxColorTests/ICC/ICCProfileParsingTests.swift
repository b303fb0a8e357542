import Foundation
import LuxColor
import Testing

/// The parser against hand-built profiles (bytes assembled in the test from ICC.1 layouts, with the
/// published sRGB/P3 numbers of FORMATS.md §4.3) and against hostile input.
@Suite struct ICCProfileParsingTests {
    /// FORMATS.md §4.3: sRGB D50 colorants and chad (D65 → D50) as s15Fixed16 words.
    static let srgbColorants: [(String, [UInt32])] = [
        ("rXYZ", [0x6FA0, 0x38F5, 0x0390]), ("gXYZ", [0x6297, 0xB787, 0x18D9]), ("bXYZ", [0x249F, 0x0F84, 0xB6C3]),
    ]
    static let p3Colorants: [(String, [UInt32])] = [
        ("rXYZ", [0x83DF, 0x3DBF, 0xFFFF_FFBB]), ("gXYZ", [0x4ABF, 0xB137, 0x0AB9]),
        ("bXYZ", [0x2838, 0x110B, 0xC8B9]),
    ]
    static let chadWords: [UInt32] = [
        0x0001_0C42, 0x0000_05DE, 0xFFFF_F325, 0x0000_0793, 0x0000_FD90, 0xFFFF_FBA1, 0xFFFF_FDA2, 0x0000_03DC,
        0x0000_C06E,
    ]
    static let srgbPara = TestTag.para(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])

    static func xyzTag(_ words: [UInt32]) -> [UInt8] { fourCC("XYZ ") + [0, 0, 0, 0] + words.flatMap(bytes32) }

    /// A v4 matrix/TRC RGB profile with the given colorants and one curve for all channels.
    static func rgbProfile(
        colorants: [(String, [UInt32])] = srgbColorants, trc: [UInt8] = srgbPara, green: [UInt8]? = nil,
        chad: Bool = true, desc: [UInt8] = TestTag.mluc([("enUS", "Test RGB")])
    ) -> [UInt8] {
        var tags: [(String, [UInt8])] = [("desc", desc), ("wtpt", TestTag.xyz(0.9642, 1, 0.8249))]
        if chad { tags.append(("chad", fourCC("sf32") + [0, 0, 0, 0] + chadWords.flatMap(bytes32))) }
        tags += colorants.map { ($0.0, xyzTag($0.1)) }
        tags += [("rTRC", trc), ("gTRC", green ?? trc), ("bTRC", trc)]
        return makeTestProfile(tags: tags)
    }

    static func unsupportedReason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            if case .unsupportedProfile(_, let reason) = error as? ColorError { return reason }
            return "other error: \(error)"
        }
    }

    static func malformedOffset(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch {
            if case .malformedProfile(_, let offset) = error as? ColorError { return offset }
            return -1
        }
    }

    // MARK: Recognition and colorimetry

    @Test func publishedSRGBAndP3BytesAreRecognised() throws {
        #expect(try ICCProfile(data: Self.rgbProfile()).colorSpace() == .sRGB)
        #expect(try ICCProfile(data: Self.rgbProfile(colorants: Self.p3Colorants)).colorSpace() == .displayP3)
        let profile = try ICCProfile(data: Self.rgbProfile())
        #expect(profile.version == .v4 && profile.majorVersion == 4 && profile.minorVersion == 3)
        #expect(profile.deviceClass == .display && profile.dataColorSpace == .rgb && profile.connectionSpace == .xyz)
        #expect(profile.profileDescription == "Test RGB")
        #expect(profile.tagSignatures == ["desc", "wtpt", "chad", "rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"])
    }

    @Test func v2ProfileWithoutChadIsUnadaptedFromItsWhitePoint() throws {
        // v2 display practice: wtpt = D65, colorants Bradford-adapted to D50, no chad.
        let d65 = TestTag.xyz(0.3127 / 0.3290, 1, 0.3583 / 0.3290)
        var tags: [(String, [UInt8])] = [
            ("desc", TestTag.desc("v2 sRGB")), ("cprt", TestTag.text("none")), ("wtpt", d65),
        ]
        tags += Self.srgbColorants.map { ($0.0, Self.xyzTag($0.1)) }
        let curve = TestTag.curv([UInt16(0x0233)])  // gamma 563/256
        tags += [("rTRC", curve), ("gTRC", curve), ("bTRC", curve)]
        let profile = try ICCProfile(data: makeTestProfile(version: (2, 0x40), tags: tags))
        #expect(profile.version == .v2 && profile.profileDescription == "v2 sRGB")
        let space = try profile.colorSpace()
        let p = try #require(space.primaries)
        #expect(abs(p.red.x - 0.64) < 1e-4 && abs(p.red.y - 0.33) < 1e-4)
        #expect(abs(p.green.x - 0.30) < 1e-4 && abs(p.green.y - 0.60) < 1e-4)
        #expect(abs(p.blue.x - 0.15) < 1e-4 && abs(p.blue.y - 0.06) < 1e-4)
        #expect(abs(space.whitePoint.x - 0.3127) < 1e-4 && abs(space.whitePoint.y - 0.3290) < 1e-4)
        #expect(space.transferFunction == .gamma(563.0 / 256.0))
    }

    // MARK: Curves

    @Test func parametricFunctionTypesFollowTheICCFormulas() throws {
        func curve(_ tag: [UInt8]) throws -> TransferFunction {
            try ICCProfile(data: Self.rgbProfile(colorants: Self.p3Colorants, trc: tag)).colorSpace().transferFunction
        }
        // Hand-written ICC.1 §10.18 formulas; parameters are multiples of 1/65536 or close to them.
        let cases: [([UInt8], (Double) -> Double)] = [
            (TestTag.para(0, [2.0]), { x in x * x }),
            (TestTag.para(1, [2.0, 1.25, -0.125]), { x in x >= 0.1 ? (1.25 * x - 0.125) * (1.25 * x - 0.125) : 0 }),
            (
                TestTag.para(2, [2.0, 1, -0.125, 0.0625]),
                { x in x >= 0.125 ? (x - 0.125) * (x - 0.125) + 0.0625 : 0.0625 }
            ),
            (
                TestTag.para(3, [3.0, 0.5, 0.5, 0.25, 0.125]),
                { x in x >= 0.125 ? (0.5 * x + 0.5) * (0.5 * x + 0.5) * (0.5 * x + 0.5) : 0.25 * x }
            ),
            (
                TestTag.para(4, [2.0, 0.5, 0.25, 0.5, 0.25, 0.0625, 0.03125]),
                { x in
                    x >= 0.25 ? (0.5 * x + 0.25) * (0.5 * x + 0.25) + 0.0625 : 0.5 * x + 0.03125
                }
            ),
        ]
        for (tag, formula) in cases {
            let tf = try curve(tag)
            for i in 0...20 {
                let x = Double(i) / 20
                #expect(abs(tf.linear(fromEncoded: x) - formula(x)) < 1e-9, "type \(be16(tag, 8)) at \(x): \(tf)")
            }
        }
        #expect(
            Self.malformedOffset { _ = try ICCProfile(data: Self.rgbProfile(trc: TestTag.para(5, [1]))).colorSpace() }
                != nil)
    }

    @Test func curvTagsAreIdentityGammaOrTables() throws {
        func curve(_ tag: [UInt8]) throws -> TransferFunction {
            try ICCProfile(data: Self.rgbProfile(colorants: Self.p3Colorants, trc: tag)).colorSpace().transferFunction
        }
        #expect(try curve(TestTag.curv([])) == .linear)
        #expect(try curve(TestTag.curv([0x0100])) == .linear)
        #expect(try curve(TestTag.curv([0x0200])) == .gamma(2))
        let table = try curve(TestTag.curv([0, 16384, 65535]))
        #expect(abs(table.linear(fromEncoded: 0.25) - 0.125) < 1e-4)  // halfway between 0 and 16384/65535
        #expect(abs(table.linear(fromEncoded: 0.75) - (16384.0 / 65535 + 1) / 2) < 1e-4)
        // A 16-bit table of the sRGB curve is recognised as the sRGB curve (and the space as Display P3).
        let samples = (0..<1024).map { i -> UInt16 in
            let x = Double(i) / 1023
            let y = x <= 0.04045 ? x / 12.92 : Foundation.pow((x + 0.055) / 1.055, 2.4)
            return UInt16((y * 65535).rounded())
        }
        #expect(
            try ICCProfile(data: Self.rgbProfile(colorants: Self.p3Colorants, trc: TestTag.curv(samples))).colorSpace()
                == .displayP3)
    }

    // MARK: Identification of profiles that cannot be converted

    @Test func lutAndNonRGBProfilesAreIdentifiedThenRejected() throws {
        let lut = fourCC("mft2") + Array(repeating: 0, count: 48)
        let cmyk = try ICCProfile(
            data: makeTestProfile(
                version: (2, 0x10), deviceClass: "prtr", colorSpace: "CMYK", pcs: "Lab ",
                tags: [
                    ("desc", TestTag.desc("Press")), ("A2B0", lut),
                    ("B2A0", fourCC("mft1") + Array(repeating: 0, count: 48)),
                ]))
        #expect(cmyk.deviceClass == .output && cmyk.dataColorSpace == .cmyk && cmyk.connectionSpace == .lab)
        #expect(cmyk.profileDescription == "Press")
        let cmykReason = try #require(Self.unsupportedReason { _ = try cmyk.colorSpace() })
        #expect(cmykReason.contains("CMYK") && cmykReason.contains("A2B0 'mft2'"), "\(cmykReason)")

        let rgbLUT = try ICCProfile(
            data: makeTestProfile(tags: [
                ("desc", TestTag.mluc([("enUS", "LUT RGB")])),
                ("A2B0", fourCC("mAB ") + Array(repeating: 0, count: 28)),
                ("B2A0", fourCC("mBA ") + Array(repeating: 0, count: 28)),
            ]))
        let lutReason = try #require(Self.unsupportedReason { _ = try rgbLUT.colorSpace() })
        #expect(lutReason.contains("LUT-based") && lutReason.contains("A2B0 'mAB '"), "\(lutReason)")

        let link = try ICCProfile(
            data: makeTestProfile(deviceClass: "link", tags: [("desc", TestTag.text("Link")), ("A2B0", lut)]))
        #expect(link.deviceClass == .deviceLink)
        #expect(Self.unsupportedReason { _ = try link.colorSpace() }?.contains("device link") == true)

        var labPCS = Self.rgbProfile()
        labPCS.replaceSubrange(20..<24, with: fourCC("Lab "))
        #expect(Self.unsupportedReason { _ = try ICCProfile(data: labPCS).colorSpace() }?.contains("Lab") == true)

        let mixed = Self.rgbProfile(green: TestTag.para(0, [1.8]))
        let mixedReason = try #require(Self.unsupportedReason { _ = try ICCProfile(data: mixed).colorSpace() })
        #expect(mixedReason.contains("differ"), "\(mixedReason)")

        var v5 = Self.rgbProfile()
        v5[8] = 5
        #expect(Self.unsupportedReason { _ = try ICCProfile(data: v5) }?.contains("iccMAX") == true)
    }

    @Test func descriptionPrefersUSEnglishThenEnglishThenFirst() throws {
        func description(_ records: [(String, String)]) throws -> String {
            try ICCProfile(data: Self.rgbProfile(desc: TestTag.mluc(records))).profileDescription
        }
        #expect(try description([("deDE", "Farbraum"), ("enUS", "Colour space")]) == "Colour space")
        #expect(try description([("frFR", "Espace"), ("enGB", "Space")]) == "Space")
        #expect(try description([("deDE", "Farbraum"), ("jaJP", "色空間")]) == "Farbraum")
        #expect(try description([("enUS", "Emoji 🎨 ok")]) == "Emoji 🎨 ok")
        #expect(try ICCProfile(data: Self.rgbProfile(desc: TestTag.text("Plain"))).profileDescription == "Plain")
    }

    // MARK: Hostile input

    @Test func malformedHeadersAndTablesThrowWithTheOffset() throws {
        let good = Self.rgbProfile()
        #expect(Self.malformedOffset { _ = try ICCProfile(data: []) } == 0)
        #expect(Self.malformedOffset { _ = try ICCProfile(data: Array(good[0..<100])) } == 100)
        // The declared size is larger than the data.
        #expect(Self.malformedOffset { _ = try ICCProfile(data: Array(good.dropLast(4))) } == 0)
        var noSignature = good
        noSignature[36] = 0
        #expect(Self.malformedOffset { _ = try ICCProfile(data: noSignature) } == 36)
        var hugeCount = good
        hugeCount.replaceSubrange(128..<132, with: bytes32(0xFFFF_FFFF))
        #expect(Self.malformedOffset { _ = try ICCProfile(data: hugeCount) } == 128)
        var badTag = good
        badTag.replaceSubrange(136..<140, with: bytes32(UInt32(good.count - 4)))  // desc offset near the end
        #expect(Self.malformedOffset { _ = try ICCProfile(data: badTag) } == 132)
        var badVersion = good
        badVersion[8] = 1
        #expect(Self.malformedOffset { _ = try ICCProfile(data: badVersion) } == 8)
        // An mluc claiming 2³²−1 records, and a curv claiming 2³²−1 entries.
        let hugeMLUC =
            fourCC("mluc") + [0, 0, 0, 0] + bytes32(0xFFFF_FFFF) + bytes32(12) + Array(repeating: 0, count: 12)
        #expect(Self.malformedOffset { _ = try ICCProfile(data: Self.rgbProfile(desc: hugeMLUC)) } != nil)
        let hugeCurv = fourCC("curv") + [0, 0, 0, 0] + bytes32(0xFFFF_FFFF) + [0, 0]
        let profile = try ICCProfile(data: Self.rgbProfile(trc: hugeCurv))
        #expect(Self.malformedOffset { _ = try profile.colorSpace() } != nil)
        // Trailing bytes after the declared size are not part of the profile.
        #expect(try ICCProfile(data: good + [1, 2, 3]).data == good)
    }

    @Test func truncatedAndMutatedProfilesNeverCrash() throws {
        var rng = SplitMix64(seed: 0x1CC)
        let seeds = [
            try ColorSpace.sRGB.iccProfile().data, try ColorSpace.displayP3.iccProfile(version: .v2).data,
            try ColorSpace.genericGrayGamma2_2.iccProfile().data, Self.rgbProfile(),
        ]
        var threw = 0
        var parsed = 0
        func attempt(_ bytes: [UInt8]) {
            do {
                let profile = try ICCProfile(data: bytes)
                _ = profile.profileDescription
                _ = try profile.colorSpace()
                parsed += 1
            } catch {
                threw += 1
            }
        }
        for seed in seeds {
            // Every truncation, with the header's size patched to match so parsing goes past the header.
            for n in 0..<seed.count {
                var prefix = Array(seed[0..<n])
                if n >= 4 { prefix.replaceSubrange(0..<4, with: bytes32(UInt32(n))) }
                attempt(prefix)
            }
            // Random byte mutations, concentrated on the header and tag table half the time.
            for _ in 0..<1500 {
                var bytes = seed
                for _ in 0..<(1 + Int(rng.next() % 8)) {
                    let limit = rng.next() % 2 == 0 ? min(bytes.count, 256) : bytes.count
                    bytes[Int(rng.next() % UInt64(limit))] = UInt8(truncatingIfNeeded: rng.next())
                }
                attempt(bytes)
            }
        }
        // Pure garbage with a plausible header.
        for _ in 0..<500 {
            var bytes = (0..<(132 + Int(rng.next() % 600))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            bytes.replaceSubrange(0..<4, with: bytes32(UInt32(bytes.count)))
            bytes.replaceSubrange(36..<40, with: fourCC("acsp"))
            bytes[8] = 4
            attempt(bytes)
        }
        #expect(threw > 1000 && parsed > 100, "threw \(threw), parsed \(parsed)")
    }
}

/// A small deterministic generator for fuzz tests.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
