import Foundation
import LuxTestSupport
import Testing

/// `lux info --json`, decoded as documented, against exiftool's `-json -n` for the same files.
@Suite struct InfoOracleTests {
    struct Info: Decodable {
        struct Pixels: Decodable {
            var bitsPerSample: Int
            var samplesPerPixel: Int
        }
        struct ICC: Decodable {
            var description: String?
            var bytes: Int
        }
        struct EXIF: Decodable {
            var make: String?
            var model: String?
            var exposureTime: Double?
            var fNumber: Double?
            var iso: Int?
            var focalLength: Double?
            var orientation: Int?
            var dateTimeOriginal: String?
            var latitude: Double?
            var longitude: Double?
        }
        struct Raw: Decodable {
            var cfaPattern: String?
            var blackLevel: [Double]
            var whiteLevel: [Double]
            var activeArea: [Int]
            var defaultCrop: [Double]?
            var colorMatrix1: [Double]?
            var colorMatrix2: [Double]?
            var calibrationIlluminant1: Int?
            var calibrationIlluminant2: Int?
            var forwardMatrix1: [Double]?
            var asShotNeutral: [Double]?
            var baselineExposure: Double?
        }
        struct Movie: Decodable {
            var duration: Double
            var stillImageTime: Double?
        }
        struct LivePhoto: Decodable {
            var contentIdentifier: String?
            var partner: String?
            var partnerContentIdentifier: String?
            var paired: Bool
        }
        var file: String
        var format: String
        var width: Int
        var height: Int
        var pixels: Pixels?
        var iccProfile: ICC?
        var exif: EXIF?
        var raw: Raw?
        var movie: Movie?
        var livePhoto: LivePhoto?
    }

    /// exiftool's view of `file`.
    static func exiftool(_ file: String, _ tags: [String]) throws -> [String: Any] {
        let r = try ExternalTool.capture("exiftool", ["-json", "-n"] + tags.map { "-" + $0 } + [file])
        return try #require((try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])?.first)
    }

    /// exiftool's space-separated numbers (or a single number).
    static func numbers(_ value: Any?) -> [Double]? {
        if let n = value as? Double { return [n] }
        if let n = value as? Int { return [Double(n)] }
        return (value as? String)?.split(separator: " ").compactMap { Double($0) }
    }

    static func close(_ a: [Double]?, _ b: [Double]?, _ tolerance: Double = 1e-4) -> Bool {
        guard let a, let b, a.count == b.count else { return false }
        return zip(a, b).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($1)) }
    }

    static func info(_ lux: String, _ file: String) throws -> Info {
        let r = try LuxExecutable.run(lux, ["info", "--json", file])
        #expect(r.status == 0, "\(file): \(r.errorText)")
        return try CLIFixtures.decode(Info.self, r)
    }

    @Test(
        "DNG colour tags, levels, CFA and Exif agree with exiftool (a camera DNG and one from the simulated camera)",
        .needsLux, .needs("exiftool"))
    func dngTags() throws {
        let lux = try #require(LuxExecutable.path)
        let captured = try CLIFixtures.raws(lux, count: 1, sensor: "256x192")
        defer { try? FileManager.default.removeItem(at: captured) }
        let files =
            [TestData.root + "/raw/canon_eos550d_magiclantern_14bit.dng"]
            + (try CLIFixtures.files(in: captured)).map { captured.path + "/" + $0 }
        let tags = [
            "Make", "Model", "ColorMatrix1", "ColorMatrix2", "CalibrationIlluminant1", "CalibrationIlluminant2",
            "ForwardMatrix1", "AsShotNeutral", "BlackLevel", "WhiteLevel", "CFAPattern2", "ActiveArea",
            "DefaultCropOrigin", "DefaultCropSize", "ExposureTime", "FNumber", "ISO", "FocalLength", "BaselineExposure",
        ]
        for file in files {
            let ours = try Self.info(lux, file)
            let theirs = try Self.exiftool(file, tags)
            #expect(ours.format == "dng")
            #expect(
                ours.exif?.make == theirs["Make"] as? String && ours.exif?.model == theirs["Model"] as? String,
                "\(file)")
            let raw = try #require(ours.raw)
            #expect(
                Self.close(raw.colorMatrix1, Self.numbers(theirs["ColorMatrix1"])), "\(file): \(raw.colorMatrix1 ?? [])"
            )
            if theirs["ColorMatrix2"] != nil {
                #expect(Self.close(raw.colorMatrix2, Self.numbers(theirs["ColorMatrix2"])))
            }
            if theirs["ForwardMatrix1"] != nil {
                #expect(Self.close(raw.forwardMatrix1, Self.numbers(theirs["ForwardMatrix1"])))
            }
            #expect(raw.calibrationIlluminant1 == theirs["CalibrationIlluminant1"] as? Int)
            #expect(raw.calibrationIlluminant2 == theirs["CalibrationIlluminant2"] as? Int)
            #expect(Self.close(raw.asShotNeutral, Self.numbers(theirs["AsShotNeutral"])), "\(file)")
            // exiftool prints one BlackLevel value when all are equal.
            let black = try #require(Self.numbers(theirs["BlackLevel"]))
            #expect(
                black.count == raw.blackLevel.count ? black == raw.blackLevel : Set(raw.blackLevel) == Set(black),
                "\(file)")
            #expect(raw.whiteLevel == Self.numbers(theirs["WhiteLevel"]))
            // CFAPattern2 codes: 0 red, 1 green, 2 blue.
            let letters = Self.numbers(theirs["CFAPattern2"])?.map { ["R", "G", "B"][Int($0)] }.joined()
            #expect(raw.cfaPattern == letters)
            if let area = Self.numbers(theirs["ActiveArea"]) { #expect(raw.activeArea.map(Double.init) == area) }
            if let size = Self.numbers(theirs["DefaultCropSize"]) {
                #expect(Self.close(raw.defaultCrop.map { Array($0.suffix(2)) }, size))
                #expect(
                    Self.close(
                        raw.defaultCrop.map { Array($0.prefix(2)) },
                        Self.numbers(theirs["DefaultCropOrigin"]) ?? [0, 0]))
            }
            if let e = Self.numbers(theirs["BaselineExposure"]), !e.isEmpty {
                #expect(Self.close(raw.baselineExposure.map { [$0] }, e))
            }
            for (ours, key) in [
                (ours.exif?.exposureTime, "ExposureTime"), (ours.exif?.fNumber, "FNumber"),
                (ours.exif?.focalLength, "FocalLength"),
            ] {
                let value = Self.numbers(theirs[key])?.first ?? 0
                if value != 0 { #expect(Self.close(ours.map { [$0] }, [value]), "\(file) \(key)") }
            }
            if let iso = theirs["ISO"] as? Int, iso != 0 { #expect(ours.exif?.iso == iso) }
        }
    }

    @Test(
        "an iPhone Live Photo: size, Exif and GPS of the still, the movie's identifier and duration, and the pairing",
        .needsLux, .needs("exiftool"))
    func livePhoto() throws {
        let lux = try #require(LuxExecutable.path)
        let still = TestData.root + "/livephoto/iphone6s_livephoto_train.jpg"
        let movie = TestData.root + "/livephoto/iphone6s_livephoto_train.mov"
        let s = try Self.info(lux, still)
        let st = try Self.exiftool(
            still,
            [
                "ImageWidth", "ImageHeight", "Make", "Model", "ExposureTime", "FNumber", "ISO", "GPSLatitude",
                "GPSLongitude", "DateTimeOriginal", "MakerNotes:all",
            ])
        #expect(s.width == st["ImageWidth"] as? Int && s.height == st["ImageHeight"] as? Int)
        #expect(s.exif?.make == st["Make"] as? String && s.exif?.model == st["Model"] as? String)
        #expect(Self.close(s.exif?.exposureTime.map { [$0] }, Self.numbers(st["ExposureTime"])))
        #expect(Self.close(s.exif?.fNumber.map { [$0] }, Self.numbers(st["FNumber"])))
        #expect(s.exif?.iso == st["ISO"] as? Int)
        #expect(Self.close(s.exif?.latitude.map { [$0] }, Self.numbers(st["GPSLatitude"]), 1e-6))
        #expect(Self.close(s.exif?.longitude.map { [$0] }, Self.numbers(st["GPSLongitude"]), 1e-6))
        #expect(s.exif?.dateTimeOriginal == st["DateTimeOriginal"] as? String)
        let stillID = (st["MediaGroupUUID"] ?? st["ContentIdentifier"]) as? String

        let m = try Self.info(lux, movie)
        let mt = try Self.exiftool(movie, ["ContentIdentifier", "ImageWidth", "ImageHeight", "Duration"])
        #expect(m.format == "quicktime")
        #expect(m.width == mt["ImageWidth"] as? Int && m.height == mt["ImageHeight"] as? Int)
        #expect(Self.close(m.movie.map { [$0.duration] }, Self.numbers(mt["Duration"]), 1e-3))
        let movieID = mt["ContentIdentifier"] as? String
        #expect(m.livePhoto?.contentIdentifier == movieID && s.livePhoto?.contentIdentifier == stillID)
        #expect(s.livePhoto?.paired == true && m.livePhoto?.paired == true)
        #expect(s.livePhoto?.partner == movie && m.livePhoto?.partner == still)
        #expect(s.livePhoto?.partnerContentIdentifier == movieID)
    }

    @Test(
        "a still without its movie is not paired; a developed JPEG's ICC description is exiftool's; bad files exit 1 named",
        .needsLux, .needs("exiftool"))
    func unpairedICCAndErrors() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-info")
        defer { try? FileManager.default.removeItem(at: dir) }
        let lonely = dir.appendingPathComponent("lonely.jpg").path
        try FileManager.default.copyItem(
            atPath: TestData.root + "/livephoto/iphone6s_livephoto_train.jpg", toPath: lonely)
        let info = try Self.info(lux, lonely)
        #expect(
            info.livePhoto?.contentIdentifier != nil && info.livePhoto?.paired == false
                && info.livePhoto?.partner == nil)

        let raws = try CLIFixtures.raws(lux, count: 1)
        defer { try? FileManager.default.removeItem(at: raws) }
        let jpeg = dir.appendingPathComponent("p3.jpg").path
        let dng = raws.path + "/" + (try CLIFixtures.files(in: raws))[0]
        #expect(try LuxExecutable.run(lux, ["develop", dng, "-o", jpeg, "--color-space", "p3"]).status == 0)
        let developed = try Self.info(lux, jpeg)
        let tags = try Self.exiftool(
            jpeg, ["ProfileDescription", "ImageWidth", "ImageHeight", "BitsPerSample", "ColorComponents"])
        #expect(developed.iccProfile?.description == tags["ProfileDescription"] as? String)
        #expect(developed.width == tags["ImageWidth"] as? Int && developed.height == tags["ImageHeight"] as? Int)
        #expect(developed.pixels?.bitsPerSample == tags["BitsPerSample"] as? Int)
        #expect(developed.pixels?.samplesPerPixel == tags["ColorComponents"] as? Int)

        let garbage = dir.appendingPathComponent("garbage.png").path
        try Data("nope".utf8).write(to: URL(fileURLWithPath: garbage))
        let r = try LuxExecutable.run(lux, ["info", "--json", jpeg, garbage])
        #expect(r.status == 1)
        #expect(r.errorText.contains("garbage.png"), "\(r.errorText)")
        let both = try JSONDecoder().decode([Info].self, from: r.stdout)
        #expect(both.map(\.file) == [jpeg])
    }
}
