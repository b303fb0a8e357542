import Foundation
import LuxCodecs
import LuxPixels
import LuxTestSupport
import Testing

/// `lux develop` and `lux demosaic`, run as the built executable (skipped when it has not been built); the
/// files they write are read back with exiftool.
@Suite(.serialized) struct DevelopCLI {
    static func exif(_ file: String, _ tags: [String]) throws -> [String: String] {
        let r = try ExternalTool.capture("exiftool", ["-s", "-n"] + tags.map { "-" + $0 } + [file])
        var out: [String: String] = [:]
        for line in r.text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 {
                out[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return out
    }

    @Test(
        "lux develop writes JPEG/TIFF with the colour space's ICC profile, the raw's Exif and the crop size", .needsLux,
        .needs("exiftool"))
    func develop() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-develop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = TestFiles.canon550D
        let raw = try Self.exif(source, ["Make", "Model", "DefaultCropSize", "ExposureTime", "ISO"])
        let cases: [(String, [String], String, String?)] = [
            ("p3.jpg", ["--color-space", "p3", "--quality", "85"], "Display P3", nil),
            ("adobe.jpg", ["--color-space", "adobe", "--half"], "Adobe RGB", nil),
            ("srgb.tif", ["--half"], "sRGB", "16 16 16"),
            ("linear.tif", ["--color-space", "linear", "--depth", "float", "--half"], "Linear", "32 32 32"),
        ]
        for (name, flags, profile, bits) in cases {
            let out = dir.appendingPathComponent(name).path
            let r = try ExternalTool.capture(lux, ["develop", source, "-o", out] + flags)
            #expect(r.status == 0, "\(name): \(r.errorText)")
            let tags = try Self.exif(
                out,
                [
                    "ProfileDescription", "Make", "Model", "ImageWidth", "ImageHeight", "BitsPerSample", "SampleFormat",
                    "Orientation", "ExposureTime", "ISO",
                ])
            #expect(
                tags["ProfileDescription"]?.contains(profile) == true,
                "\(name): profile \(tags["ProfileDescription"] ?? "none")")
            #expect(tags["Make"] == raw["Make"] && tags["Model"] == raw["Model"], "\(name): \(tags)")
            #expect(tags["ExposureTime"] == raw["ExposureTime"] && tags["ISO"] == raw["ISO"], "\(name): \(tags)")
            let crop = (raw["DefaultCropSize"] ?? "").split(separator: " ").compactMap { Double($0) }
            let scale = flags.contains("--half") ? 0.5 : 1
            if crop.count == 2, let w = Double(tags["ImageWidth"] ?? ""), let h = Double(tags["ImageHeight"] ?? "") {
                #expect(abs(w - crop[0] * scale) <= 1 && abs(h - crop[1] * scale) <= 1, "\(name): \(w)×\(h) vs \(crop)")
            } else {
                Issue.record("\(name): no size in \(tags)")
            }
            if let bits { #expect(tags["BitsPerSample"] == bits, "\(name): \(tags)") }
            if name == "linear.tif" { #expect(tags["SampleFormat"]?.hasPrefix("3") == true, "float samples: \(tags)") }
            #expect(tags["Orientation"] == nil || tags["Orientation"] == "1")
        }
    }

    @Test(
        "a folder run develops the good files, names each bad one and exits non-zero, leaving no partial files",
        .needsLux)
    func errors() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-develop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = TestFiles.raw + "/metadata-only/canon_350d_adobe_dng_STRIPPED.dng"
        let r = try ExternalTool.capture(lux, ["develop", TestFiles.canon550D, bad, "-o", dir.path + "/", "--half"])
        #expect(r.status != 0)
        #expect(
            r.errorText.contains("canon_350d_adobe_dng_STRIPPED.dng") && r.errorText.contains("no pixel data"),
            "\(r.errorText)")
        #expect(!r.errorText.contains("Fatal error"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(files == ["canon_eos550d_magiclantern_14bit.jpg"], "\(files)")
        let range = try ExternalTool.capture(
            lux, ["develop", TestFiles.canon550D, "-o", dir.path + "/x.jpg", "--exposure", "7"])
        #expect(range.status != 0 && range.errorText.contains("exposure"), "\(range.errorText)")
    }

    @Test("lux demosaic reconstructs a PGM mosaic of a coloured flat field exactly, for each layout", .needsLux)
    func demosaic() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-demosaic")
        defer { try? FileManager.default.removeItem(at: dir) }
        let colour: [UInt16] = [51, 128, 204]
        for pattern in CFAPattern.allCases {
            let (w, h) = (24, 18)
            var pgm = Data("P5\n\(w) \(h)\n255\n".utf8)
            for y in 0..<h { for x in 0..<w { pgm.append(UInt8(colour[pattern.channel(x: x, y: y).rawValue])) } }
            let input = dir.appendingPathComponent("m.pgm")
            try pgm.write(to: input)
            let output = dir.appendingPathComponent("out.ppm")
            let r = try ExternalTool.capture(
                lux, ["demosaic", input.path, "--cfa", pattern.rawValue, "-o", output.path, "--overwrite"])
            #expect(r.status == 0, "\(r.errorText)")
            let ppm = try NetpbmImage(Data(contentsOf: output))
            #expect(ppm.width == w && ppm.height == h && ppm.maxValue == 65535)
            let expected = colour.map { UInt16((Double($0) / 255 * 65535).rounded()) }
            for i in 0..<(w * h) {
                for c in 0..<3 where abs(Int(ppm.samples[3 * i + c]) - Int(expected[c])) > 1 {
                    Issue.record("\(pattern) pixel \(i) channel \(c): \(ppm.samples[3 * i + c]) vs \(expected[c])")
                    return
                }
            }
        }
    }
}
