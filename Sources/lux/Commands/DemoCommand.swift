import ArgumentParser
import Foundation
import Lux

/// The README's main job: the seeds' whole story on the simulated camera — an AVCam-like session, scene monitoring,
/// prepared settings, five kinds of capture, an HDR merge, a RAW development and Live Photo edits — ending in a
/// self-contained contact sheet.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the whole Lux story on the simulated camera and write a contact sheet.",
        discussion: """
            Configures a capture session like Apple's AVCam (photo preset, wide colour, microphone), monitors the \
            scene, prepares the photo settings, then captures a balanced JPEG, RAW + JPEG (a DNG with a preview), an \
            auto-exposure bracket −2/0/+2 EV merged by exposure fusion, a low-light photo at quality \
            prioritisation (a merged burst) and a Live Photo (JPEG + MOV). It develops the DNG to Display P3 with \
            adjusted exposure, temperature and noise reduction, edits the Live Photo with the four frame \
            processors of the Live Photo editing session, and writes index.html: thumbnails, histograms, the \
            resolved settings and the event timeline of every capture. Every file opens in exiftool and ffprobe.

            Examples:
              lux demo                      # writes ./lux-demo/index.html
              lux demo -o /tmp/demo --size small
              lux demo --overwrite          # run again into ./lux-demo
            """)

    @Option(name: .shortAndLong, help: "The folder the results are written to.")
    var out: String = "lux-demo"

    @OptionGroup var overwriteOptions: OverwriteOptions

    @Option(
        help:
            "The simulated sensor: full (12 MP), medium (3 MP) or small (320×240 without Live Photo stabilisation, for tests)."
    )
    var size: DemoSize = .full

    func run() async throws {
        let folder = URL(fileURLWithPath: out, isDirectory: true).standardizedFileURL
        // The contact sheet marks a folder holding an earlier run: its files are replaced only on request.
        try overwriteOptions.check(folder.appendingPathComponent("index.html").path)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create \(out): \(error.localizedDescription)")
        }
        let start = ContinuousClock.now
        let story = DemoStory(folder: folder, size: size)
        let sheet: ContactSheet
        do {
            sheet = try await story.run()
        } catch let error as CaptureError {
            throw CLIError("the simulated camera failed: \(error)")
        } catch let error as CodecError {
            throw CLIError("\(error)")
        } catch let error as LivePhotoError {
            throw CLIError("\(error)")
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("\(error)")
        }
        let index = folder.appendingPathComponent("index.html")
        do {
            try Data(sheet.html.utf8).write(to: index, options: .atomic)
        } catch {
            throw CLIError("cannot write \(index.path): \(error.localizedDescription)")
        }
        print(DemoSummary(sheet: sheet, folder: folder, seconds: milliseconds(since: start) / 1000).text)
    }
}
