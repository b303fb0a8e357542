import Foundation
import LuxCodecs
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCapture

/// A ``PhotoOutput`` on a V4L2 camera (the fake kernel): photos are the camera's processed stream frames.
@Suite struct V4L2PhotoOutputTests {
    /// A running session on the fake camera's `code` format `width` pixels wide, with a photo output.
    func rig(_ code: String, width: Int, kernel: FakeV4L2Kernel = FakeV4L2Kernel()) async throws -> (
        CaptureSession, PhotoOutput, V4L2Camera
    ) {
        let camera = try V4L2Camera(path: "/dev/video0", driver: kernel)
        try camera.setActiveFormat(try #require(camera.formats.first { $0.mediaSubType == code && $0.width == width }))
        let session = CaptureSession()
        let photo = PhotoOutput()
        try session.setSessionPreset(.inputPriority)
        try session.addInput(DeviceInput(camera: camera))
        try session.addOutput(photo)
        try await session.startRunning()
        return (session, photo, camera)
    }

    /// Red then blue halves, as the fake's YUYV frames encode them with the published BT.601 video-range values.
    func expectRedAndBlue(_ image: PixelBuffer) {
        let rgba = image.format == .rgba8 ? image : image.converted(to: .rgba8)
        rgba.withUnsafePlane { p in
            let row = p.row(rgba.height / 2, as: UInt8.self)
            func near(_ x: Int, _ rgb: [Int]) -> Bool {
                (0..<3).allSatisfy { abs(Int(row[x * 4 + $0]) - rgb[$0]) <= 2 }
            }
            #expect(near(1, [255, 0, 0]))
            #expect(near(rgba.width - 2, [0, 0, 255]))
        }
    }

    @Test("A JPEG from a YUYV camera: the seed's callback order, the frame's size and BT.601 colours, and a preview")
    func jpeg() async throws {
        let (session, photo, _) = try await rig("YUYV", width: 32)
        #expect(photo.availablePhotoCodecTypes.contains(.jpeg))
        #expect(photo.availableRawPhotoPixelFormatTypes.isEmpty)
        var settings = PhotoSettings(format: .codec(.jpeg))
        settings.previewFormat = PreviewFormat(pixelFormat: .bgra8, dimensions: PixelDimensions(width: 16, height: 16))
        let events = try await collect(try photo.capturePhoto(settings))
        #expect(isDocumentedOrder(events.names, photos: 1))
        let shot = try #require(events.photos.first)
        #expect(shot.resolvedSettings.photoDimensions == PixelDimensions(width: 32, height: 16))
        let bytes = try shot.fileDataRepresentation()
        let decoded = try JPEG.decode(bytes)
        #expect(decoded.pixels.width == 32 && decoded.pixels.height == 16)
        expectRedAndBlue(decoded.pixels)
        let preview = try #require(shot.previewPixelBuffer)
        #expect(preview.width == 16 && preview.height == 8 && preview.format == .bgra8)
        expectRedAndBlue(preview)
        await session.stopRunning()
    }

    @Test("Uncompressed BGRA photos carry the camera's frame as decoded")
    func uncompressed() async throws {
        let (session, photo, _) = try await rig("YUYV", width: 32)
        let events = try await collect(try photo.capturePhoto(PhotoSettings(format: .pixelFormat(.bgra8))))
        let image = try #require(events.photos.first?.pixelBuffer)
        #expect(image.format == .bgra8 && image.width == 32)
        expectRedAndBlue(image)
        await session.stopRunning()
    }

    @Test(
        "RAW and RAW + JPEG from a Bayer format: a DNG with the device's levels, as exiftool reads it",
        .needs("exiftool"))
    func raw() async throws {
        let (session, photo, camera) = try await rig("RG10", width: 32)
        #expect(photo.availableRawPhotoPixelFormatTypes == [.bayer16(.rggb)])
        var settings = PhotoSettings(rawPixelFormat: .bayer16(.rggb), processedFormat: .codec(.jpeg))
        settings.isAutoStillImageStabilizationEnabled = false
        let events = try await collect(try photo.capturePhoto(settings))
        #expect(isDocumentedOrder(events.names, photos: 2))
        let photos = events.photos
        #expect(photos.map(\.isRawPhoto) == [false, true])
        let dng = try photos[1].fileDataRepresentation()
        let dir = try ExternalTool.temporaryFolder("lux-v4l2-photo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("raw.dng")
        try Data(dng).write(to: url)
        let tags = try ExternalTool.capture(
            "exiftool",
            ["-s3", "-n", "-ImageWidth", "-ImageHeight", "-BlackLevel", "-WhiteLevel", "-CFAPattern2", url.path])
        // The fake's RG10 frames: 32 × 24, levels 64 and 1023 (10 bits), RGGB.
        #expect(tags.text.split(separator: "\n").map(String.init) == ["32", "24", "64", "1023", "0 1 1 2"])
        #expect(camera.localizedName == "HD Pro Webcam C920")
        let jpeg = try JPEG.decode(try photos[0].fileDataRepresentation())
        #expect(jpeg.pixels.width == 32 && jpeg.pixels.height == 24)
        await session.stopRunning()
    }

    @Test(
        "Photos are at the active format's size",
        arguments: [("YUYV", 32, 16), ("YUYV", 640, 480), ("RG10", 8, 4), ("RG10", 32, 24)])
    func activeFormatSize(code: String, width: Int, height: Int) async throws {
        let (session, photo, camera) = try await rig(code, width: width)
        #expect(camera.activeFormat.width == width && camera.activeFormat.height == height)
        let settings =
            code == "RG10"
            ? PhotoSettings(rawPixelFormat: .bayer16(.rggb), processedFormat: .codec(.jpeg))
            : PhotoSettings(format: .codec(.jpeg))
        var unstabilised = settings
        unstabilised.isAutoStillImageStabilizationEnabled = false
        let events = try await collect(try photo.capturePhoto(unstabilised))
        let size = PixelDimensions(width: width, height: height)
        for shot in events.photos {
            if shot.isRawPhoto {
                #expect(shot.resolvedSettings.rawPhotoDimensions == size)
                #expect(shot.rawBuffer.map { [$0.width, $0.height] } == [width, height])
            } else {
                #expect(shot.resolvedSettings.photoDimensions == size)
                let decoded = try JPEG.decode(try shot.fileDataRepresentation())
                #expect(decoded.pixels.width == width && decoded.pixels.height == height)
            }
        }
        #expect(events.photos.count == (code == "RG10" ? 2 : 1))
        await session.stopRunning()
    }

    @Test(
        "A V4L2 DNG carries the generic linear-sRGB calibration and the device's white balance; dcraw_emu develops it",
        .needs("exiftool"), .needs("dcraw_emu"))
    func dngCalibration() async throws {
        let kernel = FakeV4L2Kernel(extraControls: FakeV4L2Kernel.sensorControls)
        let (session, photo, camera) = try await rig("RG10", width: 32, kernel: kernel)
        try await camera.setWhiteBalanceModeLocked(gains: .value(WhiteBalanceGains(red: 2, green: 1, blue: 1.5)))
        var settings = PhotoSettings(rawPixelFormat: .bayer16(.rggb))
        settings.isAutoStillImageStabilizationEnabled = false
        let events = try await collect(try photo.capturePhoto(settings))
        let dng = try #require(events.photos.first { $0.isRawPhoto }).fileDataRepresentation()
        await session.stopRunning()
        let dir = try ExternalTool.temporaryFolder("lux-v4l2-dng")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("raw.dng")
        try Data(dng).write(to: url)
        let tags = try ExternalTool.capture(
            "exiftool",
            ["-s3", "-n", "-ColorMatrix1", "-ColorMatrix2", "-CalibrationIlluminant2", "-AsShotNeutral", url.path])
        let lines = tags.text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
        try #require(lines.count == 4, "\(tags.text)")
        // IEC 61966-2-1's XYZ → linear sRGB matrix (published to 4 decimals); D65 white is (1, 1, 1), so the D65
        // matrix needs no scaling.
        let published = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]
        #expect(lines[1].count == 9 && zip(lines[1], published).allSatisfy { abs($0 - $1) < 2e-3 }, "\(lines[1])")
        // Under A the relation is the same matrix, scaled so A's white has a largest camera value of 1 (the files
        // store 4 decimals).
        let scale = lines[0][0] / lines[1][0]
        #expect(scale < 1 && zip(lines[0], lines[1]).allSatisfy { abs($0 - scale * $1) < 2e-4 }, "\(lines[0])")
        #expect(lines[2] == [21])  // D65
        // Gains (2, 1, 1.5) → neutral (1/2, 1, 1/1.5).
        #expect(zip(lines[3], [0.5, 1, 2.0 / 3]).allSatisfy { abs($0 - $1) < 1e-4 }, "\(lines[3])")
        let developed = try ExternalTool.capture("dcraw_emu", ["-w", "-T", url.path])
        #expect(developed.status == 0, "\(developed.errorText)")
        let tiff = try ExternalTool.capture(
            "exiftool", ["-s3", "-ImageWidth", "-ImageHeight", url.path + ".tiff"])
        #expect(tiff.text.split(separator: "\n") == ["32", "24"], "\(tiff.text)")
    }

    @Test("Brackets, Live Photos and RAW without Bayer data throw typed errors naming why")
    func unsupported() async throws {
        let (session, photo, _) = try await rig("YUYV", width: 32)
        #expect(photo.maxBracketedCapturePhotoCount == 0 && !photo.isLivePhotoCaptureSupported)
        var bracket = PhotoSettings()
        bracket.bracket = [.auto(bias: -1), .auto(bias: 1)]
        #expect(throws: CaptureError.self) { _ = try photo.capturePhoto(bracket) }
        do {
            _ = try photo.capturePhoto(bracket)
        } catch {
            guard case .unsupported(let why) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(why.contains("HD Pro Webcam C920") && why.contains("brackets"))
        }
        #expect(throws: CaptureError.self) { try photo.setLivePhotoCaptureEnabled(true) }
        var raw = PhotoSettings(rawPixelFormat: .bayer16(.rggb))
        raw.isAutoStillImageStabilizationEnabled = false
        #expect(throws: CaptureError.self) { _ = try photo.capturePhoto(raw) }
        await session.stopRunning()
    }
}
