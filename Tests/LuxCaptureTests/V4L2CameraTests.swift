import LuxPixels
import Synchronization
import Testing

@testable import LuxCapture

/// Replays ioctl replies modelled on a UVC webcam (a Logitech C920 as `v4l2-ctl --all --list-formats-ext` describes it:
/// YUYV and MJPEG, 640×480…1920×1080, exposure 3…2047 in 100 µs, focus 0…250 step 5, gain 0…255, white balance
/// 2000…6500 K).
///
/// They were written from that documented listing, not captured from a device, and they exercise the byte layouts of
/// the V4L2 structures Lux parses. It records every VIDIOC_S_CTRL so tests can assert the call trace.
final class RecordedV4L2Driver: V4L2Driver {
    let written = Mutex<[(UInt32, Int32)]>([])

    func deviceNodes() -> [String] { ["/dev/video0"] }
    func open(_ path: String) -> Int32 { path == "/dev/video0" ? 3 : -2 }
    func close(_ fd: Int32) {}

    static let formats: [(fourCC: String, name: String, sizes: [(Int, Int, [Int])])] = [
        ("YUYV", "YUYV 4:2:2", [(640, 480, [30, 15]), (1280, 720, [10, 5]), (1920, 1080, [5])]),
        ("MJPG", "Motion-JPEG", [(640, 480, [30, 15]), (1920, 1080, [30, 24])]),
        ("H264", "H.264", [(1920, 1080, [30])]),
    ]

    static let controls: [(id: UInt32, name: String, min: Int32, max: Int32, step: Int32, def: Int32)] = [
        (0x0098_0900, "User Controls", 0, 0, 0, 0),
        (0x0098_090C, "White Balance Temperature, Auto", 0, 1, 1, 1),
        (0x0098_0913, "Gain", 0, 255, 1, 0),
        (0x0098_091A, "White Balance Temperature", 2000, 6500, 1, 4000),
        (0x009A_0901, "Exposure, Auto", 0, 3, 1, 3),
        (0x009A_0902, "Exposure (Absolute)", 3, 2047, 1, 250),
        (0x009A_090A, "Focus (absolute)", 0, 250, 5, 0),
        (0x009A_090C, "Focus, Auto", 0, 1, 1, 1),
    ]

    func map(_ fd: Int32, length: Int, offset: Int) throws(CaptureError) -> UnsafeMutableRawPointer {
        throw .systemCall(name: "mmap", errno: 19)
    }
    func unmap(_ address: UnsafeMutableRawPointer, length: Int) {}
    func poll(_ fd: Int32, timeout: Duration) -> V4L2Readiness { [] }
    func monotonicTime() -> Duration { .zero }

    func ioctl(_ fd: Int32, _ request: UInt, _ argument: inout [UInt8]) -> Int32 {
        var s = V4L2Struct(bytes: argument)
        defer { argument = s.bytes }
        func put(_ text: String, at offset: Int, length: Int) {
            for (i, b) in text.utf8.prefix(length - 1).enumerated() { s.bytes[offset + i] = b }
        }
        switch request {
        case V4L2.queryCapability:
            put("uvcvideo", at: 0, length: 16)
            put("HD Pro Webcam C920", at: 16, length: 32)
            put("usb-0000:00:14.0-1", at: 48, length: 32)
            s.set(80, UInt32(0x0006_0B00))  // kernel version 6.11.0
            s.set(84, UInt32(0x84A0_0001))
            s.set(88, UInt32(0x0420_0001))
            return 0
        case V4L2.enumerateFormat:
            let i = Int(s.u32(0))
            guard i < Self.formats.count else { return 22 }  // EINVAL ends the enumeration
            put(Self.formats[i].name, at: 12, length: 32)
            s.set(44, V4L2.fourCC(Self.formats[i].fourCC))
            return 0
        case V4L2.enumerateFrameSizes:
            guard let f = Self.formats.first(where: { V4L2.fourCC($0.fourCC) == s.u32(4) }) else { return 22 }
            let i = Int(s.u32(0))
            guard i < f.sizes.count else { return 22 }
            s.set(8, V4L2.frameSizeDiscrete)
            s.set(12, UInt32(f.sizes[i].0))
            s.set(16, UInt32(f.sizes[i].1))
            return 0
        case V4L2.enumerateFrameIntervals:
            guard let f = Self.formats.first(where: { V4L2.fourCC($0.fourCC) == s.u32(4) }),
                let size = f.sizes.first(where: { UInt32($0.0) == s.u32(8) && UInt32($0.1) == s.u32(12) })
            else { return 22 }
            let i = Int(s.u32(0))
            guard i < size.2.count else { return 22 }
            s.set(16, V4L2.frameSizeDiscrete)
            s.set(20, UInt32(1))
            s.set(24, UInt32(size.2[i]))
            return 0
        case V4L2.queryControl:
            let id = s.u32(0)
            let next = id & V4L2.controlFlagNextControl != 0
            let base = id & ~V4L2.controlFlagNextControl
            guard let c = (next ? Self.controls.first { $0.id > base } : Self.controls.first { $0.id == base }) else {
                return 22
            }
            s.set(0, c.id)
            put(c.name, at: 8, length: 32)
            s.set(40, UInt32(bitPattern: c.min))
            s.set(44, UInt32(bitPattern: c.max))
            s.set(48, UInt32(bitPattern: c.step))
            s.set(52, UInt32(bitPattern: c.def))
            return 0
        case V4L2.setControl:
            let entry = (s.u32(0), s.s32(4))
            written.withLock { $0.append(entry) }
            return 0
        default:
            return 25  // ENOTTY
        }
    }
}

@Suite struct V4L2CameraTests {
    @Test("Formats map to DeviceFormats with their sizes and frame-rate ranges; unknown codecs are skipped")
    func formats() throws {
        let camera = try V4L2Camera(path: "/dev/video0", driver: RecordedV4L2Driver())
        #expect(camera.localizedName == "HD Pro Webcam C920" && camera.driverName == "uvcvideo")
        #expect(camera.uniqueID == "v4l2:usb-0000:00:14.0-1")
        #expect(camera.formats.count == 5)  // 3 YUYV + 2 MJPEG, no H.264
        let big = try #require(camera.formats.first { $0.width == 1920 && $0.frameRateRange.upperBound == 30 })
        #expect(big.frameRateRange == 24...30)
        #expect(camera.formats.contains { $0.width == 1280 && $0.height == 720 && $0.frameRateRange == 5...10 })
    }

    @Test("Controls are parsed and mapped to manual controls with range checks")
    func controls() throws {
        let driver = RecordedV4L2Driver()
        let camera = try V4L2Camera(path: "/dev/video0", driver: driver)
        #expect(camera.controls.count == 7)
        #expect(camera.controls[.focusAbsolute]?.step == 5)
        #expect(try camera.exposureControlValue(for: MediaTime(value: 1, timescale: 100)) == 100)
        #expect(throws: CaptureError.self) {
            try camera.exposureControlValue(for: MediaTime(value: 1, timescale: 5000))
        }
        #expect(try camera.focusControlValue(for: 1) == 0)
        #expect(try camera.focusControlValue(for: 0) == 250)
        #expect(try camera.focusControlValue(for: 0.5) == 125)
        #expect(try camera.gainControlValue(forISO: 100) == 1)
        #expect(throws: CaptureError.self) { try camera.gainControlValue(forISO: 100_000) }
        #expect(try camera.whiteBalanceControlValue(forTemperature: 5000) == 5000)
        #expect(throws: CaptureError.self) { try camera.whiteBalanceControlValue(forTemperature: 9000) }
        try camera.setExposureModeCustom(duration: MediaTime(value: 1, timescale: 50))
        try camera.setFocusModeLocked(lensPosition: 1)
        let trace = driver.written.withLock { $0 }
        #expect(trace.map(\.0) == [0x009A_0901, 0x009A_0902, 0x009A_090C, 0x009A_090A])
        #expect(trace.map(\.1) == [1, 200, 0, 0])
    }

    @Test("A node that cannot be opened throws the errno")
    func missingNode() {
        #expect(throws: CaptureError.systemCall(name: "open(/dev/video7)", errno: 2)) {
            try V4L2Camera(path: "/dev/video7", driver: RecordedV4L2Driver())
        }
    }
}
