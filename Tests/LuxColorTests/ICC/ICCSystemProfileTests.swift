import Foundation
import LuxColor
import LuxTestSupport
import Testing

/// Real profiles made by other software (colord's and Ghostscript's, when installed): Lux must parse
/// them like exiftool does, and convert through the matrix/TRC ones like lcms does.
@Suite struct ICCSystemProfileTests {
    static let directories = ["/usr/share/color/icc/colord", "/usr/share/color/icc/ghostscript"]

    static let paths: [String] = directories.flatMap { dir in
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".icc") }.sorted()
            .map { "\(dir)/\($0)" }
    }

    static func load(_ path: String) throws -> ICCProfile {
        try ICCProfile(data: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(
        .enabled(
            if: !paths.isEmpty && ExternalTool.isAvailable("exiftool"),
            "needs system ICC profiles (colord-data, libgs-common) and exiftool"))
    func headersAndDescriptionsMatchExiftool() throws {
        for path in Self.paths {
            let profile = try Self.load(path)
            let out = try ExternalTool.run(
                "exiftool", ["-a", "-s", "-ICC-header:all", "-ICC_Profile:ProfileDescription", path], input: "")
            var tags = [String: String]()
            for line in out.stdout.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let key = parts[0].trimmingCharacters(in: .whitespaces)
                if tags[key] == nil { tags[key] = parts[1].trimmingCharacters(in: .whitespaces) }  // first record
            }
            let classes = [
                "mntr": "Display Device Profile", "prtr": "Output Device Profile", "scnr": "Input Device Profile",
                "spac": "ColorSpace Conversion Profile", "nmcl": "NamedColor Profile", "link": "DeviceLink Profile",
                "abst": "Abstract Profile",
            ]
            #expect(tags["ProfileDescription"] == profile.profileDescription, "\(path)")
            #expect(
                tags["ProfileVersion"]?.hasPrefix("\(profile.majorVersion).\(profile.minorVersion).") == true, "\(path)"
            )
            #expect(tags["ProfileClass"] == classes[profile.deviceClass.rawValue], "\(path)")
            #expect(tags["ColorSpaceData"] == profile.dataColorSpace.description, "\(path)")
            #expect(tags["ProfileConnectionSpace"] == profile.connectionSpace.description, "\(path)")
        }
    }

    @Test(.enabled(if: !paths.isEmpty, "needs system ICC profiles (colord-data, libgs-common)"))
    func standardProfilesAreRecognised() throws {
        let expected: [(String, ColorSpace)] = [
            ("ghostscript/srgb.icc", .sRGB), ("ghostscript/default_rgb.icc", .sRGB), ("ghostscript/a98.icc", .adobeRGB),
            ("ghostscript/scrgb.icc", .linearSRGB), ("ghostscript/ps_gray.icc", .linearGray),
        ]
        for (file, space) in expected {
            let path = "/usr/share/color/icc/" + file
            guard FileManager.default.fileExists(atPath: path) else { continue }
            #expect(try Self.load(path).colorSpace() == space, "\(file)")
        }
        // Colorimetric content of a non-standard one: colord's Apple RGB (primaries from its chrm tag).
        let apple = "/usr/share/color/icc/colord/AppleRGB.icc"
        if FileManager.default.fileExists(atPath: apple) {
            let space = try Self.load(apple).colorSpace()
            let p = try #require(space.primaries)
            #expect(abs(p.red.x - 0.625) < 1e-4 && abs(p.red.y - 0.340) < 1e-4)
            #expect(abs(p.green.x - 0.280) < 1e-4 && abs(p.green.y - 0.595) < 1e-4)
            #expect(abs(p.blue.x - 0.155) < 1e-4 && abs(p.blue.y - 0.070) < 1e-4)
            #expect(space.transferFunction == .gamma(1.8))
        }
    }

    @Test(.enabled(if: !paths.isEmpty, "needs system ICC profiles (colord-data, libgs-common)"))
    func unsupportedKindsAreIdentifiedAndRejected() throws {
        for path in Self.paths {
            let profile = try Self.load(path)
            let convertible =
                (profile.dataColorSpace == .rgb || profile.dataColorSpace == .gray)
                && profile.deviceClass != .namedColor && profile.deviceClass != .deviceLink
            guard !convertible else { continue }
            #expect(throws: ColorError.self, "\(path)") { try profile.colorSpace() }
            do {
                _ = try profile.colorSpace()
            } catch let error {
                guard case .unsupportedProfile(let description, let reason) = error else {
                    Issue.record("\(path): \(error)")
                    continue
                }
                #expect(description == profile.profileDescription)
                #expect(reason.contains(profile.dataColorSpace == .cmyk ? "CMYK" : "profile"), "\(reason)")
            }
        }
    }

    @Test(
        .enabled(
            if: !paths.isEmpty && ExternalTool.isAvailable("transicc"),
            "needs system ICC profiles (colord-data, libgs-common) and transicc"))
    func lcmsAgreesWithOurReadingOfSystemProfiles() throws {
        let dir = try ExternalTool.temporaryDirectory()
        let srgb = try ICCInteropTests.writeProfile(.sRGB, .v4, in: dir)
        var checked = 0
        for path in Self.paths {
            guard let space = try? Self.load(path).colorSpace() else { continue }
            let converter = try ColorConverter(from: space, to: .sRGB)
            if space.model == .gray {
                let levels = stride(from: 0.0, through: 255, by: 15).map { $0 }
                let out = try ExternalTool.run(
                    "transicc", ["-n", "-t1", "-i", path, "-o", srgb],
                    input: levels.map { "\($0)" }.joined(separator: "\n") + "\n")
                let values = out.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
                try #require(values.count == 3 * levels.count, "\(path): \(out.stderr)")
                for (i, level) in levels.enumerated() {
                    let ours = converter.convert(SIMD3(level / 255, 0, 0)) * 255
                    #expect(
                        abs(ours.x - min(max(values[3 * i], 0), 255)) <= 0.5,
                        "\(path) \(level): \(ours.x) vs \(values[3 * i])")
                }
            } else {
                // Lux maps device white to the destination white exactly. lcms maps it to the colorants' sum,
                // which in sloppy profiles (Ghostscript's esRGB: 2·10⁻⁴ off D50) is not quite the PCS white;
                // near-black channels amplify that to about one 8-bit level.
                let data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                let sum = ["rXYZ", "gXYZ", "bXYZ"].map { tag -> SIMD3<Double> in
                    let t = tagBytes(data, tag)!
                    return SIMD3((0..<3).map { Double(Int32(bitPattern: be32(t, 8 + 4 * $0))) / 65536 })
                }.reduce(.zero, +)
                let d50 = SIMD3(0.9642, 1, 0.8249)
                let tolerance = maxDifference(sum, d50) <= 1e-4 ? 0.5 : 1.5
                let lcms = try ICCInteropTests.transicc(ICCInteropTests.grid, from: path, to: srgb)
                var worst = 0.0
                for (i, color) in ICCInteropTests.grid.enumerated() {
                    let ours = converter.convert(color / 255) * 255
                    worst = max(worst, maxDifference(ours, lcms[i]))
                    #expect(
                        maxDifference(ours, lcms[i]) <= tolerance, "\(path) \(color): ours \(ours), lcms \(lcms[i])")
                }
                print("\(path): max |Lux − lcms| = \(worst)")
            }
            checked += 1
        }
        #expect(checked > 0)
    }
}
