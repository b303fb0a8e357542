import Foundation
import LuxPixels
import LuxScene
import Testing

@testable import LuxCapture

/// The rules of seeds 000, 001 and 003 that make a request throw (or resolve a certain way), one test each.
@Suite struct PhotoSettingsRuleTests {
    @Test("Unique IDs are 64-bit, increasing and never reused; from(_:) makes a fresh ID")
    func uniqueIDs() {
        let a = PhotoSettings()
        let b = PhotoSettings()
        #expect(b.uniqueID > a.uniqueID)
        let c = PhotoSettings(from: a)
        #expect(c.uniqueID != a.uniqueID && c.processedFormat == a.processedFormat)
        let ids = (0..<1000).map { _ in PhotoSettings().uniqueID }
        #expect(Set(ids).count == 1000)
    }

    @Test("Reusing settings (or a copy of them) throws settingsReused")
    func reuse() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        let settings = PhotoSettings()
        _ = try await collect(try rig.photo.capturePhoto(settings))
        var copy = settings
        copy.flashMode = .off
        #expect(throws: CaptureError.settingsReused(uniqueID: settings.uniqueID)) {
            _ = try rig.photo.capturePhoto(copy)
        }
        _ = try await collect(try rig.photo.capturePhoto(PhotoSettings(from: settings)))
    }

    @Test("Capturing needs a running session")
    func notRunning() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard(), start: false)
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(PhotoSettings()) }
        #expect(throws: CaptureError.self) { _ = try PhotoOutput().capturePhoto(PhotoSettings()) }
    }

    @Test("Quality prioritization defaults to balanced (settings and output); above the output's maximum throws")
    func qualityMaximum() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        #expect(PhotoSettings().qualityPrioritization == .balanced)
        #expect(rig.photo.maxPhotoQualityPrioritization == .balanced)
        var s = PhotoSettings()
        s.qualityPrioritization = .quality
        #expect(throws: CaptureError.qualityPrioritizationAboveMaximum(requested: .quality, maximum: .balanced)) {
            _ = try rig.photo.capturePhoto(s)
        }
        rig.photo.maxPhotoQualityPrioritization = .quality
        _ = try await collect(try rig.photo.capturePhoto(PhotoSettings(from: s)))
    }

    @Test("Capabilities of the photo format on the rear camera")
    func capabilities() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        // iOS 11 and later offer HEVC first, as AVCapturePhotoOutput does on devices with an HEVC encoder.
        #expect(rig.photo.availablePhotoCodecTypes == [.hevc, .jpeg])
        #expect(rig.photo.availablePhotoPixelFormatTypes == [.yCbCr420VideoRange, .yCbCr420FullRange, .bgra8])
        #expect(rig.photo.availableRawPhotoPixelFormatTypes == [.bayer14(.rggb)])
        #expect(rig.photo.supportedFlashModes == [.off, .on, .auto])
        #expect(rig.photo.maxBracketedCapturePhotoCount == 4)
        #expect(rig.photo.isLivePhotoCaptureSupported)
        #expect(!rig.photo.isHighResolutionCaptureEnabled)
    }

    @Test("RAW needs a photo format: a video preset offers no RAW format and RAW settings throw")
    func rawNeedsPhotoFormat() async throws {
        let rig = try await CaptureRig.make(
            scene: .grayCard(), start: false, format: CaptureRig.videoFormat(highQuality: true))
        #expect(rig.photo.availableRawPhotoPixelFormatTypes.isEmpty)
        try await rig.session.startRunning()
        let error = #expect(throws: CaptureError.self) {
            _ = try rig.photo.capturePhoto(PhotoSettings(rawPixelFormat: .bayer14(.rggb)))
        }
        #expect("\(error!)".contains("photo format"))
    }

    @Test("RAW is offered by the rear camera only")
    func rawRearOnly() async throws {
        let camera = SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small(), position: .front))
        let session = CaptureSession()
        let photo = PhotoOutput()
        try session.setSessionPreset(.photo)
        try session.addInput(DeviceInput(camera: camera))
        try session.addOutput(photo)
        try await session.startRunning()
        #expect(photo.availableRawPhotoPixelFormatTypes.isEmpty)
        let error = #expect(throws: CaptureError.self) {
            _ = try photo.capturePhoto(PhotoSettings(rawPixelFormat: .bayer14(.rggb)))
        }
        #expect("\(error!)".contains("rear camera"))
    }

    @Test("RAW settings start with stabilisation off; RAW (+ processed) with stabilisation throws")
    func rawAndStabilisation() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        let raw = PhotoSettings(rawPixelFormat: .bayer14(.rggb))
        #expect(!raw.isAutoStillImageStabilizationEnabled && !raw.isHighResolutionPhotoEnabled)
        #expect(PhotoSettings().isAutoStillImageStabilizationEnabled)
        var stabilised = PhotoSettings(rawPixelFormat: .bayer14(.rggb), processedFormat: .jpeg)
        stabilised.isAutoStillImageStabilizationEnabled = true
        let e = #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(stabilised) }
        #expect("\(e!)".contains("not supported"))
        var rawOnly = PhotoSettings(rawPixelFormat: .bayer14(.rggb))
        rawOnly.isAutoStillImageStabilizationEnabled = true
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(rawOnly) }
    }

    @Test("Formats not offered throw: a RAW layout, a pixel format, a preview format")
    func formatsOffered() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        #expect(throws: CaptureError.self) {
            _ = try rig.photo.capturePhoto(PhotoSettings(rawPixelFormat: .bayer14(.bggr)))
        }
        #expect(throws: CaptureError.self) {
            _ = try rig.photo.capturePhoto(PhotoSettings(format: .pixelFormat(.rgbaHalf)))
        }
        var p = PhotoSettings()
        p.previewFormat = PreviewFormat(pixelFormat: .rgbaFloat)
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(p) }
        var big = PhotoSettings()
        big.previewFormat = PreviewFormat(width: 100_000, height: 10)
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(big) }
        var none = PhotoSettings()
        none.processedFormat = nil
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(none) }
    }

    @Test("High resolution needs the output's opt-in; it gives the format's full size, else 3/4 size")
    func highResolution() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        var s = PhotoSettings()
        s.isHighResolutionPhotoEnabled = true
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(s) }
        rig.photo.isHighResolutionCaptureEnabled = true
        let high = try await collect(try rig.photo.capturePhoto(PhotoSettings(from: s)))
        #expect(high[0].resolvedSettings.photoDimensions == PixelDimensions(width: 320, height: 240))
        #expect(high.photos[0].pixelBuffer?.width == 320)
        let standard = try await collect(try rig.photo.capturePhoto(PhotoSettings()))
        #expect(standard[0].resolvedSettings.photoDimensions == PixelDimensions(width: 240, height: 180))
        #expect(standard.photos[0].pixelBuffer?.width == 240 && standard.photos[0].pixelBuffer?.height == 180)
    }

    @Test("Brackets: more than maxBracketedCapturePhotoCount throws with the counts")
    func bracketTooLarge() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        let s = PhotoSettings(bracket: [
            .auto(bias: -2), .auto(bias: -1), .auto(bias: 0), .auto(bias: 1), .auto(bias: 2),
        ])
        #expect(throws: CaptureError.bracketTooLarge(count: 5, maximum: 4)) { _ = try rig.photo.capturePhoto(s) }
        #expect(
            CaptureError.bracketTooLarge(count: 5, maximum: 4).description
                == "bracket of 5 exceeds maxBracketedCapturePhotoCount 4")
    }

    @Test("Brackets: mixing auto and manual items, out-of-range items and empty brackets throw")
    func bracketMixing() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard())
        let mixed = PhotoSettings(bracket: [
            .auto(bias: 0), .manual(duration: MediaTime(value: 1, timescale: 100), iso: 100),
        ])
        let e = #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(mixed) }
        #expect("\(e!)".contains("mixes"))
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(PhotoSettings(bracket: [.auto(bias: 9)])) }
        #expect(throws: CaptureError.self) {
            _ = try rig.photo.capturePhoto(
                PhotoSettings(bracket: [.manual(duration: MediaTime(value: 1, timescale: 100), iso: 5000)]))
        }
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(PhotoSettings(bracket: [])) }
    }

    @Test("Flash modes must be supported; a camera without a flash supports only off")
    func flashModes() async throws {
        let session = CaptureSession()
        let photo = PhotoOutput()
        try session.addInput(DeviceInput(camera: ForwardingCamera()))
        try session.addOutput(photo)
        #expect(photo.supportedFlashModes == [.off])
    }

    @Test("Live Photo capture: supported with the photo preset, disabled by a movie file output")
    func livePhotoSupport() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard(), start: false)
        #expect(rig.photo.isLivePhotoCaptureSupported)
        try rig.photo.setLivePhotoCaptureEnabled(true)
        #expect(rig.photo.isLivePhotoCaptureEnabled)
        try rig.session.addOutput(MovieFileOutput())
        #expect(!rig.photo.isLivePhotoCaptureSupported && !rig.photo.isLivePhotoCaptureEnabled)
        #expect(throws: CaptureError.self) { try rig.photo.setLivePhotoCaptureEnabled(true) }
        try await rig.session.startRunning()
        var s = PhotoSettings()
        s.livePhotoMovieURL = .init(filePath: "/tmp/live.mov")
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(s) }
    }
}
