import LuxColor
public import LuxPixels
import Synchronization

/// A real Linux camera through Video4Linux2: enumerates a device's formats (YUYV, MJPEG, NV12 with their
/// frame sizes and rates) and maps its controls (exposure, gain, focus, white balance) onto the manual
/// controls of ``CaptureDevice``.
///
/// - Important: This type is **untested on hardware**. Its format and control mapping are unit-tested against
///   recorded ioctl replies of a UVC webcam (see `V4L2CameraTests`); mmap streaming is not implemented yet,
///   so ``nextFrame(_:)`` and ``captureStill(_:)`` throw ``CaptureError/unsupported(_:)``.
public final class V4L2Camera: CaptureDevice {
    /// A control the driver offers, with its range.
    public struct ControlInfo: Hashable, Sendable {
        /// The V4L2 control.
        public var control: V4L2.Control
        /// The driver's name for it.
        public var name: String
        /// Smallest value.
        public var minimum: Int32
        /// Largest value.
        public var maximum: Int32
        /// Step.
        public var step: Int32
        /// Default.
        public var defaultValue: Int32
    }

    public let uniqueID: String
    public let localizedName: String
    /// The driver name (such as "uvcvideo").
    public let driverName: String
    public let formats: [DeviceFormat]
    /// The controls the device offers that Lux maps.
    public let controls: [V4L2.Control: ControlInfo]
    let driver: any V4L2Driver
    let fd: Int32
    let state: Mutex<(format: DeviceFormat, colorSpace: CaptureColorSpace)>

    /// The V4L2 cameras on this machine (video-capture nodes that stream).
    public static func devices(driver: any V4L2Driver = SystemV4L2Driver()) -> [V4L2Camera] {
        driver.deviceNodes().compactMap { try? V4L2Camera(path: $0, driver: driver) }
    }

    /// Opens a device node and reads its formats and controls.
    ///
    /// - Throws: ``CaptureError/systemCall(name:errno:)`` when open or VIDIOC_QUERYCAP fails,
    ///   ``CaptureError/unsupported(_:)`` when the node cannot capture and stream video.
    public init(path: String, driver: any V4L2Driver = SystemV4L2Driver()) throws(CaptureError) {
        self.driver = driver
        let fd = driver.open(path)
        guard fd >= 0 else { throw .systemCall(name: "open(\(path))", errno: -fd) }
        self.fd = fd
        var cap = V4L2Struct(size: 104)
        let err = driver.ioctl(fd, V4L2.queryCapability, &cap.bytes)
        guard err == 0 else {
            driver.close(fd)
            throw .systemCall(name: "VIDIOC_QUERYCAP", errno: err)
        }
        driverName = cap.string(0, 16)
        localizedName = cap.string(16, 32)
        uniqueID = "v4l2:" + cap.string(48, 32)
        let caps = cap.u32(88) != 0 ? cap.u32(88) : cap.u32(84)  // device_caps when set, else capabilities
        guard caps & V4L2.capabilityVideoCapture != 0, caps & V4L2.capabilityStreaming != 0 else {
            driver.close(fd)
            throw .unsupported("\(path) (\(localizedName)) is not a streaming video-capture device")
        }
        formats = Self.enumerateFormats(fd: fd, driver: driver)
        controls = Self.enumerateControls(fd: fd, driver: driver)
        guard let first = formats.first else {
            driver.close(fd)
            throw .unsupported("\(path) offers no YUYV, MJPEG or NV12 format")
        }
        state = Mutex((first, .sRGB))
    }

    deinit { driver.close(fd) }

    /// V4L2 pixel formats Lux understands, and how their frames are delivered.
    static let supportedFourCCs: [UInt32: PixelFormat] = [
        V4L2.fourCC("YUYV"): .bgra8, V4L2.fourCC("MJPG"): .bgra8, V4L2.fourCC("NV12"): .yCbCr420VideoRange,
    ]

    static func enumerateFormats(fd: Int32, driver: any V4L2Driver) -> [DeviceFormat] {
        var out: [DeviceFormat] = []
        for index in 0..<64 {
            var desc = V4L2Struct(size: 64)
            desc.set(0, UInt32(index))
            desc.set(4, V4L2.bufferTypeVideoCapture)
            guard driver.ioctl(fd, V4L2.enumerateFormat, &desc.bytes) == 0 else { break }
            let fourCC = desc.u32(44)
            guard let pixelFormat = supportedFourCCs[fourCC] else { continue }
            for sizeIndex in 0..<64 {
                var size = V4L2Struct(size: 44)
                size.set(0, UInt32(sizeIndex))
                size.set(4, fourCC)
                guard driver.ioctl(fd, V4L2.enumerateFrameSizes, &size.bytes) == 0,
                    size.u32(8) == V4L2.frameSizeDiscrete
                else { break }
                let w = Int(size.u32(12))
                let h = Int(size.u32(16))
                var rates: [Double] = []
                for ivalIndex in 0..<32 {
                    var ival = V4L2Struct(size: 52)
                    ival.set(0, UInt32(ivalIndex))
                    ival.set(4, fourCC)
                    ival.set(8, UInt32(w))
                    ival.set(12, UInt32(h))
                    guard driver.ioctl(fd, V4L2.enumerateFrameIntervals, &ival.bytes) == 0,
                        ival.u32(16) == V4L2.frameSizeDiscrete
                    else { break }
                    let num = Double(ival.u32(20))
                    let den = Double(ival.u32(24))
                    if num > 0 { rates.append(den / num) }
                }
                guard let maxRate = rates.max(), let minRate = rates.min(), w > 0, h > 0 else { continue }
                out.append(
                    DeviceFormat(
                        width: w, height: h, pixelFormat: pixelFormat, frameRateRange: minRate...maxRate,
                        isPhotoFormat: false, supportsHighPhotoQuality: false, supportedColorSpaces: [.sRGB],
                        minISO: 100, maxISO: 100, minExposureDuration: MediaTime(value: 1, timescale: 10_000),
                        maxExposureDuration: MediaTime(value: 1, timescale: 1), maxWhiteBalanceGain: 4,
                        exposureTargetBiasRange: 0...0, maxBracketedCapturePhotoCount: 1, supportsRAW: false,
                        supportsLivePhoto: false, streamWidth: w, streamHeight: h, sensorRegionOrigin: .zero,
                        sensorRegionSize: SIMD2(1, Double(h) / Double(w)), fieldOfView: 60))
            }
        }
        return out
    }

    static func enumerateControls(fd: Int32, driver: any V4L2Driver) -> [V4L2.Control: ControlInfo] {
        var out: [V4L2.Control: ControlInfo] = [:]
        var id = V4L2.controlFlagNextControl
        for _ in 0..<256 {
            var q = V4L2Struct(size: 68)
            q.set(0, id)
            guard driver.ioctl(fd, V4L2.queryControl, &q.bytes) == 0 else { break }
            let found = q.u32(0)
            if let c = V4L2.Control(rawValue: found), q.u32(56) & V4L2.controlFlagDisabled == 0 {
                out[c] = ControlInfo(
                    control: c, name: q.string(8, 32), minimum: q.s32(40), maximum: q.s32(44), step: q.s32(48),
                    defaultValue: q.s32(52))
            }
            id = found | V4L2.controlFlagNextControl
        }
        return out
    }

    // MARK: Control mapping

    /// The V4L2 control value for an exposure duration (V4L2_CID_EXPOSURE_ABSOLUTE counts 100 µs units).
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` without that control, ``CaptureError/outOfRange(name:value:range:)``
    ///   outside the driver's range.
    public func exposureControlValue(for duration: MediaTime) throws(CaptureError) -> Int32 {
        guard let c = controls[.exposureAbsolute] else {
            throw .unsupported("\(localizedName) has no manual exposure control")
        }
        let units = (duration.seconds * 10_000).rounded()
        let range = Double(c.minimum) / 10_000...Double(c.maximum) / 10_000
        guard units >= Double(c.minimum), units <= Double(c.maximum) else {
            throw .outOfRange(name: "exposure duration", value: duration.seconds, range: range)
        }
        return Int32(units)
    }

    /// The V4L2 focus value for a lens position (0 = closest … 1 = farthest), mapped linearly onto
    /// V4L2_CID_FOCUS_ABSOLUTE, whose larger values focus closer on UVC cameras.
    public func focusControlValue(for lensPosition: Float) throws(CaptureError) -> Int32 {
        guard let c = controls[.focusAbsolute] else {
            throw .unsupported("\(localizedName) has no manual focus control")
        }
        guard (0...1).contains(lensPosition) else {
            throw .outOfRange(name: "lensPosition", value: Double(lensPosition), range: 0...1)
        }
        let span = Double(c.maximum - c.minimum)
        let raw = Double(c.maximum) - Double(lensPosition) * span
        let stepped = (raw / Double(max(c.step, 1))).rounded() * Double(max(c.step, 1))
        return Int32(min(max(stepped, Double(c.minimum)), Double(c.maximum)))
    }

    /// The V4L2 gain value for an ISO, taking the driver's minimum gain as ISO 100 and scaling linearly.
    public func gainControlValue(forISO iso: Float) throws(CaptureError) -> Int32 {
        guard let c = controls[.gain] else { throw .unsupported("\(localizedName) has no gain control") }
        let base = max(Double(c.minimum), 1)
        let value = (base * Double(iso) / 100).rounded()
        let isoRange = 100...(100 * Double(c.maximum) / base)
        guard value >= Double(c.minimum), value <= Double(c.maximum) else {
            throw .outOfRange(name: "ISO", value: Double(iso), range: isoRange)
        }
        return Int32(value)
    }

    /// The white-balance temperature control value for `kelvin`.
    public func whiteBalanceControlValue(forTemperature kelvin: Float) throws(CaptureError) -> Int32 {
        guard let c = controls[.whiteBalanceTemperature] else {
            throw .unsupported("\(localizedName) has no white-balance temperature control")
        }
        guard kelvin >= Float(c.minimum), kelvin <= Float(c.maximum) else {
            throw .outOfRange(
                name: "white-balance temperature", value: Double(kelvin), range: Double(c.minimum)...Double(c.maximum))
        }
        return Int32(kelvin.rounded())
    }

    /// Writes a control.
    public func setControl(_ control: V4L2.Control, value: Int32) throws(CaptureError) {
        var s = V4L2Struct(size: 8)
        s.set(0, control.rawValue)
        s.set(4, UInt32(bitPattern: value))
        let err = driver.ioctl(fd, V4L2.setControl, &s.bytes)
        guard err == 0 else {
            throw .systemCall(name: "VIDIOC_S_CTRL(0x\(String(control.rawValue, radix: 16)))", errno: err)
        }
    }

    /// Locks exposure: manual mode, then the duration.
    public func setExposureModeCustom(duration: MediaTime) throws(CaptureError) {
        let value = try exposureControlValue(for: duration)
        if controls[.exposureAuto] != nil { try setControl(.exposureAuto, value: 1) }  // V4L2_EXPOSURE_MANUAL
        try setControl(.exposureAbsolute, value: value)
    }

    /// Locks focus at a lens position.
    public func setFocusModeLocked(lensPosition: Float) throws(CaptureError) {
        let value = try focusControlValue(for: lensPosition)
        if controls[.focusAuto] != nil { try setControl(.focusAuto, value: 0) }
        try setControl(.focusAbsolute, value: value)
    }

    // MARK: CaptureDevice

    public var activeFormat: DeviceFormat { state.withLock { $0.format } }

    public func setActiveFormat(_ format: DeviceFormat) throws(CaptureError) {
        guard formats.contains(format) else { throw .formatNotSupported(format.description) }
        state.withLock { $0.format = format }
    }

    public var activeColorSpace: CaptureColorSpace { .sRGB }

    public func setActiveColorSpace(_ colorSpace: CaptureColorSpace) throws(CaptureError) {
        guard colorSpace == .sRGB else { throw .unsupported("V4L2 cameras deliver sRGB only") }
    }

    public var status: DeviceStatus {
        DeviceStatus(
            focusMode: .continuousAutoFocus, lensPosition: 0.5, isAdjustingFocus: false,
            exposureMode: .continuousAutoExposure,
            exposureDuration: MediaTime(value: 1, timescale: 30), iso: 100, exposureTargetOffset: 0,
            exposureTargetBias: 0,
            isAdjustingExposure: false, whiteBalanceMode: .continuousAutoWhiteBalance,
            deviceWhiteBalanceGains: .identity,
            grayWorldWhiteBalanceGains: .identity, isAdjustingWhiteBalance: false, lensAperture: 2,
            lastFrameTime: .zero, frameCount: 0)
    }

    public func values<Value: Sendable & Equatable>(of property: DeviceProperty<Value>) -> AsyncStream<Value> {
        let v = property.read(status)
        return AsyncStream {
            $0.yield(v)
            $0.finish()
        }
    }

    public func startStreaming() async throws(CaptureError) {
        throw .unsupported("V4L2 mmap streaming is not implemented yet")
    }

    public func stopStreaming() async {}

    public func nextFrame(_ configuration: StreamConfiguration) async throws(CaptureError) -> CaptureFrame {
        throw .unsupported("V4L2 mmap streaming is not implemented yet")
    }

    public func captureStill(_ request: StillRequest) async throws(CaptureError) -> StillCapture {
        throw .unsupported("V4L2 stills are not implemented yet")
    }
}
