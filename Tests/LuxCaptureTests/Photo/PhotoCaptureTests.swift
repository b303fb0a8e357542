import Foundation
import LuxCodecs
import LuxPixels
import LuxScene
import LuxTestSupport
import Synchronization
import Testing

@testable import LuxCapture

@Suite struct PhotoCaptureTests {
    @Test("Events come once each, in the documented order, all with the same resolved settings")
    func eventOrder() async throws {
        let rig = try await CaptureRig.make()
        let settings = PhotoSettings()
        let events = try await collect(try rig.photo.capturePhoto(settings))
        #expect(isDocumentedOrder(events.names, photos: 1), "\(events.names)")
        #expect(Set(events.map(\.resolvedSettings)).count == 1)
        #expect(events[0].resolvedSettings.uniqueID == settings.uniqueID)
        #expect(events[0].resolvedSettings.expectedPhotoCount == 1)
    }

    @Test("RAW + JPEG delivers two photos (processed, then RAW) sharing one exposure")
    func rawPlusJPEG() async throws {
        let rig = try await CaptureRig.make()
        let s = PhotoSettings(rawPixelFormat: .bayer14(.rggb), processedFormat: .jpeg)
        #expect(s.expectedPhotoCount == 2)
        let events = try await collect(try rig.photo.capturePhoto(s))
        #expect(isDocumentedOrder(events.names, photos: 2))
        let photos = events.photos
        #expect(!photos[0].isRawPhoto && photos[1].isRawPhoto)
        #expect(photos.map(\.photoCount) == [1, 2])
        #expect(photos[0].timestamp == photos[1].timestamp)
        let r = events[0].resolvedSettings
        #expect(r.rawPhotoDimensions == PixelDimensions(width: 320, height: 240))
        #expect(!r.isStillImageStabilizationEnabled && r.processing.method == .singleFrame)
        #expect(photos[1].rawBuffer?.format == .bayer14(.rggb))
    }

    @Test(
        "The JPEG carries EXIF and the colour space's ICC profile (exiftool), and decodes to the delivered pixels",
        .needs("exiftool"))
    func jpegFile() async throws {
        let rig = try await CaptureRig.make()
        #expect(rig.camera.activeColorSpace == .displayP3)
        let photo = try #require(try await collect(try rig.photo.capturePhoto(PhotoSettings())).photos.first)
        let bytes = try photo.fileDataRepresentation()
        #expect(bytes.starts(with: [0xFF, 0xD8]))
        let decoded = try ImageFile.read(data: bytes)
        #expect(decoded.pixels.width == 240 && decoded.pixels.height == 180)
        #expect(decoded.metadata.exif.isoSpeed == Int(photo.metadata.isoSpeed ?? -1))
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("p.jpg")
        try Data(bytes).write(to: url)
        let run = try ExternalTool.capture(
            "exiftool",
            [
                "-s", "-s", "-s", "-Make", "-ProfileDescription", "-ISO", "-ExposureTime", "-FNumber", "-ImageWidth",
                url.path,
            ])
        let lines = run.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(run.text)")
        #expect(lines[0] == "Lux")
        #expect(lines[1] == "Display P3")
        #expect(Int(lines[2]) == photo.metadata.isoSpeed)
        #expect(lines[4] == "1.8")
        #expect(lines[5] == "240")
    }

    @Test("sRGB sessions write the sRGB profile; uncompressed formats deliver their pixel format")
    func srgbAndPixelFormats() async throws {
        let rig = try await CaptureRig.make(extraOutputs: [MovieFileOutput()])
        #expect(rig.camera.activeColorSpace == .sRGB)
        let jpeg = try #require(try await collect(try rig.photo.capturePhoto(PhotoSettings())).photos.first)
        #expect(jpeg.colorSpace == .sRGB)
        let decoded = try ImageFile.read(data: try jpeg.fileDataRepresentation())
        #expect(decoded.pixels.colorSpace?.isColorimetricallyEqual(to: .sRGB) == true)
        for pf in [PixelFormat.bgra8, .yCbCr420FullRange] {
            let p = try #require(
                try await collect(try rig.photo.capturePhoto(PhotoSettings(format: .pixelFormat(pf)))).photos.first)
            #expect(p.pixelBuffer?.format == pf)
            #expect(p.fileExtension == "tiff")
            let tiff = try ImageFile.read(data: try p.fileDataRepresentation())
            #expect(tiff.pixels.width == 240)
        }
    }

    @Test(
        "RAW photos write a DNG with the preview embedded and an 8-photosite margin outside the default crop, as cameras do; dcraw reads back the delivered mosaic inside it",
        .needs("dcraw"))
    func dngFile() async throws {
        let rig = try await CaptureRig.make()
        var s = PhotoSettings(rawPixelFormat: .bayer14(.rggb))
        s.previewFormat = PreviewFormat(width: 160, height: 160)
        let events = try await collect(try rig.photo.capturePhoto(s))
        let photo = try #require(events.photos.first)
        #expect(photo.isRawPhoto && photo.fileExtension == "dng")
        #expect(events[0].resolvedSettings.previewDimensions == PixelDimensions(width: 160, height: 120))
        let preview = try #require(photo.previewPixelBuffer)
        #expect(preview.width == 160 && preview.height == 120 && preview.format == .bgra8)
        let bytes = try photo.fileDataRepresentation()
        let file = try DNG.decode(bytes)
        let raw = try #require(file.rawImage)
        // The 320 × 240 picture inside 8 more photosites on each side.
        #expect(raw.pixels.width == 336 && raw.pixels.height == 256)
        #expect(raw.properties.activeArea == RawArea(top: 0, left: 0, bottom: 256, right: 336))
        #expect(raw.properties.defaultCrop == DefaultCrop(x: 8, y: 8, width: 320, height: 240))
        #expect(raw.properties.previews.contains { $0.width == 160 && $0.height == 120 })
        #expect(raw.properties.color.asShotNeutral != nil && raw.properties.noiseProfile != nil)
        let delivered = try #require(photo.rawBuffer).components(as: UInt16.self)
        let stored = raw.pixels.components(as: UInt16.self)
        let inside = (8..<248).flatMap { y in stored[(y * 336 + 8)..<(y * 336 + 328)] }
        #expect(inside == delivered)
        // The margin mirrors the picture's edge photosites (column 8 − k holds column 8 + k, row 247 + k row
        // 247 − k), so every photosite keeps its colour.
        func sample(_ x: Int, _ y: Int) -> UInt16 { stored[y * 336 + x] }
        let leftMirrored = (0..<256).allSatisfy { (y: Int) -> Bool in
            (1...8).allSatisfy { (k: Int) -> Bool in sample(8 - k, y) == sample(8 + k, y) }
        }
        let bottomMirrored = (1...8).allSatisfy { (k: Int) -> Bool in sample(100, 247 + k) == sample(100, 247 - k) }
        #expect(leftMirrored && bottomMirrored)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("p.dng")
        try Data(bytes).write(to: url)
        let run = try ExternalTool.capture("dcraw", ["-D", "-4", "-c", url.path])
        #expect(run.status == 0, "\(run.errorText)")
        let pgm = try NetpbmImage(run.stdout)
        #expect(pgm.width == 336 && pgm.height == 256)
        #expect(pgm.samples == stored)
    }

    @Test("Auto-exposure bracket: one photo per item in order, each with its bracket settings and sequence number")
    func autoBracket() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        let s = PhotoSettings(
            bracket: [.auto(bias: -2), .auto(bias: 0), .auto(bias: 2)], processedFormat: .jpeg,
            rawPixelFormat: .bayer14(.rggb))
        let events = try await collect(try rig.photo.capturePhoto(s))
        let photos = events.photos
        #expect(isDocumentedOrder(events.names, photos: 6))
        #expect(photos.map(\.sequenceCount) == [1, 1, 2, 2, 3, 3])
        #expect(photos.map(\.isRawPhoto) == [false, true, false, true, false, true])
        #expect(
            photos.map(\.bracketSettings) == [
                .auto(bias: -2), .auto(bias: -2), .auto(bias: 0), .auto(bias: 0), .auto(bias: 2), .auto(bias: 2),
            ])
        // All processed photos share one format and size.
        let processed = photos.filter { !$0.isRawPhoto }
        #expect(Set(processed.map { "\($0.pixelBuffer!.format) \($0.pixelBuffer!.width)" }).count == 1)
        // Exposures two stops apart: the linear signal of the grey card scales by 4 per item (raw means).
        let means = photos.filter(\.isRawPhoto).map { rig.camera.centreMeans($0.rawBuffer!).y }
        #expect(abs(means[1] / means[0] - 4) < 0.4 && abs(means[2] / means[1] - 4) < 0.6, "\(means)")
    }

    @Test("Manual bracket exposures override the device's custom exposure, which is restored afterwards")
    func manualBracketRestores() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        try await rig.camera.setExposureModeCustom(
            duration: .value(MediaTime(value: 1, timescale: 50)), iso: .value(200))
        try await rig.camera.setExposureTargetBias(0.5)
        let before = rig.camera.status
        let s = PhotoSettings(
            bracket: [
                .manual(duration: MediaTime(value: 1, timescale: 1000), iso: 100),
                .manual(duration: MediaTime(value: 1, timescale: 250), iso: 400),
            ],
            processedFormat: nil, rawPixelFormat: .bayer14(.rggb))
        let photos = try await collect(try rig.photo.capturePhoto(s)).photos
        #expect(photos.map { $0.metadata.isoSpeed } == [100, 400])
        #expect(photos.map { $0.metadata.exposureTime?.doubleValue ?? 0 }.map { ($0 * 1e6).rounded() } == [1000, 4000])
        let after = rig.camera.status
        #expect(after.exposureMode == before.exposureMode && after.exposureDuration == before.exposureDuration)
        #expect(after.iso == before.iso && after.exposureTargetBias == before.exposureTargetBias)
        #expect(after.whiteBalanceMode == before.whiteBalanceMode && after.focusMode == before.focusMode)
    }

    @Test("Flash and stabilisation are ignored during brackets")
    func bracketIgnoresFlash() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        var s = PhotoSettings(bracket: [.auto(bias: 0), .auto(bias: 1)])
        s.flashMode = .on
        s.isAutoStillImageStabilizationEnabled = true
        let events = try await collect(try rig.photo.capturePhoto(s))
        let r = events[0].resolvedSettings
        #expect(!r.isFlashEnabled && !r.isStillImageStabilizationEnabled && r.processing.method == .bracket)
        #expect(events.photos.allSatisfy { $0.metadata.flash?.fired == false })
    }

    @Test("Flash: on fires, auto fires only in a dark scene, off never; EXIF records it")
    func flash() async throws {
        let dark = try await CaptureRig.make(scene: .lowLight())
        let bright = try await CaptureRig.make(scene: .stillLife())
        func fired(_ rig: CaptureRig, _ mode: FlashMode) async throws -> Bool {
            var s = PhotoSettings()
            s.flashMode = mode
            let events = try await collect(try rig.photo.capturePhoto(s))
            let photo = try #require(events.photos.first)
            #expect(photo.metadata.flash?.fired == events[0].resolvedSettings.isFlashEnabled)
            return events[0].resolvedSettings.isFlashEnabled
        }
        #expect(try await fired(dark, .auto))
        #expect(try await !fired(bright, .auto))
        #expect(try await fired(bright, .on))
        #expect(try await !fired(dark, .off))
    }

    @Test("Previews: the output chooses a size when none is given, else fits the box")
    func previews() async throws {
        let rig = try await CaptureRig.make()
        var s = PhotoSettings()
        s.previewFormat = PreviewFormat(pixelFormat: .rgba8)
        let auto = try #require(try await collect(try rig.photo.capturePhoto(s)).photos.first?.previewPixelBuffer)
        #expect(auto.width == 240 && auto.height == 180 && auto.format == .rgba8)  // the photo fits 512 × 512
        var t = PhotoSettings()
        t.previewFormat = PreviewFormat(width: 64, height: 64)
        let boxed = try #require(try await collect(try rig.photo.capturePhoto(t)).photos.first?.previewPixelBuffer)
        #expect(boxed.width == 64 && boxed.height == 48)
    }

    @Test("The output keeps only a weak reference to its delegate; a retained delegate gets every event")
    func weakDelegate() async throws {
        let rig = try await CaptureRig.make()
        let kept = RecordingDelegate()
        try rig.photo.capturePhoto(PhotoSettings(), delegate: kept)
        let names = await kept.finished()
        #expect(isDocumentedOrder(names, photos: 1), "\(names)")

        weak var released: RecordingDelegate?
        do {
            let d = RecordingDelegate()
            released = d
            try rig.photo.capturePhoto(PhotoSettings(), delegate: d)
        }
        #expect(released == nil)
        while rig.photo.pendingCaptureCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test(
        "Capturing 200 requests of mixed settings at once: unique IDs, ordered events, no lost photo, pools drained",
        .tags(.long), .longRunning)
    func stress() async throws {
        let rig = try await CaptureRig.make(sensor: .small(width: 96, height: 72))
        rig.photo.maxPhotoQualityPrioritization = .quality
        var all: [PhotoSettings] = []
        for i in 0..<200 {
            var s: PhotoSettings
            switch i % 5 {
            case 0: s = PhotoSettings()
            case 1: s = PhotoSettings(rawPixelFormat: .bayer14(.rggb), processedFormat: .jpeg)
            case 2: s = PhotoSettings(bracket: [.auto(bias: -1), .auto(bias: 1)])
            case 3: s = PhotoSettings(format: .pixelFormat(.bgra8))
            default: s = PhotoSettings(rawPixelFormat: .bayer14(.rggb))
            }
            s.qualityPrioritization = [.speed, .balanced, .speed, .balanced, .speed, .quality][i % 6]
            if i % 7 == 0 { s.previewFormat = PreviewFormat(width: 32, height: 32) }
            all.append(s)
        }
        let streams = try all.map { try rig.photo.capturePhoto($0) }
        var results = try await withThrowingTaskGroup(of: (Int, [PhotoCaptureEvent]).self) { group in
            for (i, stream) in streams.enumerated() { group.addTask { (i, try await collect(stream)) } }
            var out: [Int: [PhotoCaptureEvent]] = [:]
            for try await (i, e) in group { out[i] = e }
            return out
        }
        #expect(Set(all.map(\.uniqueID)).count == 200)
        for (i, s) in all.enumerated() {
            let events = try #require(results[i])
            #expect(isDocumentedOrder(events.names, photos: s.expectedPhotoCount), "\(i): \(events.names)")
            #expect(events.allSatisfy { $0.resolvedSettings.uniqueID == s.uniqueID })
            #expect(events.photos.count == s.expectedPhotoCount)
        }
        #expect(rig.photo.pendingCaptureCount == 0)
        results.removeAll()  // the delivered photos hold pool buffers until they go
        #expect(rig.photo.pool.outstandingCount == 0)
        await rig.session.stopRunning()
        #expect(rig.camera.pool.outstandingCount == 0)
    }
}

/// Records event names; `finished()` waits for didFinishCapture.
final class RecordingDelegate: PhotoCaptureDelegate {
    struct State {
        var names: [String] = []
        var waiter: CheckedContinuation<[String], Never>?
    }

    let state = Mutex(State())

    func photoOutput(_ output: PhotoOutput, willBeginCaptureFor settings: ResolvedPhotoSettings) {
        add("willBeginCapture")
    }
    func photoOutput(_ output: PhotoOutput, willCapturePhotoFor settings: ResolvedPhotoSettings) {
        add("willCapturePhoto")
    }
    func photoOutput(_ output: PhotoOutput, didCapturePhotoFor settings: ResolvedPhotoSettings) {
        add("didCapturePhoto")
    }
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturedPhoto) {
        add("didFinishProcessingPhoto")
    }
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor settings: ResolvedPhotoSettings?, error: CaptureError?)
    {
        add("didFinishCapture")
    }

    func add(_ n: String) {
        let (waiter, names) = state.withLock { s -> (CheckedContinuation<[String], Never>?, [String]) in
            s.names.append(n)
            guard n == "didFinishCapture" else { return (nil, []) }
            defer { s.waiter = nil }
            return (s.waiter, s.names)
        }
        waiter?.resume(returning: names)
    }

    func finished() async -> [String] {
        await withCheckedContinuation { c in
            let ready = state.withLock { s -> [String]? in
                if s.names.last == "didFinishCapture" { return s.names }
                s.waiter = c
                return nil
            }
            if let ready { c.resume(returning: ready) }
        }
    }
}
