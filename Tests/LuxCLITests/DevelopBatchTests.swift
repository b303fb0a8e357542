import Foundation
import LuxTestSupport
import Testing

/// `lux develop` on folders and several files: bad inputs, existing outputs, parallel jobs and exit statuses.
@Suite struct DevelopBatchTests {
    @Test(
        "a bad file is named with what is wrong, the good ones are still developed with --jobs 2, nothing partial is left, exit 1",
        .needsLux, .needs("exiftool"))
    func badFileAmongGood() throws {
        let lux = try #require(LuxExecutable.path)
        let inputs = try CLIFixtures.raws(lux, count: 4)
        let out = try ExternalTool.temporaryFolder("lux-batch-out")
        defer {
            try? FileManager.default.removeItem(at: inputs)
            try? FileManager.default.removeItem(at: out)
        }
        let good = try CLIFixtures.files(in: inputs)
        // A text file and a DNG cut inside its raw tiles (they come after the IFDs, in the first half; the second
        // half holds the thumbnail and the preview, which developing does not need).
        try Data("not a raw file".utf8).write(to: inputs.appendingPathComponent("garbage.dng"))
        let whole = try Data(contentsOf: inputs.appendingPathComponent(good[0]))
        try whole.prefix(whole.count / 4).write(to: inputs.appendingPathComponent("truncated.dng"))

        let r = try LuxExecutable.run(lux, ["develop", inputs.path, "-o", out.path, "--jobs", "2", "--json"])
        #expect(r.status == 1, "\(r.errorText)")
        #expect(r.errorText.contains("garbage.dng: ") && r.errorText.contains("unknown file format"), "\(r.errorText)")
        #expect(r.errorText.contains("truncated.dng: "), "\(r.errorText)")
        #expect(!r.errorText.contains("Fatal error") && !r.errorText.contains("Stack dump"))
        #expect(
            !r.errorText.contains("\u{1B}[") && !r.errorText.contains("█"),
            "no progress bar when standard error is a file")
        let report = try CLIFixtures.decode(DevelopJSON.self, r)
        #expect(report.developed == good.count && report.failed == 2 && report.skipped == 0)
        #expect(
            report.files.map { URL(fileURLWithPath: $0.input).lastPathComponent }
                == (good + ["garbage.dng", "truncated.dng"]).sorted())
        for file in report.files where file.status == "failed" {
            #expect(file.error?.contains(URL(fileURLWithPath: file.input).lastPathComponent) == true)
        }
        // Only the good files' outputs, no temporary files; each is a JPEG exiftool reads at the raw's size.
        let written = try CLIFixtures.allFiles(in: out)
        #expect(written == good.map { $0.replacingOccurrences(of: ".dng", with: ".jpg") }, "\(written)")
        for name in written {
            let tags = try ExternalTool.capture(
                "exiftool",
                ["-json", "-n", "-FileType", "-ImageWidth", "-ImageHeight", out.appendingPathComponent(name).path])
            let object = try #require(
                (try JSONSerialization.jsonObject(with: tags.stdout) as? [[String: Any]])?.first)
            #expect(object["FileType"] as? String == "JPEG")
            let entry = report.files.first { $0.output.hasSuffix(name) }
            #expect(object["ImageWidth"] as? Int == entry?.width && object["ImageHeight"] as? Int == entry?.height)
        }
    }

    @Test(
        "existing outputs: an error without --overwrite, kept with --skip-existing, replaced with --overwrite",
        .needsLux)
    func existingOutputs() throws {
        let lux = try #require(LuxExecutable.path)
        let inputs = try CLIFixtures.raws(lux, count: 2)
        defer { try? FileManager.default.removeItem(at: inputs) }
        let names = try CLIFixtures.files(in: inputs)
        let first = try LuxExecutable.run(lux, ["develop", inputs.path])  // beside the inputs
        #expect(first.status == 0, "\(first.errorText)")
        let jpeg = inputs.appendingPathComponent(names[0].replacingOccurrences(of: ".dng", with: ".jpg"))
        let original = try Data(contentsOf: jpeg)

        let again = try LuxExecutable.run(lux, ["develop", inputs.path, "--exposure", "1"])
        #expect(again.status == 1)
        #expect(
            again.errorText.contains(jpeg.lastPathComponent) && again.errorText.contains("--overwrite"),
            "\(again.errorText)")
        #expect(try Data(contentsOf: jpeg) == original)

        let skip = try LuxExecutable.run(lux, ["develop", inputs.path, "--skip-existing", "--json"])
        #expect(skip.status == 0)
        #expect(try CLIFixtures.decode(DevelopJSON.self, skip).skipped == 2)

        let replace = try LuxExecutable.run(lux, ["develop", inputs.path, "--overwrite", "--exposure", "1", "--json"])
        #expect(replace.status == 0)
        #expect(try CLIFixtures.decode(DevelopJSON.self, replace).developed == 2)
        #expect(try Data(contentsOf: jpeg) != original, "one stop brighter")
    }

    @Test("usage errors exit 64 before anything is developed; a missing input exits 1 naming it", .needsLux)
    func usageErrors() throws {
        let lux = try #require(LuxExecutable.path)
        let inputs = try CLIFixtures.raws(lux, count: 1)
        defer { try? FileManager.default.removeItem(at: inputs) }
        let raw = try CLIFixtures.files(in: inputs).map { inputs.appendingPathComponent($0).path }[0]
        for flags in [
            ["--quality", "0"], ["--jobs", "0"], ["--color-space", "nonsense"], ["--format", "bmp"], ["--no-such-flag"],
            ["--overwrite", "--skip-existing"], ["-o", inputs.path + "/x.dng"],
            ["--depth", "float", "--format", "png"],
        ] {
            let r = try LuxExecutable.run(lux, ["develop", raw] + flags)
            #expect(r.status == 64, "\(flags): \(r.status) \(r.errorText)")
            #expect(r.errorText.contains("Usage:") || r.errorText.contains("Error:"), "\(flags): \(r.errorText)")
        }
        #expect(try CLIFixtures.files(in: inputs) == [URL(fileURLWithPath: raw).lastPathComponent])
        let missing = try LuxExecutable.run(
            lux, ["develop", inputs.path + "/nothing-here.dng", "-o", inputs.path + "/x.jpg"])
        #expect(missing.status == 1)
        #expect(missing.errorText.contains("nothing-here.dng"), "\(missing.errorText)")
        // lux --help lists the exit statuses.
        let help = try LuxExecutable.run(lux, ["--help"])
        #expect(help.status == 0)
        for line in ["0   every input was processed", "1   the work failed", "64  usage error"] {
            #expect(help.text.contains(line), "\(help.text)")
        }
    }

    @Test(
        "on a terminal (a pseudo-terminal from script(1)) a batch draws a progress bar on standard error", .needsLux,
        .needs("script"))
    func progressOnTerminal() throws {
        let lux = try #require(LuxExecutable.path)
        let inputs = try CLIFixtures.raws(lux, count: 2)
        defer { try? FileManager.default.removeItem(at: inputs) }
        let command = "'\(lux)' develop '\(inputs.path)' -o '\(inputs.path)/out' --jobs 2"
        let r = try ExternalTool.capture("script", ["-qec", command, "/dev/null"], environment: ["COLUMNS": "100"])
        #expect(r.status == 0, "\(r.text)")
        #expect(r.text.contains("developing") && r.text.contains("█") && r.text.contains("2/2"), "\(r.text)")
        #expect(r.text.contains("developed 2, skipped 0, failed 0"))
    }
}
