import Foundation
import LuxTestSupport
import Testing

/// `lux convert` from an uncompressed 8-bit RGB TIFF to a TIFF, which goes from the stored rows to the output's strips.
///
/// The rows are colour-matched by table. Judged by tificc (Little CMS) with the profile the output embeds, tiffinfo,
/// exiftool and the samples vips reads.
@Suite struct ConvertTIFFTests {
    /// A crop of the iPhone photo written by vips (strips of a few rows) and rewritten by tiffcp as one strip of the
    /// whole image, as Pillow writes it; an odd width, so the output's rows pad.
    static func inputs(in dir: URL) throws -> [String] {
        let photo = try TestData.path(ConvertReencodeTests.photo)
        let strips = dir.appendingPathComponent("strips.tif").path
        let single = dir.appendingPathComponent("one-strip.tif").path
        try ExternalTool.capture("vips", ["crop", photo, strips, "1211", "857", "1001", "777"]).succeeded()
        try ExternalTool.capture("tiffcp", ["-r", "777", strips, single]).succeeded()
        return [strips, single]
    }

    @Test(
        "sRGB TIFF → Display P3 TIFF through the command, from many strips and from one: within 1 level of tificc -t1 with the profile it embeds (mean ≤ 0.05), tiffinfo accepts it, exiftool reads Display P3; a copy in its own (sRGB) space keeps the samples",
        .needsLux, .needs("vips", "tiffcp", "tificc", "tiffinfo", "exiftool"))
    func displayP3() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert-tiff")
        defer { try? FileManager.default.removeItem(at: dir) }
        for input in try Self.inputs(in: dir) {
            let name = URL(fileURLWithPath: input).lastPathComponent
            let out = dir.appendingPathComponent("p3-" + name).path
            try LuxExecutable.run(lux, ["convert", input, "-o", out, "--color-space", "p3"]).succeeded()
            let info = try ExternalTool.capture("tiffinfo", ["-D", out])
            #expect(info.status == 0 && !info.errorText.contains("Error"), "\(name): \(info.errorText)")
            let tags = try ConvertCommandTests.exiftool(out)
            #expect(tags["ProfileDescription"] as? String == "Display P3", "\(name)")
            #expect(tags["Compression"] as? Int == 1 && tags["BitsPerSample"] as? String == "8 8 8", "\(name)")

            // The profile the file declares, as exiftool extracts it, is the oracle's output profile.
            let profile = dir.appendingPathComponent(name + ".icc").path
            let extracted = try ExternalTool.capture("exiftool", ["-b", "-ICC_Profile", out]).succeeded()
            try extracted.stdout.write(to: URL(fileURLWithPath: profile))
            let reference = dir.appendingPathComponent("tificc-" + name).path
            try ExternalTool.capture("tificc", ["-t1", "-w8", "-o", profile, input, reference]).succeeded()
            let ours = try ConvertCommandTests.samples(out, in: dir)
            let theirs = try ConvertCommandTests.samples(reference, in: dir)
            try #require(ours.width == 1001 && ours.height == 777 && ours.samples.count == theirs.samples.count)
            let (most, mean) = absoluteDifferences(ours.samples, theirs.samples)
            #expect(most <= 1 && mean <= 0.05, "\(name): max \(most), mean \(mean)")

            let copy = dir.appendingPathComponent("srgb-" + name).path
            try LuxExecutable.run(lux, ["convert", input, "-o", copy]).succeeded()
            #expect(
                try ConvertCommandTests.samples(copy, in: dir).samples
                    == ConvertCommandTests.samples(input, in: dir).samples, "\(name)")
        }
    }
}
