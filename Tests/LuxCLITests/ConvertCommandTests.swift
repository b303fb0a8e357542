import Foundation
import LuxTestSupport
import Testing

/// `lux convert` judged by libheif's own decoder (`vips heifload`), `heif-info`, exiftool and vips.
@Suite struct ConvertCommandTests {
    /// `lux convert --json`, as documented in `lux convert --help` (the keys of `lux develop`'s report).
    struct ConvertJSON: Decodable {
        struct File: Decodable {
            var input: String
            var output: String
            var status: String
            var error: String?
            var width: Int?
            var height: Int?
        }
        var batchInputCount: Int
        var files: [File]
        var converted: Int
        var skipped: Int
        var failed: Int
    }

    /// The 8-bit samples vips decodes from `path` (libheif for a HEIC, libjpeg for a JPEG).
    static func samples(_ path: String, in dir: URL) throws -> NetpbmImage {
        let out = dir.appendingPathComponent(UUID().uuidString + ".ppm")
        let r = try ExternalTool.capture("vips", ["copy", path, out.path])
        try #require(r.status == 0, "vips: \(r.errorText)")
        return try NetpbmImage(Data(contentsOf: out))
    }

    /// The mean and largest absolute differences of two images of the same size, in levels, by vips.
    static func difference(_ a: String, _ b: String, in dir: URL) throws -> (mean: Double, worst: Double) {
        let d = dir.appendingPathComponent(UUID().uuidString + ".v").path
        try ExternalTool.capture("vips", ["subtract", a, b, d]).succeeded()
        try ExternalTool.capture("vips", ["abs", d, d + ".abs.v"]).succeeded()
        func statistic(_ name: String) throws -> Double {
            let text = try ExternalTool.capture("vips", [name, d + ".abs.v"]).succeeded().text
            return try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), "vips \(name): \(text)")
        }
        return (try statistic("avg"), try statistic("max"))
    }

    /// exiftool's `-json -n` fields of `path`.
    static func exiftool(_ path: String) throws -> [String: Any] {
        let r = try ExternalTool.capture("exiftool", ["-json", "-n", path])
        let list = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]]
        return try #require(list?.first)
    }

    @Test(
        "an iPhone HEIC rotated by irot becomes an upright JPEG: libheif's oriented pixels (≥ 38 dB), Display P3, Exif orientation 1",
        .needsLux, .needs("vips", "exiftool"))
    func heicToUprightJPEG() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try TestData.path("heic/iphone8plus.heic")
        let out = dir.appendingPathComponent("photo.jpg").path
        let r = try LuxExecutable.run(lux, ["convert", input, "-o", out, "--quality", "95"])
        try #require(r.status == 0, "\(r.errorText)")

        let ours = try Self.samples(out, in: dir)
        let theirs = try Self.samples(input, in: dir)
        #expect(ours.width == theirs.width && ours.height == theirs.height && ours.height > ours.width)
        #expect(psnr(ours.samples, theirs.samples, peak: 255) >= 38)
        let tags = try Self.exiftool(out)
        #expect(tags["Orientation"] as? Int == 1)
        #expect(tags["ProfileDescription"] as? String == "Display P3")
        #expect(tags["Make"] as? String == "Apple")
    }

    @Test(
        "a HEIC's thumbnail carries over into the JPEG's IFD1, upright (120 × 160 for the rotated iPhone 8 Plus photo): exiftool extracts it, djpeg decodes it, -validate finds no error",
        .needsLux, .needs("exiftool", "djpeg", "heif-info", "vips"))
    func heicThumbnailToJPEG() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try TestData.path("heic/iphone8plus.heic")
        #expect(try ExternalTool.capture("heif-info", [input]).text.contains("thumbnail: 240x320"))
        let out = dir.appendingPathComponent("photo.jpg").path
        let r = try LuxExecutable.run(lux, ["convert", input, "-o", out])
        try #require(r.status == 0, "\(r.errorText)")
        let thumbPath = dir.appendingPathComponent("thumb.jpg").path
        try ExternalTool.capture("exiftool", ["-b", "-ThumbnailImage", out]).stdout.write(
            to: URL(fileURLWithPath: thumbPath))
        let thumbnail = try NetpbmImage(ExternalTool.capture("djpeg", ["-pnm", thumbPath]).stdout)
        #expect(thumbnail.width == 120 && thumbnail.height == 160)
        // The thumbnail looks like the picture: vips's 1/25.2 reduction of the converted JPEG, within 25 dB.
        let reduced = dir.appendingPathComponent("reduced.ppm").path
        let shrink = try ExternalTool.capture("vips", ["resize", out, reduced, "\(120.0 / 3024.0)"])
        try #require(shrink.status == 0, "\(shrink.errorText)")
        let reference = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: reduced)))
        #expect(reference.width == 120 && reference.height == 160)
        #expect(psnr(thumbnail.samples, reference.samples, peak: 255) >= 25)
        // No error, and no warning about IFD1 (the photo's own Exif draws three: lens tags in an Exif 2.21 IFD).
        let verdict = try ExternalTool.capture("exiftool", ["-validate", "-error", "-warning", "-a", "-s", out]).text
        let lines = verdict.split(separator: "\n")
        #expect(
            !lines.contains { $0.hasPrefix("Error") || $0.contains("IFD1") || $0.contains("Thumbnail") }, "\(verdict)")
    }

    @Test(
        "a HEIF image sequence with no still image (brand msf1, ffmpeg's HEVC MP4; libheif 1.15 reads no tracks) gets a clear error naming the file from info and convert, and nothing is written",
        .needsLux, .needs("ffmpeg", "heif-info"))
    func imageSequenceOnly() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sequence = dir.appendingPathComponent("burst.heic").path
        let made = try ExternalTool.capture(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=256x256:rate=10", "-frames:v", "3", "-c:v",
                "libx265", "-x265-params", "log-level=none", "-tag:v", "hvc1", "-brand", "msf1", "-f", "mp4", sequence,
            ])
        try #require(made.status == 0, "ffmpeg: \(made.errorText)")
        #expect(try ExternalTool.capture("heif-info", [sequence]).text.contains("image/heif-sequence"))
        let out = dir.appendingPathComponent("burst.jpg").path
        for arguments in [["info", sequence], ["convert", sequence, "-o", out]] {
            let r = try LuxExecutable.run(lux, arguments)
            #expect(r.status == 1, "\(arguments[0])")
            #expect(r.errorText.contains("burst.heic") && r.errorText.contains("image sequence"), "\(r.errorText)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// An image-sequence file that also holds a still image, as ISO/IEC 23008-12 allows: the HEIC `still` with its
    /// `ftyp` major brand made `msf1` (`mif1` stays compatible; same size, so the items' offsets hold), followed by
    /// `movie`'s `moov` and `mdat`, the track's chunk offsets (`stco`) moved by as much as its `mdat` moved.
    static func sequenceWithStill(still: [UInt8], movie: [UInt8]) throws -> [UInt8] {
        var file = still
        try #require(try ISOBMFFBox.boxes(still, in: 0..<still.count).first?.type == "ftyp")
        file.replaceSubrange(8..<12, with: Array("msf1".utf8))
        let top = try ISOBMFFBox.boxes(movie, in: 0..<movie.count)
        let moov = try #require(top.first { $0.type == "moov" })
        let mdat = try #require(top.first { $0.type == "mdat" })
        var header = Array(movie[moov.whole])
        let delta = still.count + moov.whole.count - mdat.whole.lowerBound
        var offsets = 0
        func patch(_ range: Range<Int>) throws {
            for box in try ISOBMFFBox.boxes(header, in: range) {
                if ["moov", "trak", "mdia", "minf", "stbl"].contains(box.type) {
                    try patch(box.payload)
                } else if box.type == "stco" {
                    let count = header[box.payload.lowerBound + 4..<box.payload.lowerBound + 8].reduce(0) {
                        $0 << 8 | Int($1)
                    }
                    for i in 0..<count {
                        let at = box.payload.lowerBound + 8 + 4 * i
                        let moved = header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } + delta
                        header.replaceSubrange(
                            at..<at + 4, with: (0..<4).map { UInt8(truncatingIfNeeded: moved >> (24 - 8 * $0)) })
                        offsets += 1
                    }
                }
            }
        }
        try patch(0..<header.count)
        try #require(offsets > 0, "the movie has no stco chunk offsets")
        return file + header + movie[mdat.whole]
    }

    @Test(
        "a HEIF image sequence that also holds a still image (brand msf1, mif1 compatible: heif-enc's still + ffmpeg's HEVC track) converts its still like heif-convert converts that still (within 2 levels; heif-convert refuses the msf1 brand), and ffprobe still reads its three-frame track",
        .needsLux, .needs("ffmpeg", "ffprobe", "heif-enc", "heif-convert", "heif-info", "vips"))
    func imageSequenceWithStill() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("still.png").path
        let still = dir.appendingPathComponent("still.heic").path
        let movie = dir.appendingPathComponent("movie.mp4").path
        let source = ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=96x64:rate=10"]
        try ExternalTool.capture("ffmpeg", source + ["-frames:v", "1", png]).succeeded()
        try ExternalTool.capture("heif-enc", ["-q", "90", "-o", still, png]).succeeded()
        try ExternalTool.capture(
            "ffmpeg",
            source + [
                "-frames:v", "3", "-c:v", "libx265", "-x265-params", "log-level=none", "-tag:v", "hvc1", "-brand",
                "msf1", "-f", "mp4", movie,
            ]
        ).succeeded()
        let combined = try Self.sequenceWithStill(
            still: [UInt8](Data(contentsOf: URL(fileURLWithPath: still))),
            movie: [UInt8](Data(contentsOf: URL(fileURLWithPath: movie))))
        let sequence = dir.appendingPathComponent("burst.heic").path
        try Data(combined).write(to: URL(fileURLWithPath: sequence))
        let frames = try ExternalTool.capture(
            "ffprobe",
            ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", sequence])
        #expect(frames.text.trimmingCharacters(in: .whitespacesAndNewlines) == "3", "\(frames.errorText)")
        let info = try ExternalTool.capture("heif-info", [sequence]).text
        #expect(info.contains("main brand: msf1") && info.contains("image: 96x64"), "\(info)")

        let ours = dir.appendingPathComponent("ours.png").path
        let theirs = dir.appendingPathComponent("theirs.png").path
        let r = try LuxExecutable.run(lux, ["convert", sequence, "-o", ours])
        try #require(r.status == 0, "\(r.errorText)")
        try ExternalTool.capture("heif-convert", ["--quiet", still, theirs]).succeeded()
        let a = try Self.samples(ours, in: dir)
        let b = try Self.samples(theirs, in: dir)
        #expect(a.width == 96 && a.height == 64 && b.width == 96 && b.height == 64)
        let worst = zip(a.samples, b.samples).map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(worst <= 2, "worst difference \(worst)")
    }

    @Test(
        "--image 1 converts the Vision Pro pair's second eye: heif-convert's second image within 2 levels (the eyes differ by ~30 on average)",
        .needsLux, .needs("heif-convert", "vips"))
    func secondEyeOfStereoPair() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try TestData.path("heic/visionpro_spatial_stereo.heic")
        let ours = dir.appendingPathComponent("right.png").path
        let r = try LuxExecutable.run(lux, ["convert", input, "--image", "1", "-o", ours])
        try #require(r.status == 0, "\(r.errorText)")
        // heif-convert writes every top-level image, numbered from 1 in heif-info's order.
        try ExternalTool.capture("heif-convert", ["--quiet", input, dir.appendingPathComponent("eye.png").path])
            .succeeded()
        let right = try Self.difference(ours, dir.appendingPathComponent("eye-2.png").path, in: dir)
        #expect(right.worst <= 2, "worst difference from the second image \(right.worst)")
        let left = try Self.difference(ours, dir.appendingPathComponent("eye-1.png").path, in: dir)
        #expect(left.mean >= 10, "mean difference from the first image \(left.mean)")
    }

    @Test(
        "a folder to HEIC with --size, --strip location, --jobs 2 and --json: fitted sizes, no GPS, Exif kept, bad files named and nothing partial",
        .needsLux, .needs("vips", "exiftool", "heif-info"))
    func folderToHEIC() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert")
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        let outputs = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        // Two small photos with Exif and a location (vips cuts them from a sample; exiftool tags them).
        let sample = try TestData.path("heic/iphone13pro_portrait_depth.heic")
        for (name, area) in [("a.jpg", ["0", "0", "400", "300"]), ("b.png", ["800", "600", "300", "400"])] {
            let path = inputs.appendingPathComponent(name).path
            let cut = try ExternalTool.capture("vips", ["extract_area", sample, path] + area)
            try #require(cut.status == 0, "vips: \(cut.errorText)")
            let tag = try ExternalTool.capture(
                "exiftool",
                [
                    "-m", "-overwrite_original", "-Make=Apple", "-GPSLatitude=44.85", "-GPSLatitudeRef=N",
                    "-GPSLongitude=34.97", "-GPSLongitudeRef=E", path,
                ])
            try #require(tag.status == 0, "exiftool: \(tag.errorText)")
        }
        try Data("not an image".utf8).write(to: inputs.appendingPathComponent("garbage.heic"))
        try FileManager.default.copyItem(
            atPath: try TestData.path("heic/truncated.heic"), toPath: inputs.appendingPathComponent("cut.heic").path)

        let r = try LuxExecutable.run(
            lux,
            [
                "convert", inputs.path, "-o", outputs.path, "--format", "heic", "--size", "200x200", "--strip",
                "location", "--jobs", "2", "--json",
            ])
        #expect(r.status == 1, "two inputs are bad: \(r.errorText)")
        #expect(r.errorText.contains("garbage.heic: ") && r.errorText.contains("cut.heic: "), "\(r.errorText)")
        #expect(!r.errorText.contains("Fatal error"))
        let report = try CLIFixtures.decode(ConvertJSON.self, r)
        #expect(report.batchInputCount == 4 && report.converted == 2 && report.failed == 2)
        #expect(try CLIFixtures.allFiles(in: outputs) == ["a.heic", "b.heic"])

        for (name, size) in [("a.heic", (200, 150)), ("b.heic", (150, 200))] {
            let path = outputs.appendingPathComponent(name).path
            let info = try ExternalTool.capture("heif-info", [path])
            #expect(info.status == 0 && info.text.contains("image: \(size.0)x\(size.1)"), "\(info.text)")
            let tags = try Self.exiftool(path)
            #expect(tags["ImageWidth"] as? Int == size.0 && tags["ImageHeight"] as? Int == size.1)
            #expect(tags["Make"] as? String == "Apple", "Exif kept")
            #expect(tags["GPSLatitude"] == nil && tags["GPSLongitude"] == nil, "location stripped")
            #expect(tags["ProfileDescription"] as? String == "Display P3")
        }

        // A second run leaves the outputs alone unless --overwrite.
        let before = try Data(contentsOf: outputs.appendingPathComponent("a.heic"))
        let again = try LuxExecutable.run(
            lux,
            [
                "convert", inputs.appendingPathComponent("a.jpg").path, "-o",
                outputs.appendingPathComponent("a.heic").path,
            ])
        #expect(again.status == 1 && again.errorText.contains("--overwrite"), "\(again.errorText)")
        #expect(try Data(contentsOf: outputs.appendingPathComponent("a.heic")) == before)
    }

    @Test(
        "lux info --json lists a HEIC's images and auxiliary images as heif-info does, and --image 1 describes the second",
        .needsLux, .needs("heif-info"))
    func infoDescribesHEIC() throws {
        struct Info: Decodable {
            struct HEIF: Decodable {
                struct Image: Decodable {
                    struct Auxiliary: Decodable {
                        var type: String
                        var width: Int
                        var height: Int
                    }
                    var width: Int
                    var height: Int
                    var isPrimary: Bool
                    var auxiliaryImages: [Auxiliary]
                }
                var mainBrand: String
                var images: [Image]
            }
            var format: String
            var width: Int
            var heif: HEIF?
        }
        let lux = try #require(LuxExecutable.path)
        for sample in ["heic/visionpro_spatial_stereo.heic", "heic/iphone13pro_portrait_depth.heic"] {
            let path = try TestData.path(sample)
            let r = try LuxExecutable.run(lux, ["info", path, "--json"])
            try #require(r.status == 0, "\(r.errorText)")
            let info = try CLIFixtures.decode(Info.self, r)
            let heif = try #require(info.heif)
            #expect(info.format == "heic")
            // heif-info prints "image: WxH (id=N)[, primary]" per top-level image, primary first.
            let listed = try ExternalTool.capture("heif-info", [path]).text.split(separator: "\n")
                .filter { $0.hasPrefix("image: ") }
            #expect(
                heif.images.map { "image: \($0.width)x\($0.height)" }
                    == listed.map { $0.split(separator: " ").prefix(2).joined(separator: " ") })
            #expect(heif.images.first?.isPrimary == true)
        }
        let iphone = try CLIFixtures.decode(
            Info.self,
            try LuxExecutable.run(lux, ["info", try TestData.path("heic/iphone13pro_portrait_depth.heic"), "--json"]))
        let auxiliary = Set(iphone.heif?.images.first?.auxiliaryImages.map(\.type) ?? [])
        #expect(auxiliary == ["urn:com:apple:photo:2020:aux:hdrgainmap", "urn:mpeg:hevc:2015:auxid:2"])

        let second = try LuxExecutable.run(
            lux, ["info", try TestData.path("heic/visionpro_spatial_stereo.heic"), "--image", "1"])
        #expect(second.status == 0 && second.text.contains("image 1 ") && second.text.contains("2560 × 2560"))
        let missing = try LuxExecutable.run(
            lux, ["info", try TestData.path("heic/visionpro_spatial_stereo.heic"), "--image", "5"])
        #expect(
            missing.status == 1 && missing.errorText.contains("visionpro_spatial_stereo.heic"), "\(missing.errorText)")
    }

    @Test(
        "lux info describes an iPhone HEIC's grid (text and --json) as exiftool reads the grid's data",
        .needsLux, .needs("exiftool"))
    func infoDescribesGrid() throws {
        struct Info: Decodable {
            struct HEIF: Decodable {
                struct Image: Decodable { var grid: [String: Value]? }
                var images: [Image]
            }
            enum Value: Decodable, Equatable {
                case number(Int)
                case text(String)
                init(from decoder: any Decoder) throws {
                    let c = try decoder.singleValueContainer()
                    self = try (try? c.decode(Int.self)).map(Value.number) ?? .text(c.decode(String.self))
                }
            }
            var heif: HEIF?
        }
        let lux = try #require(LuxExecutable.path)
        let path = try TestData.path("heic/iphone13pro_portrait_depth.heic")
        // exiftool -n prints the grid item's data (ISO/IEC 23008-12 ImageGrid) as four 16-bit numbers: version and
        // flags, (rows − 1) × 256 + (columns − 1), output width, output height.
        let exif = try ExternalTool.capture("exiftool", ["-n", "-s3", "-MetaImageSize", path]).succeeded().text
        let grid = exif.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(grid.count == 4, "exiftool: \(exif)")
        let (rows, columns) = ((grid[1] >> 8) + 1, (grid[1] & 255) + 1)
        let json = try CLIFixtures.decode(Info.self, try LuxExecutable.run(lux, ["info", path, "--json"]))
        #expect(
            json.heif?.images.first?.grid
                == [
                    "rows": .number(rows), "columns": .number(columns), "tileWidth": .number(512),
                    "tileHeight": .number(512), "tileCodec": .text("hvc1"), "width": .number(grid[2]),
                    "height": .number(grid[3]),
                ])
        let text = try LuxExecutable.run(lux, ["info", path])
        #expect(
            text.text.contains("\(columns) columns × \(rows) rows of 512 × 512 hvc1 tiles, output 4032 × 3024"),
            "\(text.text)")
    }
}
