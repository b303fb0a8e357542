import Foundation
import LuxTestSupport
import Testing

/// `lux demo`, run as the built executable like a user runs it (on the small sensor, to stay quick in debug
/// builds); every file it writes is checked with exiftool and ffprobe, and the contact sheet with headless Chromium.
@Suite(.serialized, .needsLux) struct DemoCLITests {
    /// One demo run shared by the tests (output folder, printed summary).
    struct Run: Sendable {
        var folder: URL
        var status: Int32
        var stdout: String
        var stderr: String
        /// The files the summary lists, relative to the folder.
        var listed: [String]
    }

    static let run: Run? = {
        guard let lux = LuxExecutable.path else { return nil }
        guard let base = try? ExternalTool.temporaryFolder("lux-demo") else { return nil }
        let folder = base.appendingPathComponent("out")
        // The files stay for all the tests of the suite and go when the test process ends.
        atexit {
            if let base = DemoCLITests.run?.folder.deletingLastPathComponent() {
                try? FileManager.default.removeItem(at: base)
            }
        }
        guard let r = try? ExternalTool.capture(lux, ["demo", "--out", folder.path, "--size", "small"]) else {
            return nil
        }
        // Summary lines: two spaces, the file, its size, what it is.
        let listed = r.text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let name = line.split(separator: " ").first else { return nil }
            return String(name)
        }
        return Run(folder: folder, status: r.status, stdout: r.text, stderr: r.errorText, listed: listed)
    }()

    /// The shared run, which must have succeeded (``artifacts()`` reports how it failed).
    static func succeededRun() throws -> Run {
        let run = try #require(Self.run, "lux demo could not be run")
        try #require(run.status == 0, "lux demo exited with \(run.status)")
        return run
    }

    /// The headless browser that renders the contact sheet, if one is installed.
    static let browser = ["chromium", "chromium-browser", "google-chrome"].first(where: ExternalTool.isAvailable)

    /// Every regular file under the folder, relative to it.
    static func files(in folder: URL) -> [String] {
        let base = folder.resolvingSymlinksInPath().path
        let walker = FileManager.default.enumerator(atPath: base)
        var out: [String] = []
        while let next = walker?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + next, isDirectory: &isDir), !isDir.boolValue {
                out.append(next)
            }
        }
        return out.sorted()
    }

    /// exiftool's tags of `files` as JSON objects keyed by SourceFile's last path components.
    static func exiftool(_ arguments: [String], _ files: [String], in folder: URL) throws -> [String: [String: Any]] {
        let r = try ExternalTool.capture("exiftool", ["-j"] + arguments + files, currentDirectory: folder.path)
        let list = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]] ?? []
        var out: [String: [String: Any]] = [:]
        for object in list { if let name = object["SourceFile"] as? String { out[name] = object } }
        return out
    }

    @Test("lux demo exits 0 and every file its summary lists exists, with the story's captures among them")
    func artifacts() throws {
        let run = try #require(Self.run, "lux demo could not be run")
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("Done in"), "\(run.stdout)")
        let written = Set(Self.files(in: run.folder))
        try #require(!run.listed.isEmpty, "\(run.stdout)")
        for name in run.listed where name != "thumbs/" {
            #expect(written.contains(name), "\(name) is listed but was not written")
        }
        for expected in [
            "01-balanced.jpg", "02-raw.dng", "02-raw.jpg", "03-bracket-minus-2ev.jpg", "03-bracket-0ev.jpg",
            "03-bracket-plus-2ev.jpg", "03-hdr-fused.jpg", "04-low-light-quality.jpg", "05-live-photo.jpg",
            "05-live-photo.mov", "06-developed-p3.jpg", "index.html",
        ] {
            #expect(run.listed.contains(expected), "\(expected) missing from the summary")
        }
        // The four seed frame processors each saved a pair.
        #expect(run.listed.filter { $0.hasPrefix("07-live-") }.count == 8, "\(run.listed)")
        // Every top-level file (not a thumbnail) is listed: the summary hides nothing.
        for name in written where !name.hasPrefix("thumbs/") {
            #expect(run.listed.contains(name), "\(name) was written but not listed")
        }
    }

    @Test("a second run into the same folder is refused without --overwrite, and leaves the first run's files alone")
    func refusesToOverwrite() throws {
        let run = try Self.succeededRun()
        let lux = try #require(LuxExecutable.path)
        let index = run.folder.appendingPathComponent("index.html")
        let before = try Data(contentsOf: index)
        let r = try ExternalTool.capture(lux, ["demo", "-o", run.folder.path, "--size", "small"])
        #expect(r.status == 1, "\(r.status): \(r.errorText)")
        #expect(r.errorText.contains("index.html: already exists; pass --overwrite"), "\(r.errorText)")
        #expect(try Data(contentsOf: index) == before)
    }

    @Test(
        "exiftool validates every file without warnings; JPEGs carry Display P3, the DNG is a DNG with a preview",
        .needs("exiftool"))
    func exiftoolValidates() throws {
        let run = try Self.succeededRun()
        let files = Self.files(in: run.folder)
        let tags = try Self.exiftool(["-validate", "-warning", "-a", "-G1"], files, in: run.folder)
        for name in files {
            let t = try #require(tags[name], "exiftool did not read \(name)")
            let warnings = t.filter {
                $0.key.hasSuffix("Warning") || $0.key.hasSuffix(":Validate") && "\($0.value)" != "OK"
            }
            #expect(warnings.isEmpty, "\(name): \(warnings)")
        }
        let images = files.filter { $0.lowercased().hasSuffix(".jpg") }
        let profiles = try Self.exiftool(["-ProfileDescription", "-FileType"], images, in: run.folder)
        for name in images {
            #expect(profiles[name]?["FileType"] as? String == "JPEG", "\(name)")
            #expect(
                profiles[name]?["ProfileDescription"] as? String == "Display P3", "\(name): \(profiles[name] ?? [:])")
        }
        let dng = try Self.exiftool(
            ["-FileType", "-DNGVersion", "-PreviewImageLength", "-PreviewImage", "-b"], ["02-raw.dng"], in: run.folder)[
                "02-raw.dng"]
        #expect(dng?["FileType"] as? String == "DNG", "\(dng ?? [:])")
        #expect(dng?["DNGVersion"] != nil, "\(dng ?? [:])")
        let preview = try ExternalTool.capture(
            "exiftool", ["-b", "-PreviewImage", "02-raw.dng"], currentDirectory: run.folder.path)
        #expect(preview.stdout.count > 1000, "the DNG's embedded preview: \(preview.stdout.count) bytes")
    }

    /// What ffprobe says about every Live Photo movie, an iPhone's included (the Apple format, not a defect):
    /// FFmpeg has no decoder for the timed-metadata ('mebx') track that holds the still-image time.
    static func isInherentLivePhotoNote(_ line: Substring) -> Bool {
        line.hasPrefix("Unsupported codec with id 0 for input stream ")
    }

    @Test(
        "ffprobe reads every movie without warnings; exiftool's content identifiers pair each still with its movie",
        .needs("exiftool", "ffprobe"))
    func livePhotos() throws {
        let run = try Self.succeededRun()
        let movies = Self.files(in: run.folder).filter { $0.lowercased().hasSuffix(".mov") }
        #expect(movies.count == 5, "\(movies)")
        for movie in movies {
            let r = try ExternalTool.capture(
                "ffprobe",
                ["-v", "warning", "-show_entries", "stream=codec_type,codec_name", "-of", "csv=p=0", movie],
                currentDirectory: run.folder.path)
            let warnings = r.errorText.split(separator: "\n").filter { !Self.isInherentLivePhotoNote($0) }
            #expect(r.status == 0 && warnings.isEmpty, "\(movie): \(warnings)")
            #expect(r.text.contains("h264,video"), "\(movie): \(r.text)")
        }
        let r = try ExternalTool.capture(
            "ffprobe",
            ["-v", "warning", "-show_entries", "stream=codec_type", "-of", "csv=p=0", "05-live-photo.mov"],
            currentDirectory: run.folder.path)
        #expect(r.text.contains("audio"), "the Live Photo was captured with the microphone: \(r.text)")
        // The still's identifier is the Apple maker note's tag 17, which exiftool calls MediaGroupUUID.
        let stills = movies.map { String($0.dropLast(4)) + ($0.hasSuffix(".MOV") ? ".JPG" : ".jpg") }
        let ids = try Self.exiftool(["-ContentIdentifier", "-MediaGroupUUID"], movies + stills, in: run.folder)
        var seen = Set<String>()
        for (movie, still) in zip(movies, stills) {
            let m = ids[movie]?["ContentIdentifier"] as? String
            let s = ids[still]?["MediaGroupUUID"] as? String
            #expect(m != nil && m == s, "\(still) \(s ?? "none") vs \(movie) \(m ?? "none")")
            if let m { seen.insert(m) }
        }
        #expect(seen.count == movies.count, "each edit has its own content identifier: \(seen)")
    }

    @Test(
        "index.html links only to files that exist (relative, no network) and renders in Chromium without console errors",
        .enabled(if: browser != nil, "needs chromium (not installed)"))
    func contactSheet() throws {
        let run = try Self.succeededRun()
        let index = run.folder.appendingPathComponent("index.html")
        let html = try String(contentsOf: index, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"(?:href|src)="([^"]*)""#)
        let references = pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
            Range($0.range(at: 1), in: html).map { String(html[$0]) }
        }
        #expect(references.count > 20)
        var images = 0
        for ref in references where !ref.hasPrefix("#") {
            #expect(!ref.contains(":") && !ref.hasPrefix("/"), "\(ref) is not a relative link")
            let path = ref.removingPercentEncoding ?? ref
            #expect(
                FileManager.default.fileExists(atPath: run.folder.appendingPathComponent(path).path),
                "\(ref) does not exist")
            if path.hasPrefix("thumbs/") { images += 1 }
        }
        // One thumbnail per image the demo wrote (JPEGs and the DNG; movies show their still's).
        let stills = run.listed.filter { ["jpg", "dng"].contains(($0 as NSString).pathExtension.lowercased()) }
        #expect(images == stills.count, "thumbnails referenced: \(images), images: \(stills)")
        #expect(
            html.components(separatedBy: "<svg class=\"histogram\"").count - 1 == images, "one histogram per thumbnail")
        #expect(html.contains("willBeginCapture") && html.contains("didFinishProcessingLivePhotoMovie"))
        #expect(!html.contains("<script"), "no script")

        let browser = try #require(Self.browser)
        let profile = try ExternalTool.temporaryFolder("lux-chromium")
        defer { try? FileManager.default.removeItem(at: profile) }
        func render(_ page: URL, _ extra: [String] = []) throws -> ExternalTool.Capture {
            try ExternalTool.capture(
                browser,
                [
                    "--headless", "--disable-gpu", "--no-sandbox", "--enable-logging=stderr", "--v=0",
                    "--user-data-dir=\(profile.path)",
                ] + extra + ["--dump-dom", page.absoluteString])
        }
        func consoleLines(_ r: ExternalTool.Capture) -> [Substring] {
            r.errorText.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        }
        // The page on its own: no console message at all, and the DOM Chromium built has every figure.
        let direct = try render(index)
        #expect(direct.status == 0, "\(direct.errorText)")
        #expect(consoleLines(direct).isEmpty, "console messages: \(consoleLines(direct))")
        #expect(direct.text.contains("<h1>Lux demo</h1>"), "the DOM Chromium built: \(direct.text.prefix(500))")
        #expect(direct.text.components(separatedBy: "<img ").count - 1 == images)
        // Every thumbnail decodes: a probe page beside the output folder frames the sheet and reports images
        // that did not load (naturalWidth 0) as console errors.
        let probe = run.folder.deletingLastPathComponent().appendingPathComponent("probe.html")
        try Data(
            """
            <!DOCTYPE html><html><body><iframe id="f" src="out/index.html" width="1200" height="900"></iframe><script>
            document.getElementById("f").addEventListener("load", () => {
              const d = document.getElementById("f").contentDocument;
              const imgs = [...d.images];
              const broken = imgs.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute("src"));
              if (broken.length) console.error("broken images: " + broken.join(", "));
              document.title = "images " + imgs.length + " broken " + broken.length;
            });
            </script></body></html>
            """.utf8
        ).write(to: probe)
        let probed = try render(probe, ["--allow-file-access-from-files", "--virtual-time-budget=10000"])
        #expect(consoleLines(probed).isEmpty, "console messages: \(consoleLines(probed))")
        #expect(probed.text.contains("<title>images \(images) broken 0</title>"), "\(probed.text.prefix(300))")
    }
}
