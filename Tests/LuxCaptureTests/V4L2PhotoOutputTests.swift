import Foundation
import LuxCodecs
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCapture

/// A ``PhotoOutput`` on a V4L2 camera (the fake kernel): photos are the camera's processed stream frames.
@Suite struct V4L2PhotoOutputTests {
    /// A running session on the fake camera's `code` format `width` pixels wide, with a photo output.
    func rig(_ code: String, width: Int) async throws -> (CaptureSession, PhotoOutput, V4L2Camera) {
        let camera = try V4L2Camera(path: "/dev/video0", driver: FakeV4L2Kernel())
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
        let (session, photo, camera) = try await rig("RG10", width: 16)
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
        // The fake's RG10 frames: 16 × 8, levels 64 and 1023 (10 bits), RGGB.
        #expect(tags.text.split(separator: "\n").map(String.init) == ["16", "8", "64", "1023", "0 1 1 2"])
        #expect(camera.localizedName == "HD Pro Webcam C920")
        let jpeg = try JPEG.decode(try photos[0].fileDataRepresentation())
        #expect(jpeg.pixels.width == 16 && jpeg.pixels.height == 8)
        await session.stopRunning()
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
