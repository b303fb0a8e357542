import Foundation
import LuxCapture
import LuxCodecs
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import LuxScene
import Synchronization

/// The studio's camera: one capture session shared by every browser, its viewfinder fanned out to the viewers, its
/// commands run one at a time.
///
/// It streams from the simulated camera unless a browser chooses a V4L2 camera of the machine
/// (``CameraCommand/device(path:)``); the manual controls then go to that camera, within its own ranges.
///
/// Commands from several browsers are serialised: each waits its turn, so a capture and a control change never
/// interleave. The viewfinder is pulled from the session's video output only while someone watches; each frame is
/// resized to the viewfinder size and compressed to JPEG once for every viewer, and a slow viewer gets the newest
/// frame rather than a queue. Photos are written with a temporary file and a rename, so stopping never leaves a
/// partial file. The simulated camera itself (its scene and sensor are costly to prepare) is created on first use:
/// the first control request, viewer or command, not when the server starts.
actor StudioCamera {
    private let initialScene: Scene
    private let sensor: SensorModel
    private let simulated = Mutex<SimulatedCamera?>(nil)
    /// The V4L2 camera streaming in place of the simulated one, with its node (`nil`: the simulated camera).
    private let chosen = Mutex<(path: String, camera: any CaptureDevice)?>(nil)
    nonisolated let session = CaptureSession()
    let photoOutput = PhotoOutput()
    let videoOutput = VideoDataOutput()
    let folder: URL
    let viewfinderSize: (width: Int, height: Int)
    private let render = RenderContext(options: RenderOptions(cacheIntermediates: false))

    private var viewers: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
    private var nextViewer = 0
    private var pump: Task<Void, Never>?
    private let turns = TurnLock()
    private var isStopped = false
    private var isStarted = false

    /// Creates the camera on a built-in scene; photos go to `folder`.
    init(scene: String, sensor: SensorModel, folder: URL, viewfinderSize: (width: Int, height: Int))
        throws(StudioError)
    {
        do {
            initialScene = try Scene.named(scene)
        } catch {
            throw .camera("\(error)")
        }
        self.sensor = sensor
        self.folder = folder
        self.viewfinderSize = viewfinderSize
    }

    /// The simulated camera, created the first time it is asked for.
    nonisolated var camera: SimulatedCamera {
        simulated.withLock { camera in
            if let camera { return camera }
            let created = SimulatedCamera(scene: initialScene, configuration: .init(sensor: sensor))
            camera = created
            return created
        }
    }

    /// The camera the session streams from: the chosen V4L2 camera, or the simulated one.
    nonisolated var device: any CaptureDevice { chosen.withLock { $0?.camera } ?? camera }

    /// The node of the chosen V4L2 camera (`nil`: the simulated camera).
    nonisolated var devicePath: String? { chosen.withLock { $0?.path } }

    /// The V4L2 cameras of this machine and the video nodes that cannot be used, for the browser's camera choice.
    static func cameraList() -> [String: Any] {
        let found = CaptureDeviceDiscoverySession(mediaTypes: [.video], includesSimulatedDevices: false).devices()
        return [
            "cameras": found.cameras.map { camera -> [String: Any] in
                [
                    "path": camera.path ?? "", "name": camera.localizedName, "driver": camera.driverName ?? "",
                    "formats": camera.formats.map { "\($0)" },
                ]
            },
            "unusable": found.unusableNodes.map { ["path": $0.path, "reason": "\($0.reason)"] },
        ]
    }

    /// Makes the session stream from the V4L2 camera at `path` (one the discovery lists), or from the simulated
    /// camera for `nil`; a running session is stopped and started again around the change.
    private func use(_ path: String?) async throws(StudioError) {
        guard path != devicePath else { return }
        let next: any CaptureDevice
        if let path {
            let listed = CaptureDeviceDiscoverySession(mediaTypes: [.video], includesSimulatedDevices: false)
                .devices().cameras.compactMap(\.path)
            guard listed.contains(path) else {
                throw .camera("\(path): not a V4L2 camera of this machine (the cameras: \(listed))")
            }
            do { next = try V4L2Camera(path: path) } catch { throw .camera("\(path): \(error)") }
        } else {
            next = camera
        }
        let running = session.isRunning
        if running { await session.stopRunning() }
        session.beginConfiguration()
        for input in session.inputs { session.removeInput(input) }
        do {
            try session.addInput(DeviceInput(camera: next))
            try session.commitConfiguration()
        } catch {
            throw .camera("cannot stream from \(path ?? "the simulated camera"): \(error)")
        }
        chosen.withLock { $0 = path.map { ($0, next) } }
        if running {
            do { try await session.startRunning() } catch {
                throw .camera("cannot start \(path ?? "the simulated camera"): \(error)")
            }
        }
    }

    /// Configures the session (camera → photo output + video output) and starts it, the first time only.
    func startIfNeeded() async throws(StudioError) {
        guard !isStarted else { return }
        isStarted = true
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            session.beginConfiguration()
            try session.setSessionPreset(.photo)
            try session.addInput(DeviceInput(camera: camera))
            try session.addOutput(photoOutput)
            try session.addOutput(videoOutput)
            try session.commitConfiguration()
            photoOutput.maxPhotoQualityPrioritization = .quality
            var monitoring = PhotoSettings()
            monitoring.flashMode = .auto
            monitoring.isAutoStillImageStabilizationEnabled = true
            photoOutput.photoSettingsForSceneMonitoring = monitoring
            try await session.startRunning()
        } catch {
            throw .camera("cannot start the capture session: \(error)")
        }
    }

    /// Starts the session if it is not running yet, in turn with the commands.
    func prepare() async throws(StudioError) {
        await turns.acquire()
        do {
            try await startIfNeeded()
        } catch {
            await turns.release()
            throw error
        }
        await turns.release()
    }

    /// Ends the viewfinder streams, waits for the command in progress and stops the session.
    func stop() async {
        isStopped = true
        pump?.cancel()
        pump = nil
        for viewer in viewers.values { viewer.finish() }
        viewers = [:]
        await turns.acquire()
        if isStarted { await session.stopRunning() }
        await turns.release()
    }

    // MARK: Viewfinder

    /// A stream of the viewfinder's JPEG frames for one viewer (the newest frame only, if the viewer lags).
    func subscribe() -> (id: Int, frames: AsyncStream<[UInt8]>) {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(1))
        guard !isStopped else {
            continuation.finish()
            return (-1, stream)
        }
        let id = nextViewer
        nextViewer += 1
        viewers[id] = continuation
        if pump == nil { startPump() }
        return (id, stream)
    }

    /// Ends a viewer's stream; the viewfinder stops when nobody watches.
    func unsubscribe(_ id: Int) {
        viewers.removeValue(forKey: id)?.finish()
        if viewers.isEmpty {
            pump?.cancel()
            pump = nil
        }
    }

    private func startPump() {
        let frames = videoOutput.frames
        let size = viewfinderSize
        let render = self.render
        pump = Task.detached { [weak self] in
            do {
                for try await frame in frames {
                    if Task.isCancelled { break }
                    guard let jpeg = try? Self.viewfinderJPEG(frame.pixelBuffer, size: size, render: render) else {
                        continue
                    }
                    await self?.broadcast(jpeg)
                }
            } catch {}
        }
    }

    private func broadcast(_ jpeg: [UInt8]) {
        for viewer in viewers.values { viewer.yield(jpeg) }
    }

    /// A frame resized to fit `size` (aspect kept) and compressed to an sRGB JPEG.
    static func viewfinderJPEG(_ pixels: PixelBuffer, size: (width: Int, height: Int), render: RenderContext) throws
        -> [UInt8]
    {
        let fitted = Image.sizeToFit(width: pixels.width, height: pixels.height, inside: size)
        let image = Image(buffer: pixels, colorSpace: pixels.colorSpace ?? .sRGB).resized(to: fitted)
        let small = try render.createBuffer(image, format: .rgba8, colorSpace: .sRGB)
        var options = EncodingOptions.default
        options.quality = 0.75
        return try JPEG.encode(small, options: options)
    }

    // MARK: Commands

    /// Runs a command in its turn; `report` receives the JSON messages it produces (a capture's events and files).
    func perform(_ command: CameraCommand, report: @escaping @Sendable (String) async -> Void) async throws(StudioError)
    {
        await turns.acquire()
        do {
            guard !isStopped else { throw StudioError.camera("the studio is stopping") }
            try await startIfNeeded()
            switch command {
            case .focus(let mode, let lensPosition):
                switch mode {
                case "locked":
                    try await device.setFocusModeLocked(lensPosition: lensPosition.map { .value($0) } ?? .current)
                case "autoFocus": try device.setFocusMode(.autoFocus)
                case "continuousAutoFocus": try device.setFocusMode(.continuousAutoFocus)
                default: throw StudioError.malformedMessage("unknown focus mode '\(mode)'")
                }
            case .exposure(let mode, let iso, let duration):
                switch mode {
                case "custom":
                    let d: ControlValue<MediaTime> =
                        try duration.map { seconds throws(StudioError) in
                            guard seconds > 0 else { throw .malformedMessage("'duration' must be positive") }
                            return .value(MediaTime(seconds: seconds, preferredTimescale: 1_000_000))
                        } ?? .current
                    try await device.setExposureModeCustom(duration: d, iso: iso.map { .value($0) } ?? .current)
                case "continuousAutoExposure": try device.setExposureMode(.continuousAutoExposure)
                case "locked": try device.setExposureMode(.locked)
                default: throw StudioError.malformedMessage("unknown exposure mode '\(mode)'")
                }
            case .bias(let value):
                try await device.setExposureTargetBias(value)
            case .whiteBalance(let mode, let temperature, let tint):
                switch mode {
                case "locked":
                    guard let temperature else { throw StudioError.malformedMessage("'temperature' is missing") }
                    try await device.setWhiteBalanceModeLocked(
                        temperatureAndTint: TemperatureAndTint(
                            temperature: Double(temperature), tint: Double(tint ?? 0)))
                case "grayWorld":
                    try await device.setWhiteBalanceModeLocked(gains: .value(device.status.grayWorldWhiteBalanceGains))
                case "continuousAutoWhiteBalance": try device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
                default: throw StudioError.malformedMessage("unknown white balance mode '\(mode)'")
                }
            case .scene(let name, let lux, let handheld):
                if let path = devicePath {
                    throw StudioError.camera(
                        "the scene belongs to the simulated camera; the studio streams from \(path)")
                }
                var scene = camera.scene
                if let name { scene = try Scene.named(name) }
                if let lux {
                    guard lux > 0, lux <= 200_000 else {
                        throw StudioError.malformedMessage("'lux' must be 0...200000")
                    }
                    scene.light.illuminance = lux
                }
                if let handheld { scene.cameraMotion = handheld ? .handheld : .tripod }
                camera.scene = scene
            case .livePhotoMode(let enabled):
                try photoOutput.setLivePhotoCaptureEnabled(enabled)
            case .capture(let kind, let prioritization, let bracket):
                try await capture(kind: kind, prioritization: prioritization, bracket: bracket, report: report)
            case .device(let path):
                try await use(path)
            }
        } catch let error as StudioError {
            await turns.release()
            throw error
        } catch {
            await turns.release()
            throw .camera("\(error)")
        }
        await turns.release()
    }

    private func settings(kind: String, prioritization: String?, bracket: [Float]?) throws(StudioError)
        -> PhotoSettings
    {
        let raw = photoOutput.availableRawPhotoPixelFormatTypes.first
        var settings: PhotoSettings
        switch kind {
        case "photo", "livePhoto": settings = PhotoSettings(format: .jpeg)
        case "raw", "rawPlusJPEG":
            guard let raw else { throw .camera("the active format has no RAW") }
            settings = PhotoSettings(rawPixelFormat: raw, processedFormat: kind == "raw" ? nil : .jpeg)
        case "bracket":
            settings = PhotoSettings(bracket: (bracket ?? [-2, 0, 2]).map { .auto(bias: $0) }, processedFormat: .jpeg)
        default: throw .malformedMessage("unknown capture kind '\(kind)'")
        }
        switch prioritization ?? "balanced" {
        case "speed": settings.qualityPrioritization = .speed
        case "balanced": settings.qualityPrioritization = .balanced
        case "quality": settings.qualityPrioritization = .quality
        case let other: throw .malformedMessage("unknown quality prioritization '\(other)'")
        }
        return settings
    }

    /// Takes a photo, RAW, RAW + JPEG, bracket or Live Photo and reports its events as they arrive.
    ///
    /// Each file is written under a hidden temporary name and linked to its visible one (``FolderWriting``): the
    /// names share a stem no file of the folder begins with (`IMG_<request>`, or `IMG_<request>-2` when an earlier
    /// session used it), and nothing is ever replaced. A Live Photo's still and movie both wait hidden until the
    /// movie is written, so a capture that fails in between leaves neither half. A capture whose browser leaves runs
    /// to its end and is saved whole: the photo output goes on writing the Live Photo's movie after the socket's task
    /// is cancelled, so the capture is followed in a task of its own (stopping to listen would delete the hidden
    /// files before the movie is finished and leave its partial file behind), and the next command waits for it.
    private func capture(
        kind: String, prioritization: String?, bracket: [Float]?, report: @escaping @Sendable (String) async -> Void
    ) async throws {
        var settings = try settings(kind: kind, prioritization: prioritization, bracket: bracket)
        let stem = FolderWriting.freeStem("IMG_\(settings.uniqueID)", in: folder)
        let hiddenMovie = folder.appendingPathComponent(".\(stem).mov.partial")
        if kind == "livePhoto" { settings.livePhotoMovieURL = hiddenMovie }
        let request = settings
        try await Task {
            try await self.follow(request, kind: kind, stem: stem, hiddenMovie: hiddenMovie, report: report)
        }.value
    }

    /// Takes the photo `settings` asks for and saves its files as their events arrive (see ``capture(kind:prioritization:bracket:report:)``).
    private func follow(
        _ settings: PhotoSettings, kind: String, stem: String, hiddenMovie: URL,
        report: @Sendable (String) async -> Void
    ) async throws {
        var hidden: [URL] = kind == "livePhoto" ? [hiddenMovie] : []
        defer { for url in hidden { try? FileManager.default.removeItem(at: url) } }
        let start = ContinuousClock.now
        let stream = try photoOutput.capturePhoto(settings)
        var files: [String] = []
        var heldStill: (hidden: URL, name: String)?
        for try await event in stream {
            let elapsed = ContinuousClock.now - start
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            var message: [String: Any] = ["type": "event", "request": settings.uniqueID, "name": event.name, "ms": ms]
            switch event {
            case .didFinishProcessingPhoto(let photo):
                let name =
                    kind == "livePhoto"
                    ? "\(stem).\(photo.fileExtension)" : "\(stem)_\(photo.photoCount).\(photo.fileExtension)"
                let temporary = folder.appendingPathComponent(".\(name).partial")
                hidden.append(temporary)
                try Data(try photo.fileDataRepresentation()).write(to: temporary)
                if kind == "livePhoto" {
                    heldStill = (temporary, name)
                    message["file"] = "0/" + name
                } else {
                    let saved = try FolderWriting.link(temporary, into: folder, as: name)
                    files.append(saved.lastPathComponent)
                    message["file"] = "0/" + saved.lastPathComponent
                }
                message["isRaw"] = photo.isRawPhoto
            case .didFinishProcessingLivePhotoMovie:
                guard let still = heldStill else {
                    throw StudioError.camera("a Live Photo movie came without its still")
                }
                // The still's name is kept whole (the pair shares its stem): a name taken meanwhile is an error,
                // never an overwrite.
                let movieName = stem + ".mov"
                guard
                    let movie = try FolderWriting.linkIfFree(hiddenMovie, to: folder.appendingPathComponent(movieName))
                else { throw StudioError.cannotSave(name: movieName, reason: "a file of that name appeared") }
                guard try FolderWriting.linkIfFree(still.hidden, to: folder.appendingPathComponent(still.name)) != nil
                else {
                    try? FileManager.default.removeItem(at: movie)
                    throw StudioError.cannotSave(name: still.name, reason: "a file of that name appeared")
                }
                heldStill = nil
                files += [still.name, movieName]
                message["file"] = "0/" + movieName
            default: break
            }
            await report(Self.json(message))
        }
        await report(Self.json(["type": "captured", "request": settings.uniqueID, "files": files.map { "0/" + $0 }]))
    }

    // MARK: Read-outs

    /// The control ranges of the active format, for the browser's sliders.
    nonisolated var ranges: [String: Any] {
        let f = device.activeFormat
        return [
            "iso": [Double(f.minISO), Double(f.maxISO)],
            "duration": [f.minExposureDuration.seconds, f.maxExposureDuration.seconds],
            "bias": [Double(f.exposureTargetBiasRange.lowerBound), Double(f.exposureTargetBiasRange.upperBound)],
            "lensPosition": [0.0, 1.0], "temperature": temperatureRange, "tint": [-150.0, 150.0],
            "maxWhiteBalanceGain": Double(f.maxWhiteBalanceGain), "format": "\(f)",
            "scenes": Scene.catalogNames, "scene": camera.scene.name,
            "livePhoto": photoOutput.isLivePhotoCaptureSupported, "device": devicePath ?? "simulated",
            "raw": !photoOutput.availableRawPhotoPixelFormatTypes.isEmpty,
        ]
    }

    /// The white-balance temperature slider's range: a V4L2 camera's white_balance_temperature control range, or
    /// 2500…10000 K.
    nonisolated var temperatureRange: [Double] {
        guard let v4l2 = device as? V4L2Camera, let c = v4l2.controls[.whiteBalanceTemperature] else {
            return [2500, 10000]
        }
        return [Double(c.minimum), Double(c.maximum)]
    }

    /// The temperature and tint the read-outs show for `gains`: the simulated camera's conversion of its gains
    /// (`simulated`); for a V4L2 camera the temperature its white_balance_temperature control reports
    /// (`reportedTemperature`) with tint 0 (V4L2 has no tint); otherwise nothing, shown as "—", since a V4L2
    /// camera's red and blue balance are in the device's own units, which no calibration converts to kelvin.
    nonisolated static func whiteBalanceReadout(
        gains: WhiteBalanceGains, simulated: SimulatedCamera?, reportedTemperature: Float?
    ) -> TemperatureAndTint? {
        if let simulated { return try? simulated.temperatureAndTint(for: gains) }
        return reportedTemperature.map { TemperatureAndTint(temperature: Double($0), tint: 0) }
    }

    /// The live read-outs: the controls' current values, the 3A flags and the scene-monitoring flags (a temperature
    /// and tint the camera cannot report are `null`).
    nonisolated var readouts: [String: Any] {
        let s = device.status
        let wb = Self.whiteBalanceReadout(
            gains: s.deviceWhiteBalanceGains, simulated: devicePath == nil ? camera : nil,
            reportedTemperature: (device as? V4L2Camera)?.whiteBalanceTemperature)
        return [
            "type": "status", "focusMode": s.focusMode.rawValue, "lensPosition": Double(s.lensPosition),
            "isAdjustingFocus": s.isAdjustingFocus, "exposureMode": s.exposureMode.rawValue,
            "duration": s.exposureDuration.seconds, "iso": Double(s.iso), "bias": Double(s.exposureTargetBias),
            "offset": Double(s.exposureTargetOffset), "isAdjustingExposure": s.isAdjustingExposure,
            "whiteBalanceMode": s.whiteBalanceMode.rawValue,
            "gains": [
                s.deviceWhiteBalanceGains.red, s.deviceWhiteBalanceGains.green,
                s.deviceWhiteBalanceGains.blue,
            ],
            "temperature": wb.map { $0.temperature as Any } ?? NSNull(), "tint": wb.map { $0.tint as Any } ?? NSNull(),
            "isAdjustingWhiteBalance": s.isAdjustingWhiteBalance, "isFlashScene": photoOutput.isFlashScene,
            "isStabilizationScene": photoOutput.isStillImageStabilizationScene, "frameCount": s.frameCount,
            "livePhotoMode": photoOutput.isLivePhotoCaptureEnabled,
        ]
    }

    /// A JSON object as text (keys sorted).
    static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
