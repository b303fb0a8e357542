import Foundation
import LuxColor
import LuxTestSupport
import Testing

/// Lux's generated profiles read by third-party tools: lcms2's `transicc` converts through them and must
/// agree with ``ColorConverter``; exiftool must read them without warnings.
@Suite struct ICCInteropTests {
    /// A 6×6×6 grid over 0…255 plus near-black, near-white, mid-gray and some mixed values.
    static let grid: [SIMD3<Double>] = {
        let steps = stride(from: 0.0, through: 255, by: 51).map { $0 }
        var colors = [SIMD3<Double>]()
        for r in steps { for g in steps { for b in steps { colors.append(SIMD3(r, g, b)) } } }
        colors += [
            SIMD3(1, 1, 1), SIMD3(254, 254, 254), SIMD3(128, 128, 128), SIMD3(3, 0, 0), SIMD3(0, 2, 250),
            SIMD3(10, 200, 30), SIMD3(255, 128, 0), SIMD3(17, 34, 68), SIMD3(250, 250, 5),
        ]
        return colors
    }()

    static func writeProfile(_ space: ColorSpace, _ version: ICCProfile.Version, in dir: String) throws -> String {
        let path = "\(dir)/\(space.name.replacingOccurrences(of: " ", with: "_"))_\(version).icc"
        try Data(try space.iccProfile(version: version).data).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Converts `colors` (0…255) with transicc, relative colorimetric, in floating point; values clipped to 0…255.
    static func transicc(_ colors: [SIMD3<Double>], from source: String, to destination: String) throws -> [SIMD3<
        Double
    >] {
        let input = colors.map { "\($0.x) \($0.y) \($0.z)" }.joined(separator: "\n") + "\n"
        let out = try ExternalTool.run("transicc", ["-n", "-t1", "-i", source, "-o", destination], input: input)
        #expect(out.status == 0, "transicc failed: \(out.stderr)")
        #expect(!out.stderr.lowercased().contains("error"), "transicc: \(out.stderr)")
        let values = out.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
        try #require(
            values.count == 3 * colors.count, "transicc printed \(values.count) numbers: \(out.stdout.prefix(200))")
        return (0..<colors.count).map { i in
            SIMD3(values[3 * i], values[3 * i + 1], values[3 * i + 2]).clamped(
                lowerBound: .zero, upperBound: SIMD3(repeating: 255))
        }
    }

    @Test(
        .enabled(if: ExternalTool.isAvailable("transicc"), "needs transicc (liblcms2-utils)"),
        arguments: [ICCProfile.Version.v4, .v2])
    func lcmsConversionsThroughOurProfilesMatchColorConverter(_ version: ICCProfile.Version) throws {
        let dir = try ExternalTool.temporaryDirectory()
        let srgb = try Self.writeProfile(.sRGB, version, in: dir)
        let p3 = try Self.writeProfile(.displayP3, version, in: dir)
        for (source, destination, from, to) in [
            (ColorSpace.sRGB, ColorSpace.displayP3, srgb, p3), (.displayP3, .sRGB, p3, srgb),
        ] {
            let lcms = try Self.transicc(Self.grid, from: from, to: to)
            let converter = try ColorConverter(from: source, to: destination)
            var src8: [UInt8] = Self.grid.flatMap { c -> [UInt8] in [UInt8(c.x), UInt8(c.y), UInt8(c.z), 255] }
            var dst8 = [UInt8](repeating: 0, count: src8.count)
            converter.convert(rgba8: &src8, into: &dst8, count: Self.grid.count)
            var worst = 0.0
            var worst8 = 0.0
            for (i, color) in Self.grid.enumerated() {
                let ours = converter.convert(color / 255) * 255
                let error = maxDifference(ours, lcms[i])
                worst = max(worst, error)
                #expect(error <= 0.5, "\(source) → \(destination) \(color): ours \(ours), lcms \(lcms[i])")
                // The 8-bit row path rounds to whole levels: within half a level of lcms plus table error.
                let ours8 = SIMD3(Double(dst8[4 * i]), Double(dst8[4 * i + 1]), Double(dst8[4 * i + 2]))
                worst8 = max(worst8, maxDifference(ours8, lcms[i]))
                #expect(maxDifference(ours8, lcms[i]) <= 0.6, "rgba8 \(color): ours \(ours8), lcms \(lcms[i])")
            }
            print("\(version) \(source) → \(destination): max |Lux − lcms| = \(worst) (Double), \(worst8) (rgba8)")
        }
    }

    @Test(.enabled(if: ExternalTool.isAvailable("transicc"), "needs transicc (liblcms2-utils)"))
    func lcmsAgreesOnGrayAndWideGamutProfiles() throws {
        let dir = try ExternalTool.temporaryDirectory()
        let colors = Self.grid.filter { $0.x == $0.y && $0.y == $0.z }
        for version in [ICCProfile.Version.v4, .v2] {
            let gray = try Self.writeProfile(.genericGrayGamma2_2, version, in: dir)
            let srgb = try Self.writeProfile(.sRGB, version, in: dir)
            let input = colors.map { "\($0.x)" }.joined(separator: "\n") + "\n"
            let out = try ExternalTool.run("transicc", ["-n", "-t1", "-i", gray, "-o", srgb], input: input)
            let values = out.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
            try #require(values.count == 3 * colors.count)
            let converter = try ColorConverter(from: .genericGrayGamma2_2, to: .sRGB)
            for (i, c) in colors.enumerated() {
                let ours = converter.convert(SIMD3(c.x / 255, 0, 0)) * 255
                #expect(abs(ours.x - values[3 * i]) <= 0.5, "\(version) gray \(c.x): \(ours.x) vs \(values[3 * i])")
                #expect(abs(values[3 * i] - values[3 * i + 1]) < 0.01, "gray stays gray")
            }
        }
        // Adobe RGB and ROMM → sRGB (clipped) through lcms.
        for space in [ColorSpace.adobeRGB, .rommRGB, .itur2020] {
            let from = try Self.writeProfile(space, .v4, in: dir)
            let to = try Self.writeProfile(.sRGB, .v4, in: dir)
            let lcms = try Self.transicc(Self.grid, from: from, to: to)
            let converter = try ColorConverter(from: space, to: .sRGB)
            for (i, color) in Self.grid.enumerated() {
                let ours = converter.convert(color / 255) * 255
                #expect(maxDifference(ours, lcms[i]) <= 0.5, "\(space) \(color): ours \(ours), lcms \(lcms[i])")
            }
        }
    }

    @Test(.enabled(if: ExternalTool.isAvailable("exiftool"), "needs exiftool"))
    func exiftoolReadsOurProfilesWithoutWarnings() throws {
        let dir = try ExternalTool.temporaryDirectory()
        let cases: [(ColorSpace, ICCProfile.Version, String)] = [
            (.sRGB, .v4, "4.3.0"), (.displayP3, .v4, "4.3.0"), (.sRGB, .v2, "2.4.0"), (.displayP3, .v2, "2.4.0"),
            (.genericGrayGamma2_2, .v4, "4.3.0"), (.genericGrayGamma2_2, .v2, "2.4.0"),
        ]
        for (space, version, versionText) in cases {
            let path = try Self.writeProfile(space, version, in: dir)
            let out = try ExternalTool.run(
                "exiftool", ["-a", "-G1", "-s", "-validate", "-warning", "-ICC-header:all", "-ICC_Profile:all", path],
                input: "")
            var tags = [String: String]()
            for line in out.stdout.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let key = parts[0].split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) ?? ""
                tags[key] = parts[1].trimmingCharacters(in: .whitespaces)
            }
            #expect(tags["Warning"] == nil, "\(path): \(out.stdout)")
            #expect(tags["Validate"] == "OK", "\(path): \(out.stdout)")
            #expect(out.stderr.isEmpty, "\(out.stderr)")
            #expect(tags["ProfileDescription"] == space.name)
            #expect(tags["ProfileVersion"] == versionText)
            #expect(tags["ProfileClass"] == "Display Device Profile")
            #expect(tags["ProfileConnectionSpace"] == "XYZ")
            if space == .sRGB {
                #expect(tags["ColorSpaceData"] == "RGB")
                #expect(tags["RedMatrixColumn"] == "0.43604 0.22249 0.01392")
                #expect(tags["GreenMatrixColumn"] == "0.38512 0.7169 0.09706")
                #expect(tags["BlueMatrixColumn"] == "0.14305 0.06061 0.71391")
            }
            if space == .displayP3 {
                #expect(tags["RedMatrixColumn"] == "0.51512 0.2412 -0.00105")
            }
            if space == .genericGrayGamma2_2 { #expect(tags["ColorSpaceData"] == "GRAY") }
            #expect(tags["MediaWhitePoint"] == (version == .v4 ? "0.9642 1 0.82491" : "0.95045 1 1.08905"))
        }
    }
}
