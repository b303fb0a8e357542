import Foundation
import LuxCodecs
import LuxTestSupport
import Testing

/// `lux thumbnail` judged against Pillow's exact Lanczos resize of the full decode (vips decodes the HEIC), with
/// exiftool setting and reading orientations.
@Suite struct ThumbnailCommandTests {
    /// Whether Python has Pillow (the Lanczos reference).
    static let hasPillow: Bool = {
        guard ExternalTool.isAvailable("python3"),
            let r = try? ExternalTool.capture("python3", ["-c", "import PIL"])
        else { return false }
        return r.status == 0
    }()

    /// Prints the size of the thumbnail `sys.argv[1]` and its mean absolute difference, in 8-bit levels over the
    /// RGB samples, from Pillow's Lanczos resize of the full image `sys.argv[2]` (Exif orientation applied) to that
    /// size.
    static let compare = """
        import sys
        from PIL import Image, ImageOps
        ours = Image.open(sys.argv[1]).convert('RGB')
        full = ImageOps.exif_transpose(Image.open(sys.argv[2])).convert('RGB')
        ref = full.resize(ours.size, Image.LANCZOS)
        a, b = ours.tobytes(), ref.tobytes()
        print(ours.size[0], ours.size[1], sum(abs(x - y) for x, y in zip(a, b)) / len(a))
        """

    /// The thumbnail's width, height and mean difference from the reference made from `full`.
    static func difference(_ thumbnail: String, from full: String) throws -> (width: Int, height: Int, mean: Double) {
        let r = try ExternalTool.capture("python3", ["-c", compare, thumbnail, full])
        try #require(r.status == 0, "python3: \(r.errorText)")
        let fields = r.text.split(separator: " ").map { String($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(fields.count == 3, "unexpected output: \(r.text)")
        return (try #require(Int(fields[0])), try #require(Int(fields[1])), try #require(Double(fields[2])))
    }

    @Test(
        "a 12 MP JPEG: 160 x 120 within 1 level (mean) of Pillow's Lanczos resize of the full decode",
        .needsLux, .enabled(if: hasPillow, "needs python3 with Pillow"))
    func jpegMatchesLanczosReference() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-thumbnail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try TestData.path("livephoto/iphone6s_livephoto_train.jpg")
        let out = dir.appendingPathComponent("t.png").path
        let r = try LuxExecutable.run(lux, ["thumbnail", input, "-o", out, "--size", "160"])
        try #require(r.status == 0, "\(r.errorText)")
        let d = try Self.difference(out, from: input)
        #expect(d.width == 160 && d.height == 120)
        #expect(d.mean <= 1, "mean difference \(d.mean) levels")
    }

    @Test(
        "an Exif-rotated JPEG (orientation 6) gives the upright size and pixels; a folder with --jobs 2",
        .needsLux, .needs("vips", "exiftool"), .enabled(if: hasPillow, "needs python3 with Pillow"))
    func rotatedJPEGIsUpright() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-thumbnail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let sample = try TestData.path("livephoto/iphone6s_livephoto_train.jpg")
        for (name, area) in [("a.jpg", ["0", "0", "1200", "800"]), ("b.jpg", ["1600", "1000", "900", "600"])] {
            let path = inputs.appendingPathComponent(name).path
            let cut = try ExternalTool.capture("vips", ["extract_area", sample, path + "[Q=95]"] + area)
            try #require(cut.status == 0, "vips: \(cut.errorText)")
            let tag = try ExternalTool.capture("exiftool", ["-n", "-overwrite_original", "-Orientation=6", path])
            try #require(tag.status == 0, "exiftool: \(tag.errorText)")
        }
        let outputs = dir.appendingPathComponent("out")
        let r = try LuxExecutable.run(
            lux, ["thumbnail", inputs.path, "-o", outputs.path, "--size", "200", "--format", "png", "--jobs", "2"])
        try #require(r.status == 0, "\(r.errorText)")
        #expect(try CLIFixtures.files(in: outputs) == ["a.png", "b.png"])
        for (name, size) in [("a", (133, 200)), ("b", (133, 200))] {
            let out = outputs.appendingPathComponent(name + ".png").path
            let d = try Self.difference(out, from: inputs.appendingPathComponent(name + ".jpg").path)
            #expect(d.width == size.0 && d.height == size.1, "\(name): \(d.width) x \(d.height)")
            #expect(d.mean <= 1, "\(name): mean difference \(d.mean) levels")
            let tags = try ExternalTool.capture("exiftool", ["-n", "-s3", "-Orientation", out])
            #expect(["", "1"].contains(tags.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }

    @Test(
        "an iPhone HEIC rotated by irot: its stored thumbnail for 150 x 200, the full decode for 450 x 600, both near Pillow's Lanczos of libheif's decode",
        .needsLux, .needs("vips"), .enabled(if: hasPillow, "needs python3 with Pillow"))
    func iPhoneHEIC() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-thumbnail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try TestData.path("heic/iphone8plus.heic")
        let full = dir.appendingPathComponent("full.png").path
        let decode = try ExternalTool.capture("vips", ["copy", input, full])
        try #require(decode.status == 0, "vips: \(decode.errorText)")
        // The stored 240 x 320 thumbnail is a separate, coarser HEVC picture: within 3 levels; the full decode within 1.
        for (size, expected, tolerance) in [("200", (150, 200), 3.0), ("600", (450, 600), 1.0)] {
            let out = dir.appendingPathComponent("t\(size).png").path
            let r = try LuxExecutable.run(lux, ["thumbnail", input, "-o", out, "--size", size])
            try #require(r.status == 0, "\(r.errorText)")
            let d = try Self.difference(out, from: full)
            #expect(d.width == expected.0 && d.height == expected.1, "\(size): \(d.width) x \(d.height)")
            #expect(d.mean <= tolerance, "\(size): mean difference \(d.mean) levels")
        }
    }

    @Test(
        "a DNG with an embedded JPEG preview: the thumbnail is the preview's Lanczos resize (exiftool extracts it)",
        .needsLux, .needs("exiftool"), .enabled(if: hasPillow, "needs python3 with Pillow"))
    func dngPreview() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-thumbnail")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A real camera's DNG given a 504 x 378 JPEG preview (a photo reduced by 8) by LuxCodecs' DNG writer.
        var raw = try #require(
            try ImageFile.read(url: URL(fileURLWithPath: try TestData.path("raw/canon_eos550d_magiclantern_14bit.dng")))
                .rawImage)
        let photo = try Data(
            contentsOf: URL(fileURLWithPath: try TestData.path("livephoto/iphone6s_livephoto_train.jpg")))
        raw.renderedPreview = try JPEG.decode([UInt8](photo), reducedBy: 8).pixels
        let input = dir.appendingPathComponent("IMG_0001.dng")
        try ImageFile.write(raw, to: input)
        let preview = dir.appendingPathComponent("preview.jpg")
        // exiftool names a DNG's full-size JPEG preview after where it sits (a SubIFD JPEG is often JpgFromRaw).
        let extracted = try ["PreviewImage", "JpgFromRaw", "OtherImage"].map {
            try ExternalTool.capture("exiftool", ["-b", "-" + $0, input.path]).stdout
        }
        let jpeg = try #require(extracted.first { $0.count > 1000 }, "exiftool found no preview")
        try jpeg.write(to: preview)
        let out = dir.appendingPathComponent("t.png").path
        let r = try LuxExecutable.run(lux, ["thumbnail", input.path, "-o", out, "--size", "200"])
        try #require(r.status == 0, "\(r.errorText)")
        let d = try Self.difference(out, from: preview.path)
        #expect(d.width == 200)
        #expect(d.mean <= 1, "mean difference \(d.mean) levels")
    }

    @Test("bad inputs: a typed error naming the file, exit status 1 and nothing written", .needsLux)
    func badInputs() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-thumbnail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = dir.appendingPathComponent("fake.jpg")
        try Data("not a picture".utf8).write(to: fake)
        let truncatedJPEG = dir.appendingPathComponent("cut.jpg")
        let sample = try Data(
            contentsOf: URL(fileURLWithPath: try TestData.path("livephoto/iphone6s_livephoto_train.jpg")))
        try sample.prefix(20_000).write(to: truncatedJPEG)
        let outputs = dir.appendingPathComponent("out")
        for input in [fake.path, truncatedJPEG.path, try TestData.path("heic/truncated.heic")] {
            let out = outputs.appendingPathComponent("t.jpg").path
            let r = try LuxExecutable.run(lux, ["thumbnail", input, "-o", out, "--size", "64"])
            #expect(r.status == 1, "\(input): status \(r.status)")
            #expect(r.errorText.contains(URL(fileURLWithPath: input).lastPathComponent), "\(r.errorText)")
            #expect(!r.errorText.contains("Fatal error"))
            #expect(!FileManager.default.fileExists(atPath: out))
            if FileManager.default.fileExists(atPath: outputs.path) {
                #expect(try CLIFixtures.allFiles(in: outputs).isEmpty)
            }
        }
    }
}
