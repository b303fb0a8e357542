import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCapture

@Suite struct V4L2CameraTests {
    func camera(_ kernel: FakeV4L2Kernel = FakeV4L2Kernel()) throws -> V4L2Camera {
        try V4L2Camera(path: "/dev/video0", driver: kernel)
    }

    func format(_ c: V4L2Camera, _ code: String, _ w: Int) throws -> DeviceFormat {
        try #require(c.formats.first { $0.mediaSubType == code && $0.width == w })
    }

    @Test("Formats map to DeviceFormats with their sizes and frame rates; unknown codecs are skipped")
    func formats() throws {
        let camera = try camera()
        #expect(camera.localizedName == "HD Pro Webcam C920" && camera.driverName == "uvcvideo")
        #expect(camera.uniqueID == "v4l2:usb-0000:00:14.0-1")
        #expect(camera.formats.count == 8)  // 3 YUYV + 2 MJPEG + 1 NV12 + 2 RG10, no H.264
        let big = try #require(camera.formats.first { $0.mediaSubType == "MJPG" && $0.width == 1920 })
        #expect(big.frameRateRange == 24...30 && big.supportedFrameRates == [24, 30])
        #expect(camera.formats.contains { $0.width == 1280 && $0.height == 720 && $0.frameRateRange == 5...10 })
        let bayer = try format(camera, "RG10", 8)
        #expect(bayer.supportsRAW && bayer.pixelFormat == .bayer16(.rggb))
        // Gain 0…255 with ISO 100 at gain 1; exposure 3…2047 × 100 µs.
        #expect(bayer.minISO == 100 && bayer.maxISO == 25_500)
        #expect(bayer.minExposureDuration.seconds == 0.0003 && bayer.maxExposureDuration.seconds == 0.2047)
    }

    @Test("Controls are parsed, with menu items from VIDIOC_QUERYMENU, and reported as capabilities")
    func controls() throws {
        let camera = try camera()
        #expect(camera.controls[.focusAbsolute]?.step == 5)
        #expect(camera.controls[.exposureAuto]?.menuItems == [1: "Manual Mode", 3: "Aperture Priority Mode"])
        let caps = camera.controlCapabilities
        #expect(caps.focusModes == [.locked, .continuousAutoFocus] && caps.supportsLensPosition)
        #expect(caps.exposureModes == [.continuousAutoExposure, .custom, .locked])
        #expect(caps.whiteBalanceModes == [.continuousAutoWhiteBalance, .locked])
        #expect(caps.supportsWhiteBalanceTemperature && !caps.supportsWhiteBalanceGains && !caps.syncTimesAreExact)
        #expect(try camera.exposureControlValue(for: MediaTime(value: 1, timescale: 100)) == 100)
        #expect(try camera.focusControlValue(for: 1) == 0)
        #expect(try camera.focusControlValue(for: 0) == 250)
        #expect(try camera.focusControlValue(for: 0.5) == 125)
        #expect(try camera.gainControlValue(forISO: 100) == 1)
    }

    @Test("The seed-004 controls go through the device protocol to V4L2 controls; what it lacks throws")
    func manualControls() async throws {
        let kernel = FakeV4L2Kernel()
        let device: any CaptureDevice = try camera(kernel)
        try await device.setExposureModeCustom(duration: .value(MediaTime(value: 1, timescale: 50)), iso: .value(400))
        try await device.setFocusModeLocked(lensPosition: .value(1))
        try await device.setWhiteBalanceModeLocked(temperatureAndTint: TemperatureAndTint(temperature: 5000, tint: 0))
        try device.setExposureMode(.continuousAutoExposure)
        let trace = kernel.kernel.withLock { $0.written }
        // auto_exposure manual, 200 × 100 µs, gain 4, focus auto off, focus 0 (far), WB auto off, 5000 K, aperture
        // priority.
        #expect(
            trace.map(\.0) == [
                0x009A_0901, 0x009A_0902, 0x0098_0913, 0x009A_090C, 0x009A_090A, 0x0098_090C,
                0x0098_091A, 0x009A_0901,
            ])
        #expect(trace.map(\.1) == [1, 200, 4, 0, 0, 0, 5000, 3])
        #expect(device.status.iso == 400 && device.status.exposureDuration.seconds == 0.02)
        await #expect(throws: CaptureError.outOfRange(name: "ISO", value: 30_000, range: 100...25_500)) {
            try await device.setExposureModeCustom(duration: .current, iso: .value(30_000))
        }
        await #expect(throws: CaptureError.self) {
            try await device.setWhiteBalanceModeLocked(
                temperatureAndTint: TemperatureAndTint(temperature: 9000, tint: 0))
        }
        await #expect(throws: CaptureError.unsupported("HD Pro Webcam C920 cannot set a white-balance tint")) {
            try await device.setWhiteBalanceModeLocked(
                temperatureAndTint: TemperatureAndTint(temperature: 5000, tint: 10))
        }
        await #expect(throws: CaptureError.self) {
            try await device.setWhiteBalanceModeLocked(gains: .value(WhiteBalanceGains(red: 2, green: 1, blue: 1.5)))
        }
        // No exposure-bias control: the range is the single value 0.
        await #expect(throws: CaptureError.outOfRange(name: "exposureTargetBias", value: 1, range: 0...0)) {
            try await device.setExposureTargetBias(1)
        }
        #expect(throws: CaptureError.self) { try device.setFocusMode(.autoFocus) }
    }

    @Test("YUYV streams through mmap buffers: BT.601 colours, timestamps, and more frames than buffers")
    func streamsYUYV() async throws {
        let kernel = FakeV4L2Kernel()
        let camera = try camera(kernel)
        try camera.setActiveFormat(try format(camera, "YUYV", 32))
        kernel.kernel.withLock { $0.spuriousWakeups = 1 }  // poll wakes with nothing to dequeue: DQBUF says EAGAIN
        try await camera.startStreaming()
        #expect(kernel.kernel.withLock { $0.buffers.count } == 3)
        var times: [Double] = []
        for _ in 0..<7 {
            let frame = try await camera.nextFrame(StreamConfiguration())
            let image = try #require(frame.image)
            #expect(image.width == 32 && image.height == 16 && image.format == .bgra8)
            image.withUnsafePlane { p in
                let row = p.row(3, as: UInt8.self)
                // Published BT.601 primaries, rounded to 8 bits: (81, 90, 240) is red, (41, 240, 110) is blue.
                func near(_ a: [UInt8], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs(Int($0) - $1) <= 1 } }
                #expect(near([row[2], row[1], row[0]], [255, 0, 0]))
                #expect(near([row[31 * 4 + 2], row[31 * 4 + 1], row[31 * 4]], [0, 0, 255]))
            }
            times.append(frame.presentationTime.seconds)
        }
        #expect(zip(times.dropFirst(), times).allSatisfy { abs($0 - $1 - 1.0 / 30) < 1e-5 })
        #expect(times[0] == 0)
        await camera.stopStreaming()
        #expect(kernel.kernel.withLock { ($0.mapped, $0.buffers.count, $0.streaming) } == (0, 0, false))
    }

    @Test("A format or rate change while streaming restarts the stream; rates the device lacks throw")
    func formatChange() async throws {
        let kernel = FakeV4L2Kernel()
        let camera = try camera(kernel)
        try camera.setActiveFormat(try format(camera, "YUYV", 640))
        #expect(throws: CaptureError.self) { try camera.setActiveFrameRate(20) }  // between 15 and 30
        #expect(throws: CaptureError.self) { try camera.setActiveFrameRate(60) }
        try await camera.startStreaming()
        _ = try await camera.nextFrame(StreamConfiguration())
        try camera.setActiveFrameRate(15)
        try camera.setActiveFormat(try format(camera, "NV12", 16))
        let frame = try await camera.nextFrame(StreamConfiguration())
        let image = try #require(frame.image)
        #expect(image.format == .yCbCr420VideoRange && image.width == 16 && image.height == 8)
        image.withUnsafePlane(0) { p in #expect(p.row(1, as: UInt8.self)[2] == 18) }  // byte 16 + 2 of frame 0
        image.withUnsafePlane(1) { p in #expect(p.row(1, as: UInt8.self)[0] == 116) }  // 100 + 16
        #expect(kernel.kernel.withLock { $0.sFmtCalls.map(\.0) } == ["YUYV", "NV12"])
        #expect(kernel.kernel.withLock { $0.interval.denominator } == 30)  // a new format resets the rate
        await camera.stopStreaming()
    }

    @Test(
        "Bayer RG10 frames are RAW with the device's black level and the 10-bit white level; stills use the largest size"
    )
    func bayer() async throws {
        let kernel = FakeV4L2Kernel()
        let camera = try camera(kernel)
        let small = try format(camera, "RG10", 8)
        try camera.setActiveFormat(small)
        try await camera.startStreaming()
        let frame = try await camera.nextFrame(StreamConfiguration(deliversProcessedFrames: true, deliversRAW: true))
        let raw = try #require(frame.raw)
        #expect(raw.format == .bayer16(.rggb) && raw.width == 8)
        raw.withUnsafePlane { p in
            #expect(Array(UnsafeBufferPointer(start: p.row(0, as: UInt16.self), count: 2)) == [900, 500])
            #expect(Array(UnsafeBufferPointer(start: p.row(1, as: UInt16.self), count: 2)) == [500, 100])
        }
        #expect(frame.metadata.raw.blackLevel == 64 && frame.metadata.raw.whiteLevel == 1023)
        #expect(frame.image != nil)
        let still = try await camera.captureStill(StillRequest())
        #expect(still.raw.width == 32 && still.raw.height == 24)
        #expect(camera.activeFormat == small)
        let next = try await camera.nextFrame(StreamConfiguration(deliversProcessedFrames: false, deliversRAW: true))
        #expect(next.raw?.width == 8)
        await camera.stopStreaming()
    }

    @Test(
        "A Bayer still is written as a DNG with the device's levels and CFA, as exiftool reads it", .needs("exiftool"))
    func bayerDNG() async throws {
        let camera = try camera()
        try camera.setActiveFormat(try format(camera, "RG10", 8))
        let still = try await camera.captureStill(StillRequest())
        #expect(still.hasBayerRAW)
        let file = try still.fileDataRepresentation(raw: true, cameraModel: camera.localizedName)
        #expect(file.fileExtension == "dng")
        let dir = try ExternalTool.temporaryFolder("lux-v4l2-dng")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("still.dng")
        try Data(file.bytes).write(to: url)
        let tags = try ExternalTool.capture(
            "exiftool",
            [
                "-s3", "-n", "-ImageWidth", "-ImageHeight", "-BlackLevel", "-WhiteLevel", "-CFAPattern2", "-Model",
                url.path,
            ])
        #expect(
            tags.text.split(separator: "\n").map(String.init) == [
                "32", "24", "64", "1023", "0 1 1 2", "HD Pro Webcam C920",
            ])
        let jpeg = try still.fileDataRepresentation(raw: false, cameraModel: camera.localizedName)
        #expect(jpeg.fileExtension == "jpg" && jpeg.bytes.starts(with: [0xFF, 0xD8]))
        let yuyv = try self.camera()
        try yuyv.setActiveFormat(try format(yuyv, "YUYV", 32))
        let processedOnly = try await yuyv.captureStill(StillRequest())
        #expect(throws: CaptureError.self) {
            try processedOnly.fileDataRepresentation(raw: true, cameraModel: yuyv.localizedName)
        }
    }

    @Test("A buffer the driver flags as corrupt (V4L2_BUF_FLAG_ERROR) is queued again and skipped")
    func corruptBuffer() async throws {
        let kernel = FakeV4L2Kernel()
        let camera = try camera(kernel)
        try camera.setActiveFormat(try format(camera, "NV12", 16))
        try await camera.startStreaming()
        kernel.kernel.withLock { $0.corruptFrames = 2 }
        let frame = try await camera.nextFrame(StreamConfiguration())
        // Frames 0 and 1 were corrupt: the first delivered is frame 2, whose luma starts at 2.
        frame.image?.withUnsafePlane(0) { p in #expect(p.row(0, as: UInt8.self)[0] == 2) }
        #expect(frame.presentationTime == .zero)  // the first frame delivered starts the device clock
        await camera.stopStreaming()
    }

    @Test("Short or corrupt frames are typed errors, not crashes")
    func badFrames() {
        for layout: V4L2PixelFormat.Layout in [.yuyv, .nv12, .mjpeg, .bayer(.rggb, bits: 10), .bayer(.bggr, bits: 8)] {
            let decoder = V4L2FrameDecoder(
                format: V4L2PixelFormat(fourCC: "TEST", layout: layout), width: 16, height: 8, bytesPerLine: 32,
                blackLevel: 0)
            for bytes in [[], [UInt8](repeating: 0xFF, count: 100)] as [[UInt8]] {
                #expect(throws: CaptureError.self) { try decoder.decode(bytes, processed: true) }
            }
        }
    }

    @Test("MJPEG frames decode with libjpeg-turbo")
    func mjpeg() async throws {
        let kernel = FakeV4L2Kernel()
        let camera = try camera(kernel)
        try camera.setActiveFormat(try format(camera, "MJPG", 640))
        try await camera.startStreaming()
        let image = try #require(try await camera.nextFrame(StreamConfiguration()).image)
        #expect(image.width == 640 && image.format == .bgra8)
        image.withUnsafePlane { p in
            let px = p.row(100, as: UInt8.self) + 400
            #expect(abs(Int(px[1]) - 200) <= 2 && px[0] <= 2 && px[2] <= 2)
        }
        await camera.stopStreaming()
    }

    @Test("Unplugging ends the stream with deviceDisconnected and frames already delivered stay intact")
    func unplug() async throws {
        let kernel = FakeV4L2Kernel()
        let camera = try camera(kernel)
        try camera.setActiveFormat(try format(camera, "YUYV", 32))
        try await camera.startStreaming()
        let kept = try #require(try await camera.nextFrame(StreamConfiguration()).image)
        kernel.kernel.withLock { $0.unplugged = true }
        await #expect(throws: CaptureError.deviceDisconnected("/dev/video0")) {
            try await camera.nextFrame(StreamConfiguration())
        }
        await camera.stopStreaming()
        kept.withUnsafePlane { p in #expect(p.row(0, as: UInt8.self)[2] >= 254) }
        #expect(throws: CaptureError.deviceUnavailable("/dev/video0 does not exist")) {
            try V4L2Camera(path: "/dev/video0", driver: kernel)
        }
    }

    @Test("Another process owning the camera is deviceBusy; a camera that stops delivering times out")
    func busyAndStalled() async throws {
        let kernel = FakeV4L2Kernel()
        let camera = try camera(kernel)
        kernel.kernel.withLock { $0.anotherProcessOwnsQueue = true }
        await #expect(throws: CaptureError.deviceBusy("/dev/video0")) { try await camera.startStreaming() }
        kernel.kernel.withLock { $0.anotherProcessOwnsQueue = false }
        try await camera.startStreaming()
        kernel.kernel.withLock { $0.stalled = true }
        await #expect(throws: CaptureError.timedOut("/dev/video0 delivered no frame within 2.0 seconds")) {
            try await camera.nextFrame(StreamConfiguration())
        }
        await camera.stopStreaming()
    }

    @Test("A node that cannot be opened throws a typed error naming it")
    func missingNode() {
        #expect(throws: CaptureError.deviceUnavailable("/dev/video7 does not exist")) {
            try V4L2Camera(path: "/dev/video7", driver: FakeV4L2Kernel())
        }
    }
}

/// Seed 004's rules through the `CaptureDevice` protocol, the same code on the simulated camera and on V4L2.
@Suite struct DeviceProtocolControlTests {
    static func devices() throws -> [any CaptureDevice] {
        [
            SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small())),
            try V4L2Camera(path: "/dev/video0", driver: FakeV4L2Kernel()),
        ]
    }

    @Test("Out-of-range values throw the seed's errors naming the range; in-range ones return a sync time")
    func seedRules() async throws {
        for device in try Self.devices() {
            let f = device.activeFormat
            await #expect(throws: CaptureError.outOfRange(name: "lensPosition", value: 1.5, range: 0...1)) {
                try await device.setFocusModeLocked(lensPosition: .value(1.5))
            }
            let tooHigh = f.maxISO * 2
            await #expect(
                throws: CaptureError.outOfRange(
                    name: "ISO", value: Double(tooHigh), range: Double(f.minISO)...Double(f.maxISO))
            ) {
                try await device.setExposureModeCustom(duration: .current, iso: .value(tooHigh))
            }
            let long = f.maxExposureDuration + MediaTime(value: 1, timescale: 1)
            await #expect(throws: CaptureError.self) {
                try await device.setExposureModeCustom(duration: .value(long), iso: .current)
            }
            let synced = try await device.setExposureModeCustom(
                duration: .value(f.minExposureDuration), iso: .value(f.minISO))
            #expect(synced >= device.status.lastFrameTime)
            #expect(device.status.exposureMode == .custom && device.status.iso == f.minISO)
            try await device.setWhiteBalanceModeLocked(
                temperatureAndTint: TemperatureAndTint(temperature: 5000, tint: 0))
            #expect(device.status.whiteBalanceMode == .locked)
            #expect(device.isExposureModeSupported(.custom) && device.isFocusModeSupported(.locked))
        }
    }
}
