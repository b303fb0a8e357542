import ArgumentParser
import Foundation
import Lux

struct CaptureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract:
            "Take photos with the simulated camera or a V4L2 camera: processed, RAW, RAW + processed or bracketed.",
        discussion: """
            Builds a capture session (camera -> photo output) on a simulated scene, takes the photos the options \
            ask for, writes them (JPEG or HEIC with EXIF and ICC, a HEIC with the --preview as its thumbnail; TIFF \
            for uncompressed formats; DNG with an embedded preview for RAW), and prints the resolved settings and the event timeline of each request. Files are \
            named IMG_<uniqueID>_<n>.<ext> (a Live Photo's still and movie share IMG_<uniqueID>).

            With --device /dev/videoN the photos come from that V4L2 camera (see `lux devices`) through the same \
            photo output: single photos from its stream at the active pixel format's largest size (with --raw or \
            --raw-plus, its largest Bayer format), written as IMG_<node>_<n>.<ext> (jpg, tiff, or dng for RAW); \
            --format, --preview and --raw-plus apply, --live and brackets need the simulated camera; its --json object has "camera", "path", "format", "controls", "settings" (the manual \
            controls applied) and "photos" [{file, bytes, isRaw, width, height, seconds}]. The manual controls --iso, --duration, --lens-position, --temperature, --tint and --bias \
            work on either camera, through the same device protocol; a control the camera lacks is an error.

            --json prints one object instead: "camera", "format", "colorSpace", "scene", "light" and "requests", \
            one per request with "uniqueID", "photoWidth", "photoHeight", "rawPhotoWidth", "rawPhotoHeight", \
            "expectedPhotoCount", "qualityPrioritization", "processing", "isFlashEnabled", "expectedMilliseconds" \
            [min, max], "events" [{name, milliseconds}] in delivery order, "photos" [{file, bytes, isRaw, \
            photoCount}] and, for Live Photos, "livePhotoMovie" {file, duration, photoTime}.

            Examples:
              lux capture --scene still-life -o out
              lux capture --scene photo:portrait.heic -o out      # a photograph (its depth map, if any)
              lux capture --scene photo:room.jpg,depth=room-depth.tif --lens-position 0.6
              lux capture --raw --preview 160x160
              lux capture --raw-plus jpeg --color-space p3
              lux capture --bracket -2,0,2
              lux capture --bracket-manual 1/1000@100,1/60@800
              lux capture --scene low-light --prioritization quality --flash auto
              lux capture --live -o out            # IMG_<id>.jpg + IMG_<id>.mov (H.264 + AAC), one content identifier
              lux capture --live --live-codec hevc -o out
              lux capture --format heic --live --preview 320x320 -o out   # a HEIC still, as iPhones take them
              lux capture --raw --sensor 640x480 --count 8 -o raws --json
              lux capture --iso 400 --duration 1/60 --temperature 5000 --bias -1
              lux capture --device /dev/video0 --lens-position 0.8 -o out
            """)

    @Option(
        help: "Capture from this V4L2 camera (e.g. /dev/video0) instead of the simulated one (see `lux devices`).",
        completion: .file())
    var device: String?

    @OptionGroup var manual: ManualControlOptions

    @Option(help: ArgumentHelp(SceneArgument.help), completion: .file())
    var scene = "still-life"

    @Option(parsing: .unconditional, help: "Illuminance in lux of the scene's main light (default: the scene's own).")
    var lux: Double?

    @Flag(help: "A hand-held camera (shake) instead of a tripod.")
    var handheld = false

    @Flag(
        help:
            "A hand-held camera that also slides (0.5 mm RMS), so near parts of the scene move against far ones (parallax); implies --handheld."
    )
    var parallax = false

    @Option(
        name: .customLong("shake-seed"),
        help: "The seed of the hand-held shake (with --handheld or --parallax): each seed is another path (default: 1)."
    )
    var shakeSeed: UInt64?

    @Option(
        name: [.customShort("o"), .customLong("out")], help: "The folder photos are written to (created if missing).",
        completion: .directory)
    var out = "."

    @Option(
        help: "The session preset: photo, high, hd1280x720, hd1920x1080, hd4K3840x2160.",
        transform: { text in
            guard let p = SessionPreset(rawValue: text), p != .inputPriority else {
                throw ValidationError("unknown preset '\(text)'")
            }
            return p
        })
    var preset: SessionPreset = .photo

    @Option(help: "The processed format: jpeg, heic (HEVC, as iOS 11 and later), bgra, 420f or 420v.")
    var format: ProcessedFormatArgument = .jpeg

    @Flag(help: "Capture a RAW photo (DNG) only.")
    var raw = false

    @Option(
        name: .customLong("raw-plus"),
        help: "Capture RAW plus a processed photo in this format (jpeg, heic, bgra, 420f, 420v).")
    var rawPlus: ProcessedFormatArgument?

    @Option(parsing: .unconditional, help: "An auto-exposure bracket: EV biases, e.g. -2,0,2.")
    var bracket: String?

    @Option(
        name: .customLong("bracket-manual"), help: "A manual bracket: duration@ISO items, e.g. 1/1000@100,1/60@800.")
    var bracketManual: String?

    @Option(
        name: [.customLong("prioritization"), .customLong("quality")],
        help: "Quality prioritization: speed, balanced or quality (--quality is the same option).")
    var prioritization: QualityArgument = .balanced

    @Option(
        help: "Flash mode: off, on or auto.",
        transform: { text in
            guard let mode = FlashMode(rawValue: text) else {
                throw ValidationError("flash mode must be off, on or auto")
            }
            return mode
        })
    var flash: FlashMode = .off

    @Option(help: "A preview (thumbnail) fitting this box, e.g. 160x160.")
    var preview: String?

    @Option(name: .customLong("color-space"), help: "The camera's colour space: srgb or p3 (Display P3).")
    var colorSpace: CaptureColorSpaceArgument = .srgb

    @Flag(name: .customLong("p3"), help: "Short for --color-space p3.")
    var p3 = false

    @Flag(
        name: .customLong("high-resolution"), help: "Full-resolution processed photos (the format's high resolution).")
    var highResolution = false

    @Option(parsing: .unconditional, help: "How many requests to make.")
    var count = 1

    @Option(help: "A smaller simulated sensor, e.g. 1008x756 (default: 4032x3024).")
    var sensor: String?

    @Flag(help: "Live Photos: a movie of about 1.5 s before and after each still, written beside it.")
    var live = false

    @Flag(help: "With --live: no microphone, so the movie has no sound.")
    var noMicrophone = false

    @Flag(help: "With --live: keep a shoe shot (no auto-trimming).")
    var noAutoTrim = false

    @Flag(help: "With --live: no movie stabilisation.")
    var noStabilization = false

    @Option(help: "With --live: the movie's video codec, h264 (as an iPhone 6s-7), hevc (iPhone 8 and later) or mjpeg.")
    var liveCodec: VideoCodecArgument?

    @Flag(help: "Print a JSON report on standard output instead of the timeline (see above for its keys).")
    var json = false

    @OptionGroup var overwriteOptions: OverwriteOptions

    func validate() throws {
        guard (1...1000).contains(count) else { throw ValidationError("--count must be 1...1000") }
        if raw && rawPlus != nil { throw ValidationError("use --raw or --raw-plus, not both") }
        if shakeSeed != nil && !handheld && !parallax {
            throw ValidationError("--shake-seed needs --handheld or --parallax")
        }
        if bracket != nil && bracketManual != nil {
            throw ValidationError("use --bracket or --bracket-manual, not both")
        }
        _ = try brackets()
        _ = try previewBox()
        _ = try sensorModel()
        if live && (raw || bracket != nil || bracketManual != nil) {
            throw ValidationError("--live needs a processed photo: not with --raw or a bracket")
        }
        if device != nil && (live || bracket != nil || bracketManual != nil) {
            throw ValidationError("--device takes single photos: not with --live or a bracket")
        }
        if !live && (noMicrophone || noAutoTrim || noStabilization || liveCodec != nil) {
            throw ValidationError("--no-microphone, --no-auto-trim, --no-stabilization and --live-codec go with --live")
        }
    }

    func brackets() throws -> [BracketedExposure]? {
        if let bracket {
            return try bracket.split(separator: ",").map { item in
                guard let ev = Float(item.trimmingCharacters(in: .whitespaces)) else {
                    throw ValidationError("--bracket: '\(item)' is not a number of EV (example: -2,0,2)")
                }
                return .auto(bias: ev)
            }
        }
        if let bracketManual {
            return try bracketManual.split(separator: ",").map { item in
                let parts = item.split(separator: "@")
                let time = parts.first?.split(separator: "/") ?? []
                guard parts.count == 2, let iso = Float(parts[1]), (1...2).contains(time.count),
                    let num = Int64(time[0]), let den = time.count == 2 ? Int32(time[1]) : 1, num > 0, den > 0
                else {
                    throw ValidationError("--bracket-manual: '\(item)' is not duration@ISO (example: 1/1000@100)")
                }
                return .manual(duration: MediaTime(value: num, timescale: den), iso: iso)
            }
        }
        return nil
    }

    func previewBox() throws -> PixelDimensions? {
        guard let preview else { return nil }
        let p = preview.lowercased().split(separator: "x").compactMap { Int($0) }
        guard p.count == 2, p[0] > 0, p[1] > 0 else {
            throw ValidationError("--preview must be WIDTHxHEIGHT, e.g. 160x160")
        }
        return PixelDimensions(width: p[0], height: p[1])
    }

    func sensorModel() throws -> SensorModel {
        var model = SensorModel.phone12MP
        guard let sensor else { return model }
        let p = sensor.lowercased().split(separator: "x").compactMap { Int($0) }
        guard p.count == 2, p[0] >= 64, p[1] >= 48, p[0] % 2 == 0, p[1] % 2 == 0, p[0] <= 8192, p[1] <= 8192 else {
            throw ValidationError("--sensor must be WIDTHxHEIGHT with even sides, 64x48...8192x8192")
        }
        model.pixelPitch = model.sensorWidth / Double(p[0])
        model.width = p[0]
        model.height = p[1]
        return model
    }

    func makeSettings(_ output: PhotoOutput) throws -> PhotoSettings {
        let rawFormat = output.availableRawPhotoPixelFormatTypes.first
        var settings: PhotoSettings
        if let items = try brackets() {
            let processed: ProcessedPhotoFormat? = raw ? nil : (rawPlus ?? format).value
            settings = PhotoSettings(
                bracket: items, processedFormat: processed, rawPixelFormat: (raw || rawPlus != nil) ? rawFormat : nil)
        } else if raw || rawPlus != nil {
            guard let rawFormat else { throw CLIError("RAW needs the photo preset (--preset photo)") }
            settings = PhotoSettings(rawPixelFormat: rawFormat, processedFormat: rawPlus?.value)
        } else {
            settings = PhotoSettings(format: format.value)
        }
        settings.flashMode = flash
        settings.qualityPrioritization = prioritization.value
        settings.isHighResolutionPhotoEnabled = highResolution
        if let box = try previewBox() { settings.previewFormat = PreviewFormat(pixelFormat: .bgra8, dimensions: box) }
        return settings
    }

    func run() async throws {
        if let device {
            try await runOnDevice(device)
            return
        }
        var sceneValue: Scene
        sceneValue = try SceneArgument.scene(scene)
        if let lux { sceneValue.light.illuminance = lux }
        if handheld { sceneValue.cameraMotion = .handheld }
        if parallax { sceneValue.cameraMotion = .handheldWithParallax }
        if let shakeSeed { sceneValue.cameraMotion.seed = shakeSeed }
        let folder = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        let camera = SimulatedCamera(scene: sceneValue, configuration: .init(sensor: try sensorModel()))
        let session = CaptureSession()
        let photoOutput = PhotoOutput()
        photoOutput.isHighResolutionCaptureEnabled = highResolution
        photoOutput.maxPhotoQualityPrioritization = .quality
        do {
            session.beginConfiguration()
            try session.setSessionPreset(preset)
            try session.addInput(DeviceInput(camera: camera))
            try session.addOutput(photoOutput)
            if live && !noMicrophone {
                try session.addInput(
                    DeviceInput(microphone: SimulatedMicrophone(source: sceneValue.sound, sampleRate: 44_100)))
            }
            session.automaticallyConfiguresCaptureDeviceForWideColor = false
            try session.commitConfiguration()
            try camera.setActiveColorSpace(colorSpace == .p3 || p3 ? .displayP3 : .sRGB)
            try await session.startRunning()
            if live {
                try photoOutput.setLivePhotoCaptureEnabled(true)
                photoOutput.isLivePhotoAutoTrimmingEnabled = !noAutoTrim
                photoOutput.isLivePhotoStabilizationEnabled = !noStabilization
            }
        } catch {
            throw CLIError("cannot start the capture session: \(error)")
        }
        let format = camera.activeFormat
        var report = CaptureReport(
            camera: camera.localizedName, format: "\(format)", colorSpace: camera.activeColorSpace.rawValue,
            scene: sceneValue.name, light: "\(sceneValue.light)", requests: [])
        say(
            "camera: \(camera.localizedName), \(format), \(camera.activeColorSpace.rawValue); scene \(sceneValue.name), \(sceneValue.light)"
        )
        do { for line in try await manual.apply(to: camera) { say(line) } } catch {
            throw CLIError("cannot set the manual controls: \(error)")
        }
        for n in 0..<count {
            let settings: PhotoSettings
            let stream: AsyncThrowingStream<PhotoCaptureEvent, any Error>
            let start = ContinuousClock.now
            do {
                var s = try makeSettings(photoOutput)
                if live {
                    s.livePhotoMovieURL = folder.appendingPathComponent("IMG_\(s.uniqueID).mov")
                    try overwriteOptions.check(s.livePhotoMovieURL!.path)
                    s.livePhotoMovieMetadata = [
                        LivePhotoMetadataItem(key: LivePhotoMetadataItem.author, value: "lux capture")
                    ]
                    s.livePhotoVideoCodec = (liveCodec ?? .h264).codec
                }
                settings = s
                stream = try photoOutput.capturePhoto(settings)
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError("cannot capture: \(error)")
            }
            var request: CaptureReport.Request?
            var events: [CaptureReport.Event] = []
            var photos: [CaptureReport.Photo] = []
            var movie: CaptureReport.Movie?
            do {
                for try await event in stream {
                    let ms = Self.milliseconds(ContinuousClock.now - start)
                    events.append(CaptureReport.Event(name: event.name, milliseconds: ms))
                    let t = String(format: "%8.1f ms", ms)
                    switch event {
                    case .willBeginCapture(let r):
                        request = Self.request(r)
                        say("request \(n + 1): \(r)")
                        say("  \(t)  willBeginCapture")
                    case .didFinishProcessingPhoto(let photo):
                        // A Live Photo's still has the movie's base name.
                        let name =
                            live
                            ? "IMG_\(settings.uniqueID).\(photo.fileExtension)"
                            : "IMG_\(settings.uniqueID)_\(photo.photoCount).\(photo.fileExtension)"
                        let url = folder.appendingPathComponent(name)
                        try overwriteOptions.check(url.path)
                        let bytes = try photo.fileDataRepresentation()
                        try Data(bytes).write(to: url, options: .atomic)
                        photos.append(
                            .init(
                                file: url.path, bytes: bytes.count, isRaw: photo.isRawPhoto,
                                photoCount: photo.photoCount))
                        say("  \(t)  didFinishProcessingPhoto  \(photo) → \(url.path) (\(bytes.count / 1024) KB)")
                    case .didFinishRecordingLivePhotoMovie(_, let url):
                        say("  \(t)  didFinishRecordingLivePhotoMovie  → \(url.lastPathComponent)")
                    case .didFinishProcessingLivePhotoMovie(_, let url, let duration, let photoTime):
                        movie = .init(file: url.path, duration: duration.seconds, photoTime: photoTime.seconds)
                        say(
                            "  \(t)  didFinishProcessingLivePhotoMovie  \(url.path), "
                                + String(format: "%.3f s, photo at %.3f s", duration.seconds, photoTime.seconds))
                    case .didFinishCapture(let r):
                        let lo = Self.milliseconds(r.photoProcessingTimeRange.lowerBound)
                        let hi = Self.milliseconds(r.photoProcessingTimeRange.upperBound)
                        say("  \(t)  didFinishCapture (expected \(String(format: "%.0f–%.0f", lo, hi)) ms)")
                    default:
                        say("  \(t)  \(event.name)")
                    }
                }
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError("capture failed: \(error)")
            }
            if var request {
                request.events = events
                request.photos = photos
                request.livePhotoMovie = movie
                report.requests.append(request)
            }
        }
        if json { try JSONOutput.print(report) }
        await session.stopRunning()
    }

    /// Prints a line of the text output (nothing with --json).
    func say(_ line: String) {
        if !json { print(line) }
    }

    /// The report entry for a request, before its events.
    static func request(_ r: ResolvedPhotoSettings) -> CaptureReport.Request {
        CaptureReport.Request(
            uniqueID: r.uniqueID, photoWidth: r.photoDimensions.width, photoHeight: r.photoDimensions.height,
            rawPhotoWidth: r.rawPhotoDimensions.width, rawPhotoHeight: r.rawPhotoDimensions.height,
            expectedPhotoCount: r.expectedPhotoCount,
            qualityPrioritization: QualityArgument(r.qualityPrioritization).rawValue,
            processing: "\(r.processing)", isFlashEnabled: r.isFlashEnabled,
            expectedMilliseconds: [
                milliseconds(r.photoProcessingTimeRange.lowerBound),
                milliseconds(r.photoProcessingTimeRange.upperBound),
            ],
            events: [], photos: [], livePhotoMovie: nil)
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
}

/// A processed photo format named on the command line.
enum ProcessedFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case jpeg, heic, bgra
    case f420 = "420f"
    case v420 = "420v"

    var value: ProcessedPhotoFormat {
        switch self {
        case .jpeg: .jpeg
        case .heic: .hevc
        case .bgra: .pixelFormat(.bgra8)
        case .f420: .pixelFormat(.yCbCr420FullRange)
        case .v420: .pixelFormat(.yCbCr420VideoRange)
        }
    }
}

/// A quality prioritization named on the command line.
enum QualityArgument: String, ExpressibleByArgument, CaseIterable {
    case speed, balanced, quality

    var value: QualityPrioritization {
        switch self {
        case .speed: .speed
        case .balanced: .balanced
        case .quality: .quality
        }
    }

    init(_ value: QualityPrioritization) {
        switch value {
        case .speed: self = .speed
        case .balanced: self = .balanced
        case .quality: self = .quality
        }
    }
}

/// The camera colour space named on the command line.
enum CaptureColorSpaceArgument: String, ExpressibleByArgument, CaseIterable {
    case srgb, p3
}
