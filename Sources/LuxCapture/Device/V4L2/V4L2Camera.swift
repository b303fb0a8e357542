import Glibc
import LuxColor
public import LuxPixels
import Synchronization

/// A real Linux camera through Video4Linux2: streams memory-mapped buffers (YUYV, MJPEG, NV12 and Bayer
/// 8/10/12/16-bit), takes stills from the stream, and maps the device's controls onto the manual controls of
/// ``CaptureDevice``.
///
/// Formats come from VIDIOC_ENUM_FMT, ENUM_FRAMESIZES and ENUM_FRAMEINTERVALS, one ``DeviceFormat`` per pixel
/// format and frame size, with the device's frame rates; choose one with ``setActiveFormat(_:)`` and a rate with
/// ``setActiveFrameRate(_:)``, as on the simulated camera. Controls come from VIDIOC_QUERYCTRL and QUERYMENU:
/// exposure mode and absolute exposure time → duration, gain → ISO, focus-auto and absolute focus → focus mode
/// and lens position, white-balance-auto and temperature → white balance, red and blue balance → white-balance gains,
/// the 3A lock → the locked modes; ``controlCapabilities`` says which exist, and ``status`` reads the device's values
/// back.
///
/// Faults are typed: another process streaming from the camera is ``CaptureError/deviceBusy(_:)``, an unplugged
/// camera ``CaptureError/deviceDisconnected(_:)`` (frames already delivered are copies and stay valid), and a
/// camera that stops delivering frames ``CaptureError/timedOut(_:)`` after ``Configuration/frameTimeout``.
///
/// - Important: Tested against a user-space fake of the kernel's V4L2 contract (buffer states, EAGAIN, EBUSY,
///   ENODEV), not on real hardware here; see the README. Raspberry Pi CSI cameras need libcamera and are not
///   supported.
///
/// ```swift
/// let camera = try V4L2Camera(path: "/dev/video0")
/// try await camera.startStreaming()
/// let frame = try await camera.nextFrame(StreamConfiguration())
/// await camera.stopStreaming()
/// ```
public final class V4L2Camera: CaptureDevice {
    /// How the camera streams.
    public struct Configuration: Hashable, Sendable {
        /// Buffers requested with VIDIOC_REQBUFS (the driver may grant fewer).
        public var bufferCount = 4
        /// How long ``nextFrame(_:)`` waits for a frame before throwing ``CaptureError/timedOut(_:)``.
        public var frameTimeout: Duration = .seconds(2)
        /// Frames a control change takes to show: V4L2 applies controls asynchronously and does not say when, so the
        /// sync times the setters return are estimates this many frames after the next one.
        public var controlLatencyFrames = 2
        /// Frames dropped after the stream restarts for a still at another resolution, while exposure settles.
        public var stillWarmUpFrames = 2

        /// Creates a configuration.
        public init() {}
    }

    public let uniqueID: String
    public let localizedName: String
    /// The device node (`/dev/video0`).
    public let path: String
    /// The driver name (such as "uvcvideo").
    public let driverName: String
    public let formats: [DeviceFormat]
    /// The controls the device offers that Lux maps.
    public let controls: [V4L2.Control: V4L2ControlInfo]
    /// How the camera streams.
    public let configuration: Configuration
    let driver: any V4L2Driver
    let fd: Int32
    let state: Mutex<State>

    /// The V4L2 cameras on this machine (video-capture nodes that stream a format Lux reads).
    public static func devices(driver: any V4L2Driver = SystemV4L2Driver()) -> [V4L2Camera] {
        driver.deviceNodes().compactMap { try? V4L2Camera(path: $0, driver: driver) }
    }

    /// Opens a device node read-write and reads its formats and controls.
    ///
    /// - Throws: ``CaptureError/deviceUnavailable(_:)`` when the node does not exist,
    ///   ``CaptureError/accessDenied(mediaType:reason:)`` when the process may not open it,
    ///   ``CaptureError/deviceBusy(_:)`` when another process holds it, ``CaptureError/systemCall(name:errno:)`` for
    ///   other failures, ``CaptureError/unsupported(_:)`` when the node cannot stream video in a format Lux reads.
    public init(
        path: String, driver: any V4L2Driver = SystemV4L2Driver(), configuration: Configuration = Configuration()
    ) throws(CaptureError) {
        self.driver = driver
        self.path = path
        self.configuration = configuration
        let fd = driver.open(path)
        guard fd >= 0 else { throw Self.error(errno: -fd, call: "open", path: path) }
        self.fd = fd
        var cap = V4L2Struct(size: V4L2.Layout.capability)
        let err = driver.ioctl(fd, V4L2.queryCapability, &cap.bytes)
        guard err == 0 else {
            driver.close(fd)
            throw Self.error(errno: err, call: "VIDIOC_QUERYCAP", path: path)
        }
        driverName = cap.string(0, 16)
        localizedName = cap.string(16, 32)
        uniqueID = "v4l2:" + cap.string(48, 32)
        let all = cap.u32(84)
        let caps = all & V4L2.capabilityDeviceCaps != 0 ? cap.u32(88) : all
        guard caps & V4L2.capabilityVideoCapture != 0, caps & V4L2.capabilityStreaming != 0 else {
            driver.close(fd)
            throw .unsupported("\(path) (\(localizedName)) is not a streaming video-capture device")
        }
        let controls = Self.enumerateControls(fd: fd, driver: driver)
        self.controls = controls
        let ranges = ControlRanges(controls: controls)
        formats = Self.enumerateFormats(fd: fd, driver: driver).map { ranges.apply(to: $0) }
        guard let first = formats.first else {
            driver.close(fd)
            throw .unsupported("\(path) (\(localizedName)) offers no YUYV, MJPEG, NV12 or Bayer format")
        }
        state = Mutex(State(format: first, controls: controls))
    }

    deinit {
        state.withLock { s in
            if let stream = s.stream { stream.release(driver: driver) }
            s.stream = nil
        }
        driver.close(fd)
    }

    /// The typed error for an errno of a call on `path`.
    static func error(errno: Int32, call: String, path: String) -> CaptureError {
        switch errno {
        case ENOENT, ENXIO: .deviceUnavailable("\(path) does not exist")
        case EACCES, EPERM:
            .accessDenied(
                mediaType: .video,
                reason: "\(path): " + CaptureAuthorization.explain(errno: errno, mediaType: .video))
        case EBUSY: .deviceBusy(path)
        case ENODEV: .deviceDisconnected(path)
        default: .systemCall(name: "\(call)(\(path))", errno: errno)
        }
    }

    /// Performs an ioctl, throwing its typed error.
    func ioctl(_ request: UInt, _ name: String, _ s: inout V4L2Struct) throws(CaptureError) {
        let err = driver.ioctl(fd, request, &s.bytes)
        guard err == 0 else { throw Self.error(errno: err, call: name, path: path) }
    }

    // MARK: Enumeration

    static func enumerateFormats(fd: Int32, driver: any V4L2Driver) -> [DeviceFormat] {
        var out: [DeviceFormat] = []
        for index in 0..<64 {
            var desc = V4L2Struct(size: V4L2.Layout.formatDescription)
            desc.set(0, UInt32(index))
            desc.set(4, V4L2.bufferTypeVideoCapture)
            guard driver.ioctl(fd, V4L2.enumerateFormat, &desc.bytes) == 0 else { break }
            let code = desc.u32(44)
            guard let pixel = V4L2PixelFormat.all[V4L2.fourCCString(code)] else { continue }
            for (w, h) in frameSizes(fd: fd, driver: driver, fourCC: code) {
                let rates = frameRates(fd: fd, driver: driver, fourCC: code, width: w, height: h)
                guard let lowest = rates.range.first, let highest = rates.range.last else { continue }
                var format = DeviceFormat(
                    width: w, height: h, pixelFormat: pixel.deliveredFormat, frameRateRange: lowest...highest,
                    isPhotoFormat: false, supportsHighPhotoQuality: false, supportedColorSpaces: [.sRGB],
                    minISO: 100, maxISO: 100, minExposureDuration: DeviceFormat.frameDuration(fps: highest),
                    maxExposureDuration: DeviceFormat.frameDuration(fps: highest), maxWhiteBalanceGain: 1,
                    exposureTargetBiasRange: 0...0, maxBracketedCapturePhotoCount: 1, supportsRAW: pixel.isBayer,
                    supportsLivePhoto: false, streamWidth: w, streamHeight: h, sensorRegionOrigin: .zero,
                    sensorRegionSize: SIMD2(1, Double(h) / Double(w)), fieldOfView: 60)
                format.supportedFrameRates = rates.discrete
                format.mediaSubType = pixel.fourCC
                out.append(format)
            }
        }
        return out
    }

    /// The frame sizes of a pixel format: every discrete size, or the smallest and largest of a stepwise range.
    static func frameSizes(fd: Int32, driver: any V4L2Driver, fourCC: UInt32) -> [(Int, Int)] {
        var sizes: [(Int, Int)] = []
        for index in 0..<64 {
            var size = V4L2Struct(size: V4L2.Layout.frameSizeEnumeration)
            size.set(0, UInt32(index))
            size.set(4, fourCC)
            guard driver.ioctl(fd, V4L2.enumerateFrameSizes, &size.bytes) == 0 else { break }
            if size.u32(8) == V4L2.frameSizeDiscrete {
                sizes.append((Int(size.u32(12)), Int(size.u32(16))))
            } else {
                // Stepwise or continuous: min_width, max_width, step_width, min_height, max_height, step_height.
                sizes.append((Int(size.u32(12)), Int(size.u32(24))))
                sizes.append((Int(size.u32(16)), Int(size.u32(28))))
                break
            }
        }
        return sizes.filter { $0.0 > 0 && $0.1 > 0 }
    }

    /// The frame rates of a size, ascending, and whether only those (`discrete`) or any in the range work.
    static func frameRates(fd: Int32, driver: any V4L2Driver, fourCC: UInt32, width: Int, height: Int)
        -> (range: [Double], discrete: [Double])
    {
        var rates: [Double] = []
        for index in 0..<64 {
            var ival = V4L2Struct(size: V4L2.Layout.frameIntervalEnumeration)
            ival.set(0, UInt32(index))
            ival.set(4, fourCC)
            ival.set(8, UInt32(width))
            ival.set(12, UInt32(height))
            guard driver.ioctl(fd, V4L2.enumerateFrameIntervals, &ival.bytes) == 0 else { break }
            func rate(_ offset: Int) -> Double? {
                let num = Double(ival.u32(offset))
                let den = Double(ival.u32(offset + 4))
                return num > 0 && den > 0 ? den / num : nil
            }
            if ival.u32(16) == V4L2.frameSizeDiscrete {
                if let r = rate(20) { rates.append(r) }
            } else {
                // Stepwise or continuous: the shortest interval is the highest rate.
                let r = [rate(20), rate(28)].compactMap { $0 }.sorted()
                return (r, [])
            }
        }
        let sorted = Array(Set(rates)).sorted()
        return (sorted, sorted)
    }

    static func enumerateControls(fd: Int32, driver: any V4L2Driver) -> [V4L2.Control: V4L2ControlInfo] {
        var out: [V4L2.Control: V4L2ControlInfo] = [:]
        var id = V4L2.controlFlagNextControl
        for _ in 0..<512 {
            var q = V4L2Struct(size: V4L2.Layout.queryControl)
            q.set(0, id)
            guard driver.ioctl(fd, V4L2.queryControl, &q.bytes) == 0 else { break }
            let found = q.u32(0)
            let flags = q.u32(56)
            if let c = V4L2.Control(rawValue: found), flags & V4L2.controlFlagDisabled == 0 {
                var info = V4L2ControlInfo(
                    control: c, name: q.string(8, 32), type: q.u32(4), minimum: q.s32(40), maximum: q.s32(44),
                    step: q.s32(48), defaultValue: q.s32(52), flags: flags)
                if info.type == V4L2.ControlType.menu.rawValue || info.type == V4L2.ControlType.integerMenu.rawValue {
                    for index in info.minimum...max(info.minimum, min(info.maximum, info.minimum + 63)) {
                        var m = V4L2Struct(size: V4L2.Layout.queryMenu)
                        m.set(0, found)
                        m.set(4, UInt32(bitPattern: index))
                        guard driver.ioctl(fd, V4L2.queryMenu, &m.bytes) == 0 else { continue }
                        if info.type == V4L2.ControlType.menu.rawValue {
                            info.menuItems[index] = m.string(8, 32)
                        } else {
                            info.integerMenuItems[index] = m.s64(8)
                        }
                    }
                }
                out[c] = info
            }
            id = found | V4L2.controlFlagNextControl
        }
        return out
    }

    // MARK: Formats

    public var activeFormat: DeviceFormat { state.withLock { $0.format } }
    /// The Bayer mosaic (16 bits a sample, at the device's bit depth) when the active format is a Bayer format.
    public var rawPixelFormat: PixelFormat? {
        let format = activeFormat
        return format.supportsRAW ? format.pixelFormat : nil
    }

    /// Switches format; while streaming, the stream restarts in the new format before the next frame.
    ///
    /// - Throws: ``CaptureError/formatNotSupported(_:)`` for a format not in ``formats``.
    public func setActiveFormat(_ format: DeviceFormat) throws(CaptureError) {
        guard formats.contains(format) else { throw .formatNotSupported(format.description) }
        state.withLock { s in
            guard s.format != format else { return }
            s.format = format
            s.frameDuration = format.minFrameDuration
            if s.stream != nil { s.needsRestart = true }
        }
    }

    public var activeFrameDuration: MediaTime { state.withLock { $0.frameDuration } }

    /// Sets the frame rate (VIDIOC_S_PARM).
    ///
    /// The rate must be one of the format's ``DeviceFormat/supportedFrameRates`` when it lists them, else any rate in
    /// its range. While streaming, the stream restarts at the new rate before the next frame.
    public func setActiveFrameRate(_ fps: Double) throws(CaptureError) {
        let format = activeFormat
        guard format.frameRateRange.contains(fps) else {
            throw .outOfRange(name: "frame rate", value: fps, range: format.frameRateRange)
        }
        if !format.supportedFrameRates.isEmpty, !format.supportedFrameRates.contains(where: { abs($0 - fps) < 1e-6 }) {
            throw .unsupported(
                "\(localizedName) runs \(format.mediaSubType) \(format.width)x\(format.height) at "
                    + format.supportedFrameRates.map { "\($0)" }.joined(separator: ", ") + " fps only")
        }
        state.withLock { s in
            let duration = DeviceFormat.frameDuration(fps: fps)
            guard s.frameDuration != duration else { return }
            s.frameDuration = duration
            if s.stream != nil { s.needsRestart = true }
        }
    }

    public var activeColorSpace: CaptureColorSpace { .sRGB }

    public func setActiveColorSpace(_ colorSpace: CaptureColorSpace) throws(CaptureError) {
        guard colorSpace == .sRGB else { throw .unsupported("V4L2 cameras deliver sRGB only") }
    }

    public func values<Value: Sendable & Equatable>(of property: DeviceProperty<Value>) -> AsyncStream<Value> {
        let v = property.read(status)
        return AsyncStream {
            $0.yield(v)
            $0.finish()
        }
    }

    /// Whether this process may use the camera: opening the node read-write succeeds.
    public func accessStatus() -> AuthorizationStatus {
        let probe = driver.open(path)
        guard probe >= 0 else {
            return .denied(reason: "\(path): " + CaptureAuthorization.explain(errno: -probe, mediaType: .video))
        }
        driver.close(probe)
        return .authorized
    }
}
