import ArgumentParser
import Foundation
import Lux

/// `lux live info PAIR`: what a Live Photo holds.
struct LiveInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a Live Photo's identifier, photo time, duration, still and movie streams.",
        discussion: """
            Reads only headers and metadata (no frame is decoded). Says whether the movie can be re-rendered \
            (H.264, HEVC and Motion-JPEG can; a damaged movie or a codec FFmpeg lacks cannot, and then the still \
            can be edited alone) and whether Photos left an edit in an .AAE sidecar beside the still. Given a \
            folder, lists every pair in it (matched by content identifier).

            Examples:
              lux live info IMG_0001.JPG
              lux live info IMG_0001.MOV --json
              lux live info ~/Pictures/export
            """)

    @Argument(help: "The still or the movie of the pair, or a folder.", completion: .file())
    var pair: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let url = URL(fileURLWithPath: pair)
        var isFolder: ObjCBool = false
        let pairs: [LivePhoto]
        do {
            if FileManager.default.fileExists(atPath: pair, isDirectory: &isFolder), isFolder.boolValue {
                pairs = try LivePhoto.pairs(in: url)
                if pairs.isEmpty {
                    throw CLIError("\(pair): no Live Photo pairs (stills and movies with one identifier)")
                }
            } else {
                pairs = [try LivePhoto(pairing: url)]
            }
        } catch let e as LivePhotoError {
            throw e.cliError
        }
        var reports: [[String: Any]] = []
        for live in pairs {
            let report = try describe(live)
            reports.append(report.json)
            if !json {
                print("\(live.photoURL.lastPathComponent) + \(live.movieURL.lastPathComponent)")
                for (k, v) in report.lines { print("  " + k.padding(toLength: 20, withPad: " ", startingAt: 0) + v) }
            }
        }
        if json {
            let object: Any = reports.count == 1 ? reports[0] : reports
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    private func describe(_ live: LivePhoto) throws -> (lines: [(String, String)], json: [String: Any]) {
        let info: ImageInfo
        let movie: QuickTimeMovie
        do {
            info = try ImageFile.info(url: live.photoURL)
            movie = try QuickTimeMovie(contentsOf: live.movieURL)
        } catch {
            throw CLIError(error, file: live.movieURL.path)
        }
        func seconds(_ t: MediaTime) -> String { String(format: "%.3f s", t.seconds) }
        var lines: [(String, String)] = [
            ("content identifier", live.contentIdentifier.isEmpty ? "-" : live.contentIdentifier),
            (
                "photo time",
                seconds(live.photoTime) + (movie.stillImageTime == nil ? " (no still-image time: the middle)" : "")
            ),
            ("duration", seconds(live.duration)),
            (
                "still",
                "\(info.width)×\(info.height) \(info.format), \(info.colorSpace?.name ?? "no colour space"), "
                    + "orientation \(info.metadata.orientation)"
            ),
            (
                "movie",
                "QuickTime '\(movie.brand)', \(movie.timescale) Hz timeline"
                    + (movie.creationDate.map { ", created \(ISO8601DateFormatter().string(from: $0))" } ?? "")
            ),
        ]
        var streams: [[String: Any]] = []
        for t in movie.tracks {
            lines.append(("  stream", t.description))
            var s: [String: Any] = [
                "id": t.id, "kind": t.kind.rawValue, "codec": t.codec, "codecName": t.codecName,
                "duration": t.duration.seconds, "samples": t.sampleCount,
            ]
            switch t.kind {
            case .video:
                s["width"] = t.width
                s["height"] = t.height
                s["frameRate"] = t.nominalFrameRate
                s["orientation"] = Int(t.orientation.rawValue)
            case .audio:
                s["sampleRate"] = t.sampleRate
                s["channels"] = t.channelCount
            case .timedMetadata: s["keys"] = t.metadataKeys.map(\.rawValue)
            case .other: break
            }
            streams.append(s)
        }
        for item in movie.metadata where item.key != .contentIdentifier {
            lines.append(("  metadata", item.description))
        }
        let editable = movie.videoTrack?.canDecodeFrames ?? false
        lines.append(
            (
                "editable",
                editable
                    ? "yes (\(movie.videoTrack?.codecName ?? "?") frames decode)"
                    : "still only: the movie is \(movie.videoTrack?.codecName ?? "without video"), which FFmpeg "
                        + "cannot decode"
            ))
        var appleEdit: [String: Any]?
        if let url = AppleAdjustmentSidecar.url(besidePhoto: live.photoURL) {
            if let sidecar = try? AppleAdjustmentSidecar(contentsOf: url) {
                let data = sidecar.adjustmentData
                let when = sidecar.timestamp.map { ISO8601DateFormatter().string(from: $0) }
                lines.append(
                    (
                        "Photos edit",
                        "\(url.lastPathComponent): \(data.formatIdentifier) \(data.formatVersion)"
                            + (sidecar.editorBundleID.map { ", by \($0)" } ?? "") + (when.map { ", \($0)" } ?? "")
                    ))
                appleEdit = [
                    "file": url.path, "format": data.formatIdentifier, "formatVersion": data.formatVersion,
                    "editor": sidecar.editorBundleID ?? "", "timestamp": when ?? "",
                ]
            } else {
                lines.append(("Photos edit", "\(url.lastPathComponent) (unreadable)"))
                appleEdit = ["file": url.path]
            }
        }
        var json: [String: Any] = [
            "photo": live.photoURL.path, "movie": live.movieURL.path, "contentIdentifier": live.contentIdentifier,
            "photoTime": live.photoTime.seconds, "duration": live.duration.seconds, "streams": streams,
            "still": [
                "width": info.width, "height": info.height, "format": info.format.rawValue,
                "orientation": Int(info.metadata.orientation.rawValue),
            ],
            "movieEditable": editable,
        ]
        if let appleEdit { json["photosEdit"] = appleEdit }
        json["metadata"] = Dictionary(
            movie.metadata.map { ($0.key.rawValue, $0.value.description) }, uniquingKeysWith: { a, _ in a })
        return (lines, json)
    }
}
