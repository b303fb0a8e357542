import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import LuxCapture
import LuxCodecs
import LuxPixels
import LuxStudio
import LuxTestSupport
import Synchronization
import Testing

/// The camera WebSocket against a live server on loopback, with a small sensor (1008 × 756: a 252 × 189 stream).
@Suite(.serialized) struct CameraSocketTests {
    func makeStudio(sensorWidth: Int = 1008, sensorHeight: Int = 756) throws -> (studio: Studio, folder: URL) {
        let folder = try ExternalTool.temporaryFolder("lux-studio-camera")
        var sensor = SensorModel.phone12MP
        sensor.pixelPitch = sensor.sensorWidth / Double(sensorWidth)
        sensor.width = sensorWidth
        sensor.height = sensorHeight
        let configuration = StudioConfiguration(
            port: 0, captureFolder: folder, viewfinderSize: (160, 160), scene: "gray-card", sensor: sensor)
        return (try Studio(configuration: configuration), folder)
    }

    /// What a WebSocket handler saw, read after it returns.
    final class Collected: Sendable {
        let files = Mutex<[String]>([])
        let events = Mutex<[String]>([])
    }

    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    /// The mean of a JPEG frame's samples, 0...255.
    static func mean(_ jpeg: [UInt8]) throws -> Double {
        try TestImages.mean(ofJPEG: jpeg).mean
    }

    @Test("hello with the format's ranges, then viewfinder JPEGs fitted to the viewfinder size and read-outs")
    func viewfinder() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.live) { client in
            try await client.ws("/ws/camera") { inbound, _, _ in
                var hello: [String: Any]?
                var frame: [UInt8]?
                var status: [String: Any]?
                for try await message in inbound.messages(maxSize: 1 << 22) {
                    switch message {
                    case .text(let text):
                        let object = Self.object(text)
                        if object["type"] as? String == "hello" { hello = object }
                        if object["type"] as? String == "status" { status = object }
                    case .binary(let buffer): frame = Array(buffer.readableBytesView)
                    }
                    if hello != nil, frame != nil, status != nil { break }
                }
                let ranges = try #require(hello?["ranges"] as? [String: Any])
                // The simulated sensor's ISO range (SensorModel.phone12MP) and the format's bias range, ±8 EV.
                #expect(
                    ranges["iso"] as? [Double] == [
                        Double(SensorModel.phone12MP.baseISO), Double(SensorModel.phone12MP.maxISO),
                    ])
                #expect(ranges["bias"] as? [Double] == [-8, 8])
                // 252 × 189 inside 160 × 160: scale 160 / 252, so 160 × 120.
                let decoded = try JPEG.decode(try #require(frame))
                #expect(decoded.pixels.width == 160 && decoded.pixels.height == 120)
                #expect(status?["iso"] is Double)
            }
        }
    }

    @Test("a malformed message gets an error message and the socket stays usable")
    func malformed() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.live) { client in
            try await client.ws("/ws/camera") { inbound, outbound, _ in
                var errors: [String] = []
                var done = false
                try await outbound.write(.text("{not json"))
                try await outbound.write(.text(#"{"type":"teleport"}"#))
                try await outbound.write(.text(#"{"type":"bias","value":"high"}"#))
                try await outbound.write(.binary(ByteBuffer(bytes: [1, 2, 3])))
                try await outbound.write(.text(#"{"type":"bias","value":99}"#))
                try await outbound.write(.text(#"{"type":"bias","value":1}"#))
                for try await message in inbound.messages(maxSize: 1 << 22) {
                    guard case .text(let text) = message else { continue }
                    let object = Self.object(text)
                    if object["type"] as? String == "error" { errors.append(object["message"] as? String ?? "") }
                    if object["type"] as? String == "done" { done = true }
                    if errors.count == 5 && done { break }
                }
                #expect(errors[0].contains("not JSON"))
                #expect(errors[1].contains("teleport"))
                #expect(errors[2].contains("'value' must be a number"))
                #expect(errors[3].contains("JSON text"))
                #expect(errors[4].contains("camera"))
            }
        }
    }

    @Test("exposure bias +2 EV makes the viewfinder brighter than -2 EV")
    func biasBrightens() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.live) { client in
            try await client.ws("/ws/camera") { inbound, outbound, _ in
                var means: [Double] = []
                // A WebSocket's inbound stream is iterated once, across both biases.
                var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                for bias in [-2, 2] {
                    try await outbound.write(.text(#"{"type":"exposure","mode":"continuousAutoExposure"}"#))
                    try await outbound.write(.text(#"{"type":"bias","value":\#(bias)}"#))
                    var settled = false
                    var frames = 0
                    while let message = try await messages.next() {
                        switch message {
                        case .text(let text):
                            let o = Self.object(text)
                            // Settled: the new bias in force, metered on target (the offset inside auto exposure's
                            // 1/6 EV deadband; setting the bias moves it at once) and no longer adjusting.
                            if o["type"] as? String == "status", o["bias"] as? Double == Double(bias),
                                let offset = o["offset"] as? Double, abs(offset) < 0.2,
                                o["isAdjustingExposure"] as? Bool == false
                            {
                                settled = true
                            }
                        case .binary(let buffer):
                            if settled { frames += 1 }
                            if frames == 3 { means.append(try Self.mean(Array(buffer.readableBytesView))) }
                        }
                        if means.count == (bias == -2 ? 1 : 2) { break }
                    }
                }
                // A gray card metered to 18 % grey, pushed 2 EV down and 2 EV up: the second is far brighter.
                #expect(means[1] > means[0] + 40, "means \(means)")
            }
        }
    }

    @Test("RAW + JPEG writes a DNG and a JPEG, reports the event timeline in order, and both are in the gallery")
    func rawPlusJPEG() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.live) { client in
            let collected = Collected()
            try await client.ws("/ws/camera") { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type":"capture","kind":"rawPlusJPEG","prioritization":"speed"}"#))
                for try await message in inbound.messages(maxSize: 1 << 22) {
                    guard case .text(let text) = message else { continue }
                    let o = Self.object(text)
                    if o["type"] as? String == "event" {
                        collected.events.withLock { $0.append(o["name"] as? String ?? "") }
                    }
                    if o["type"] as? String == "captured" {
                        collected.files.withLock { $0 = o["files"] as? [String] ?? [] }
                        break
                    }
                }
            }
            let files = collected.files.withLock { $0 }
            let events = collected.events.withLock { $0 }
            #expect(events.first == "willBeginCapture")
            #expect(events.last == "didFinishCapture")
            #expect(events.filter { $0 == "didFinishProcessingPhoto" }.count == 2)
            #expect(Set(files.map { ($0 as NSString).pathExtension }) == ["dng", "jpg"])
            for file in files {
                let url = folder.appendingPathComponent(String(file.dropFirst(2)))
                let info = try ImageFile.info(url: url)
                #expect(info.width > 0)
            }
            // No temporary files are left beside them.
            let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(Set(listed) == Set(files.map { String($0.dropFirst(2)) }))
            try await client.execute(uri: "/api/gallery", method: .get) { response in
                let items = try JSONDecoder().decode([GalleryItem].self, from: Data(response.body.readableBytesView))
                #expect(Set(items.map(\.name)) == Set(files))
            }
            // The gallery shows both through the thumbnail path: 4:3 inside 128 × 128 is 128 × 96.
            for file in files {
                try await client.execute(uri: "/api/thumbnail/\(file)?size=128", method: .get) { response in
                    #expect(response.status == .ok, "\(file): \(String(buffer: response.body))")
                    if response.status == .ok {
                        let pixels = try JPEG.decode(Array(response.body.readableBytesView)).pixels
                        #expect(pixels.width == 128 && pixels.height == 96, "\(file)")
                    }
                }
            }
        }
    }

    @Test("two browsers capturing at once are served one after the other, each with its own files")
    func twoClients() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.live) { client in
            let results = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        let collected = Collected()
                        try await client.ws("/ws/camera") { inbound, outbound, _ in
                            try await outbound.write(
                                .text(#"{"type":"capture","kind":"photo","prioritization":"speed"}"#))
                            for try await message in inbound.messages(maxSize: 1 << 22) {
                                guard case .text(let text) = message else { continue }
                                let o = Self.object(text)
                                if o["type"] as? String == "captured" {
                                    collected.files.withLock { $0 = o["files"] as? [String] ?? [] }
                                    break
                                }
                            }
                        }
                        return collected.files.withLock { $0 }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 2)
            #expect(results.allSatisfy { $0.count == 1 })
            #expect(Set(results.flatMap { $0 }).count == 2)
            for file in results.flatMap({ $0 }) {
                let bytes = try Data(contentsOf: folder.appendingPathComponent(String(file.dropFirst(2))))
                // Without high resolution a photo format delivers 3/4-scale photos (8 MP on a 12 MP phone), even
                // sizes: 1008 × 756 → 756 × 566.
                let pixels = try JPEG.decode(Array(bytes)).pixels
                #expect(pixels.width == 756 && pixels.height == 566, "\(pixels.width) × \(pixels.height)")
            }
        }
    }

    /// Sends `commands` on a new camera socket and reads until `until` holds for a text message (or the socket ends).
    static func send(
        _ commands: [String], client: some TestClientProtocol, until: @escaping @Sendable ([String: Any]) -> Bool
    ) async throws {
        try await client.ws("/ws/camera") { inbound, outbound, _ in
            for command in commands { try await outbound.write(.text(command)) }
            for try await message in inbound.messages(maxSize: 1 << 22) {
                guard case .text(let text) = message else { continue }
                if until(Self.object(text)) { break }
            }
        }
    }

    /// A Live Photo's movie has the format's size up to 1440 pixels wide, so a 160 × 120 sensor keeps its 3 s of
    /// movie frames quick to simulate in a debug build (the full-size path is LivePhotoCaptureTests'); the viewfinder
    /// shares the stream with the movie recorder throughout, as in the studio.
    ///
    /// The socket stays open that long because the server keeps reading (and answering pings) while it captures.
    @Test(
        "a browser leaving in the middle of a Live Photo (before the still at the automatic exposure, or after it and before the movie at a 1/10 s custom one) still gets the whole pair saved",
        // A guard against a capture that never ends (the whole suite on two loaded cores delays it), not a speed check.
        .timeLimit(.minutes(10)),
        arguments: [("willCapturePhoto", nil), ("didFinishProcessingPhoto", 0.1)] as [(String, Double?)])
    func livePhotoInterrupted(at event: String, duration: Double?) async throws {
        let (studio, folder) = try makeStudio(sensorWidth: 160, sensorHeight: 120)
        defer { try? FileManager.default.removeItem(at: folder) }
        let listedAtDone = Mutex<[String]>([])
        try await studio.application().test(.live) { client in
            var commands = [#"{"type":"livePhotoMode","enabled":true}"#]
            if let duration { commands.append(#"{"type":"exposure","mode":"custom","duration":\#(duration)}"#) }
            commands.append(#"{"type":"capture","kind":"livePhoto"}"#)
            try await Self.send(commands, client: client) {
                $0["type"] as? String == "event" && $0["name"] as? String == event
            }
            // The socket is gone mid-capture. A new socket (what a second browser opens) is answered only in turn,
            // after the interrupted capture has ended and its files are in place: they are listed as soon as its
            // command is done, before the server stops (stopping waits for a capture too).
            try await Self.send([#"{"type":"bias","value":0}"#], client: client) { $0["type"] as? String == "done" }
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            listedAtDone.withLock { $0 = names }
        }
        let listed = listedAtDone.withLock { $0 }
        // One still and its movie, nothing else (no temporary or partial file, hidden or not).
        #expect(listed.count == 2, "\(listed)")
        let still = try #require(listed.first { $0.hasSuffix(".jpg") }, "\(listed)")
        let url = folder.appendingPathComponent(still)
        let movie = try QuickTimeMovie(contentsOf: url.deletingPathExtension().appendingPathExtension("mov"))
        // A complete Live Photo: the pair's identifiers match, as Lux and (when installed) exiftool read them.
        let identifier = try ImageFile.info(url: url).metadata.livePhotoContentIdentifier
        #expect(identifier != nil && identifier == movie.contentIdentifier)
        if ExternalTool.isAvailable("exiftool") {
            let (stillID, movieID) = try LiveRouteTests.identifiers(
                url, url.deletingPathExtension().appendingPathExtension("mov"))
            #expect(stillID != nil && stillID == movieID && stillID == identifier)
        }
        // More than the still's own frame: 1.5-1.75 s on each side of the still (LivePhotoCaptureTests.whileViewing;
        // 1/10 s frame slots, some taken by the viewer, make it up to 3.5 s), of which automatic trimming keeps at
        // least its 0.5 s margin around the still (a grey card on a tripod is not trimmed when run alone; frames that
        // change from one to the next, as seen inside the loaded parallel suite, may be).
        let photoTime = try #require(movie.stillImageTime).seconds
        let duration = movie.duration.seconds
        #expect(
            duration >= 1 && duration <= 3.5 && photoTime >= 0.5 - 1e-3 && duration - photoTime >= 0.5 - 1e-3,
            "still at \(photoTime) s of \(duration) s")
    }
}
