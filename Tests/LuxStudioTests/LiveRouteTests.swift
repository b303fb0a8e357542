import Foundation
import Hummingbird
import HummingbirdTesting
import LuxCodecs
import LuxLive
import LuxPixels
import LuxStudio
import LuxTestSupport
import Testing

/// The Live Photo editor's routes: the pair's timeline, playback previews and the edited pair saved as a new one,
/// checked with ffprobe, ffmpeg and exiftool.
@Suite struct LiveRouteTests {
    /// A studio over a capture folder holding ``TestLivePhoto`` and a plain photo `IMG_0002.jpg`.
    func makeStudio() throws -> (studio: Studio, folder: URL) {
        let folder = try ExternalTool.temporaryFolder("lux-studio-live")
        try TestLivePhoto.write(in: folder)
        try TestImages.jpeg(width: 64, height: 48) { _, _ in SIMD4(10, 20, 30, 255) }
            .write(to: folder.appendingPathComponent("IMG_0002.jpg"))
        return (try Studio(configuration: StudioConfiguration(captureFolder: folder)), folder)
    }

    static func object(_ body: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]) ?? [:]
    }

    /// POSTs `edit` (JSON text) to `route` for the pair and returns the status and the answer.
    static func post(_ client: some TestClientProtocol, _ route: String, _ edit: String) async throws -> (
        HTTPResponse.Status, [String: Any], String
    ) {
        try await client.execute(
            uri: "/api/\(route)/0/IMG_0001.JPG", method: .post, body: ByteBuffer(string: edit)
        ) { response in
            (response.status, Self.object(response.body), String(buffer: response.body))
        }
    }

    /// A value of ffprobe's JSON for `url`'s streams and format.
    static func probe(_ url: URL) throws -> [String: Any] {
        let out = try ExternalTool.capture(
            "ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", url.path]
        ).succeeded()
        return (try JSONSerialization.jsonObject(with: out.stdout) as? [String: Any]) ?? [:]
    }

    /// The loudest sample of the movie's sound in dBFS, as ffmpeg's volumedetect measures it.
    static func maxVolume(_ url: URL) throws -> Double {
        let out = try ExternalTool.capture(
            "ffmpeg",
            ["-hide_banner", "-nostats", "-i", url.path, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-"]
        ).succeeded()
        let line = out.errorText.split(separator: "\n").first { $0.contains("max_volume:") } ?? ""
        return Double(line.split(separator: " ").dropLast().last ?? "") ?? .nan
    }

    /// exiftool's content identifiers of a still (Apple's maker note tag 17, which exiftool calls MediaGroupUUID)
    /// and of a movie (the QuickTime key ContentIdentifier).
    static func identifiers(_ still: URL, _ movie: URL) throws -> (String?, String?) {
        let out = try ExternalTool.capture(
            "exiftool", ["-j", "-MediaGroupUUID", "-ContentIdentifier", still.path, movie.path]
        ).succeeded()
        let objects = (try JSONSerialization.jsonObject(with: out.stdout) as? [[String: Any]]) ?? []
        return (objects.first?["MediaGroupUUID"] as? String, objects.last?["ContentIdentifier"] as? String)
    }

    @Test("the timeline: photo time, duration, 30 frame times, sizes and sound")
    func timeline() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.router) { client in
            try await client.execute(uri: "/api/live/0/IMG_0001.JPG", method: .get) { response in
                #expect(response.status == .ok)
                let t = Self.object(response.body)
                #expect(t["photoTime"] as? Double == 0.5)
                #expect(abs((t["duration"] as? Double ?? 0) - 1) < 0.001)
                #expect((t["frameTimes"] as? [Double])?.count == 30)
                #expect(t["photoWidth"] as? Int == 320 && t["videoWidth"] as? Int == 160)
                #expect(t["hasAudio"] as? Bool == true && t["canRenderMovie"] as? Bool == true)
            }
            // A plain photo is not a Live Photo; a name outside the gallery is not found.
            try await client.execute(uri: "/api/live/0/IMG_0002.jpg", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("IMG_0002.jpg"))
            }
            try await client.execute(uri: "/api/live/0/%2e%2e/IMG_0001.JPG", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test(
        "save: trimmed to 0.2…0.8 s with frame 12 as the key photo: a new pair, sound kept, identifiers matching",
        .needs("ffprobe", "ffmpeg", "exiftool"))
    func saveTrimmedWithKeyPhoto() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        let answer = try await studio.application().test(.router) { client in
            let (status, answer, text) = try await Self.post(
                client, "live-save", #"{"trim": [0.2, 0.8], "keyPhoto": 0.4, "volume": 1}"#)
            #expect(status == .ok, "\(text)")
            return answer
        }
        #expect(
            answer["file"] as? String == "0/IMG_0001_edit.JPG" && answer["movie"] as? String == "0/IMG_0001_edit.MOV")
        let still = folder.appendingPathComponent("IMG_0001_edit.JPG")
        let movie = folder.appendingPathComponent("IMG_0001_edit.MOV")
        let probe = try Self.probe(movie)
        let duration = Double((probe["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        #expect(abs(duration - 0.6) < 0.05, "duration \(duration) s")
        // One video and one audio stream (beside the timed metadata of the still-image time).
        let streams = (probe["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_type"] as? String }
        #expect(
            streams.filter { $0 == "video" }.count == 1 && streams.filter { $0 == "audio" }.count == 1, "\(streams)")
        #expect(try Self.maxVolume(movie) > -20)
        let (stillID, movieID) = try Self.identifiers(still, movie)
        #expect(
            stillID != nil && stillID == movieID && stillID != TestLivePhoto.identifier,
            "\(stillID ?? "-") \(movieID ?? "-")")
        // The key photo is the frame showing at 0.4 s, frame 12: (96, 100, 144), at the still's 320 × 240.
        let pixels = try ImageFile.read(url: still).pixels.converted(to: .rgba8)
        #expect(pixels.width == 320 && pixels.height == 240)
        let c = pixels.components(as: UInt8.self)
        let o = 4 * (120 * 320 + 160)
        #expect(abs(Int(c[o]) - 96) < 8 && abs(Int(c[o + 1]) - 100) < 8 && abs(Int(c[o + 2]) - 144) < 8)
        // The original pair is untouched and the gallery shows the new one as a Live Photo.
        #expect(
            try LivePhoto(photoURL: folder.appendingPathComponent("IMG_0001.JPG")).contentIdentifier
                == TestLivePhoto.identifier)
        let items = GalleryFolders(captureFolder: folder, folders: []).items()
        #expect(items.first { $0.name == "0/IMG_0001_edit.JPG" }?.kind == .livePhoto)
    }

    @Test(
        "save muted with a square crop and a filter chain: silent sound, square still and movie; a second save takes a new name",
        .needs("ffprobe", "ffmpeg"))
    func saveMutedSquare() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edit = #"{"square": true, "volume": 0, "chain": "SepiaTone intensity=1"}"#
        let names = try await studio.application().test(.router) { client in
            var names: [String] = []
            for _ in 0..<2 {
                let (status, answer, text) = try await Self.post(client, "live-save", edit)
                #expect(status == .ok, "\(text)")
                names.append(answer["movie"] as? String ?? "")
            }
            return names
        }
        #expect(names == ["0/IMG_0001_edit.MOV", "0/IMG_0001_edit-2.MOV"])
        let movie = folder.appendingPathComponent("IMG_0001_edit.MOV")
        #expect(try Self.maxVolume(movie) < -80)
        let video = (try Self.probe(movie)["streams"] as? [[String: Any]] ?? []).first {
            $0["codec_type"] as? String == "video"
        }
        #expect(video?["width"] as? Int == 120 && video?["height"] as? Int == 120)
        let still = try ImageFile.info(url: folder.appendingPathComponent("IMG_0001_edit.JPG"))
        #expect(still.width == 240 && still.height == 240)
    }

    @Test("a preview is a small pair served from its own addresses; bad edits are refused and write nothing")
    func previewAndRefusals() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.router) { client in
            let (status, answer, text) = try await Self.post(client, "live-preview", #"{"chain": "SepiaTone"}"#)
            #expect(status == .ok, "\(text)")
            let movie = try #require(answer["movie"] as? String)
            let still = try #require(answer["still"] as? String)
            try await client.execute(uri: movie, method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "video/quicktime")
                let bytes = Data(response.body.readableBytesView)
                // A QuickTime file: its first box is 'ftyp' with the brand 'qt  '.
                #expect(String(decoding: bytes.prefix(12).suffix(8), as: UTF8.self) == "ftypqt  ")
            }
            try await client.execute(uri: still, method: .get) { response in
                #expect(response.status == .ok)
                let pixels = try JPEG.decode(Array(response.body.readableBytesView)).pixels
                #expect(max(pixels.width, pixels.height) <= 480)
            }
            try await client.execute(uri: "/api/live-play/not-an-id/movie", method: .get) { response in
                #expect(response.status == .notFound)
            }
            // The trim must hold the photo time (0.5 s); the body must be JSON; the volume 0…1.
            for (edit, expected) in [
                (#"{"trim": [0.6, 0.9]}"#, HTTPResponse.Status.unprocessableContent),
                ("{not json", .badRequest), (#"{"volume": 3}"#, .unprocessableContent),
                (#"{"trim": [0.5]}"#, .unprocessableContent), (#"{"chain": "NoSuchFilter"}"#, .unprocessableContent),
            ] {
                let (status, _, text) = try await Self.post(client, "live-save", edit)
                #expect(status == expected, "\(edit): \(text)")
            }
        }
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == [
                "IMG_0001.JPG", "IMG_0001.MOV", "IMG_0002.jpg",
            ])
    }
}
