import LuxCodecs
import LuxPixels
import Synchronization

@testable import LuxCapture

/// A user-space fake of the kernel's side of the V4L2 contract, behind ``V4L2Driver``.
///
/// Written from the kernel documentation (Documentation/userspace-api/media/v4l, "Streaming I/O (Memory
/// Mapping)" and the ioctl pages), not from Lux's code: VIDIOC_REQBUFS allocates buffers in the dequeued state and
/// fails with EBUSY while streaming, or while another file handle owns the queue; QUERYBUF gives each buffer's length
/// and mmap offset; QBUF moves a dequeued buffer to the incoming queue (EINVAL if it is already queued); the "device"
/// fills the oldest incoming buffer when `poll` is called and moves it to the outgoing queue; DQBUF on an empty
/// outgoing queue of a non-blocking handle fails with EAGAIN; STREAMOFF returns every buffer to the dequeued state;
/// S_FMT fails with EBUSY while buffers are allocated; after an unplug every call fails with ENODEV and `poll`
/// reports POLLERR | POLLHUP. The modelled camera is a UVC webcam as `v4l2-ctl --all --list-formats-ext` lists a
/// Logitech C920 (YUYV and MJPEG up to 1920×1080, exposure 3…2047 in 100 µs, focus 0…250 step 5, gain 0…255, white
/// balance 2000…6500 K, an exposure menu with manual and aperture-priority items), plus small NV12 and 10-bit RGGB
/// Bayer formats with a black level control, for tests.
final class FakeV4L2Kernel: V4L2Driver {
    struct Format {
        var fourCC: String
        var name: String
        var sizes: [(width: Int, height: Int, rates: [Int])]
    }

    static let formats: [Format] = [
        Format(
            fourCC: "YUYV", name: "YUYV 4:2:2", sizes: [(640, 480, [30, 15]), (1280, 720, [10, 5]), (32, 16, [30])]),
        Format(fourCC: "MJPG", name: "Motion-JPEG", sizes: [(640, 480, [30, 15]), (1920, 1080, [30, 24])]),
        Format(fourCC: "H264", name: "H.264", sizes: [(1920, 1080, [30])]),
        Format(fourCC: "NV12", name: "Y/UV 4:2:0", sizes: [(16, 8, [30])]),
        Format(fourCC: "RG10", name: "10-bit Bayer RGRG/GBGB", sizes: [(8, 4, [30]), (32, 24, [15])]),
    ]

    typealias Control = (id: UInt32, type: UInt32, name: String, min: Int32, max: Int32, step: Int32, def: Int32)

    static let controls: [Control] = [
        (0x0098_0900, 6, "User Controls", 0, 0, 0, 0),
        (0x0098_090B, 1, "Black Level", 0, 1023, 1, 64),
        (0x0098_090C, 2, "White Balance Temperature, Auto", 0, 1, 1, 1),
        (0x0098_0913, 1, "Gain", 0, 255, 1, 0),
        (0x0098_091A, 1, "White Balance Temperature", 2000, 6500, 1, 4000),
        (0x009A_0901, 3, "Exposure, Auto", 0, 3, 1, 3),
        (0x009A_0902, 1, "Exposure (Absolute)", 3, 2047, 1, 250),
        (0x009A_090A, 1, "Focus (absolute)", 0, 250, 5, 0),
        (0x009A_090C, 2, "Focus, Auto", 0, 1, 1, 1),
    ]

    /// The image-processing controls of a raw-sensor camera module (not the C920).
    ///
    /// Red and blue balance (units of 1/128, default 128: gain 1), the 3A lock bitmask, the autofocus start and stop buttons and the read-only,
    /// volatile autofocus status bitmask. Buttons are write-only (VIDIOC_G_CTRL fails with EACCES); the status is set
    /// by the "device": busy after a start, idle after a stop.
    static let sensorControls: [Control] = [
        (0x0098_090E, 1, "Red Balance", 0, 512, 1, 128),
        (0x0098_090F, 1, "Blue Balance", 0, 512, 1, 128),
        (0x009A_091B, 8, "3A Lock", 0, 7, 0, 0),
        (0x009A_091C, 4, "Auto Focus, Start", 0, 0, 0, 0),
        (0x009A_091D, 4, "Auto Focus, Stop", 0, 0, 0, 0),
        (0x009A_091E, 8, "Auto Focus, Status", 0, 7, 0, 0),
    ]

    /// V4L2_CTRL_FLAG_* of a control: buttons are write-only, the autofocus status read-only and volatile.
    static func flags(_ c: Control) -> UInt32 {
        if c.type == 4 { return 0x0040 }
        return c.id == 0x009A_091E ? 0x0004 | 0x0080 : 0
    }

    /// UVC cameras offer only these items of the exposure menu (index → name).
    static let exposureMenu: [Int32: String] = [1: "Manual Mode", 3: "Aperture Priority Mode"]

    enum BufferState { case dequeued, queued, done }

    struct Buffer {
        var memory: UnsafeMutableRawPointer
        var length: Int
        var state: BufferState = .dequeued
        var bytesUsed = 0
        var sequence: UInt32 = 0
        var timestampMicroseconds: Int64 = 0
        var isMapped = false
    }

    struct Kernel: @unchecked Sendable {
        var fourCC = "YUYV"
        var width = 640
        var height = 480
        var interval = (numerator: 1, denominator: 30)
        var buffers: [Buffer] = []
        var streaming = false
        var sequence: UInt32 = 0
        var controls = FakeV4L2Kernel.controls
        var values: [UInt32: Int32] = Dictionary(uniqueKeysWithValues: FakeV4L2Kernel.controls.map { ($0.id, $0.def) })
        var written: [(UInt32, Int32)] = []
        var unplugged = false
        var stalled = false
        var anotherProcessOwnsQueue = false
        var spuriousWakeups = 0
        var mapped = 0
        var sFmtCalls: [(String, Int, Int)] = []
        /// When set, `open` fails with this errno (EACCES: the user left the `video` group).
        var openErrno: Int32?
        /// Further device nodes, each failing `open` with its errno.
        var otherNodes: [String: Int32] = [:]
        /// Frames the "hardware" corrupts: DQBUF returns them with V4L2_BUF_FLAG_ERROR.
        var corruptFrames = 0
    }

    let kernel: Mutex<Kernel>

    /// A camera with the C920's controls plus `extraControls`.
    init(extraControls: [Control] = []) {
        var k = Kernel()
        k.controls = (Self.controls + extraControls).sorted { $0.id < $1.id }
        for c in extraControls where c.type != 4 { k.values[c.id] = c.def }
        kernel = Mutex(k)
    }

    deinit { kernel.withLock { k in for b in k.buffers { b.memory.deallocate() } } }

    func deviceNodes() -> [String] { ["/dev/video0"] + kernel.withLock { $0.otherNodes.keys.sorted() } }

    func open(_ path: String) -> Int32 {
        if kernel.withLock({ $0.unplugged }) { return -2 }
        if let e = kernel.withLock({ $0.openErrno ?? $0.otherNodes[path] }) { return -e }
        return path == "/dev/video0" ? 3 : -2
    }

    func close(_ fd: Int32) {}

    func map(_ fd: Int32, length: Int, offset: Int) throws(CaptureError) -> UnsafeMutableRawPointer {
        let found = kernel.withLock { k -> UnsafeMutableRawPointer? in
            let index = offset / 4096
            guard k.buffers.indices.contains(index), offset % 4096 == 0, length <= k.buffers[index].length else {
                return nil
            }
            k.buffers[index].isMapped = true
            k.mapped += 1
            return k.buffers[index].memory
        }
        guard let found else { throw .systemCall(name: "mmap", errno: 22) }
        return found
    }

    func unmap(_ address: UnsafeMutableRawPointer, length: Int) {
        kernel.withLock { $0.mapped -= 1 }
    }

    func poll(_ fd: Int32, timeout: Duration) -> V4L2Readiness {
        kernel.withLock { k in
            if k.unplugged { return [.error, .hangUp] }
            guard k.streaming else { return [.error] }
            if k.stalled { return [] }
            if k.spuriousWakeups > 0 {
                k.spuriousWakeups -= 1
                return [.readable]
            }
            if !k.buffers.contains(where: { $0.state == .done }) {
                guard let i = k.buffers.firstIndex(where: { $0.state == .queued }) else { return [.error] }
                Self.fill(&k, buffer: i)
            }
            return [.readable]
        }
    }

    func monotonicTime() -> Duration { .zero }

    /// The pixel pattern of frame `sequence`.
    static func fill(_ k: inout Kernel, buffer i: Int) {
        let b = k.buffers[i]
        let w = k.width
        let h = k.height
        var bytes: [UInt8]
        switch k.fourCC {
        case "YUYV":
            // BT.601 video range: Y 81, Cb 90, Cr 240 is pure red; Y 41, Cb 240, Cr 110 is pure blue.
            bytes = []
            for _ in 0..<h {
                for x in stride(from: 0, to: w, by: 2) {
                    bytes += x < w / 2 ? [81, 90, 81, 240] : [41, 240, 41, 110]
                }
            }
        case "NV12":
            bytes = (0..<(w * h)).map { UInt8(truncatingIfNeeded: $0 + Int(k.sequence)) }
            bytes += (0..<(w * h / 2)).map { UInt8(truncatingIfNeeded: 100 + $0) }
        case "RG10":
            bytes = []
            for y in 0..<h {
                for x in 0..<w {
                    let v: UInt16 = y % 2 == 0 ? (x % 2 == 0 ? 900 : 500) : (x % 2 == 0 ? 500 : 100)
                    bytes += [UInt8(v & 0xFF), UInt8(v >> 8)]
                }
            }
        default:
            let image = PixelBuffer(
                width: w, height: h, format: .rgba8,
                components: [UInt8]((0..<(w * h)).flatMap { _ in [0, 200, 0, 255] }))
            bytes = (try? JPEG.encode(image)) ?? []
        }
        let n = min(bytes.count, b.length)
        bytes.withUnsafeBytes { b.memory.copyMemory(from: $0.baseAddress!, byteCount: n) }
        k.buffers[i].bytesUsed = n
        k.buffers[i].state = .done
        k.buffers[i].sequence = k.sequence
        k.buffers[i].timestampMicroseconds =
            1_000_000_000 + Int64(k.sequence) * 1_000_000 * Int64(k.interval.numerator) / Int64(k.interval.denominator)
        k.sequence += 1
    }

    static func frameBytes(_ k: Kernel) -> Int {
        switch k.fourCC {
        case "NV12": k.width * k.height * 3 / 2
        case "MJPG": k.width * k.height * 4 + 4096
        default: k.width * k.height * 2
        }
    }

    func ioctl(_ fd: Int32, _ request: UInt, _ argument: inout [UInt8]) -> Int32 {
        var s = V4L2Struct(bytes: argument)
        defer { argument = s.bytes }
        return kernel.withLock { k in
            if k.unplugged { return 19 }  // ENODEV
            return Self.handle(&k, request, &s)
        }
    }

    static func handle(_ k: inout Kernel, _ request: UInt, _ s: inout V4L2Struct) -> Int32 {
        let einval: Int32 = 22
        switch request {
        case V4L2.queryCapability:
            s.set(0, string: "uvcvideo", length: 16)
            s.set(16, string: "HD Pro Webcam C920", length: 32)
            s.set(48, string: "usb-0000:00:14.0-1", length: 32)
            s.set(80, UInt32(0x0006_0B00))
            s.set(84, UInt32(0x84A0_0001))
            s.set(88, UInt32(0x0420_0001))
            return 0
        case V4L2.enumerateFormat:
            let i = Int(s.u32(0))
            guard i < formats.count else { return einval }
            s.set(12, string: formats[i].name, length: 32)
            s.set(44, V4L2.fourCC(formats[i].fourCC))
            return 0
        case V4L2.enumerateFrameSizes:
            guard let f = formats.first(where: { V4L2.fourCC($0.fourCC) == s.u32(4) }) else { return einval }
            let i = Int(s.u32(0))
            guard i < f.sizes.count else { return einval }
            s.set(8, V4L2.frameSizeDiscrete)
            s.set(12, UInt32(f.sizes[i].width))
            s.set(16, UInt32(f.sizes[i].height))
            return 0
        case V4L2.enumerateFrameIntervals:
            guard let f = formats.first(where: { V4L2.fourCC($0.fourCC) == s.u32(4) }),
                let size = f.sizes.first(where: { UInt32($0.width) == s.u32(8) && UInt32($0.height) == s.u32(12) })
            else { return einval }
            let i = Int(s.u32(0))
            guard i < size.rates.count else { return einval }
            s.set(16, V4L2.frameSizeDiscrete)
            s.set(20, UInt32(1))
            s.set(24, UInt32(size.rates[i]))
            return 0
        case V4L2.queryControl:
            let id = s.u32(0)
            let next = id & V4L2.controlFlagNextControl != 0
            let base = id & ~V4L2.controlFlagNextControl
            guard let c = (next ? k.controls.first { $0.id > base } : k.controls.first { $0.id == base }) else {
                return einval
            }
            s.set(0, c.id)
            s.set(4, c.type)
            s.set(8, string: c.name, length: 32)
            s.set(40, c.min)
            s.set(44, c.max)
            s.set(48, c.step)
            s.set(52, c.def)
            s.set(56, flags(c))
            return 0
        case V4L2.queryMenu:
            guard s.u32(0) == V4L2.Control.exposureAuto.rawValue, let name = exposureMenu[s.s32(4)] else {
                return einval
            }
            s.set(8, string: name, length: 32)
            return 0
        case V4L2.getControl:
            guard let c = k.controls.first(where: { $0.id == s.u32(0) }) else { return einval }
            if flags(c) & 0x0040 != 0 { return 13 }  // EACCES: write-only
            guard let v = k.values[c.id] else { return einval }
            s.set(4, v)
            return 0
        case V4L2.setControl:
            let id = s.u32(0)
            let v = s.s32(4)
            guard let c = k.controls.first(where: { $0.id == id }) else { return einval }
            if flags(c) & 0x0004 != 0 { return 13 }  // EACCES: read-only
            if c.type == 4 {
                // The autofocus buttons: a scan starts (status busy) or stops (idle).
                k.values[V4L2.Control.autoFocusStatus.rawValue] = id == V4L2.Control.autoFocusStart.rawValue ? 1 : 0
                k.written.append((id, v))
                return 0
            }
            if id == V4L2.Control.exposureAuto.rawValue, exposureMenu[v] == nil { return einval }
            guard v >= c.min, v <= c.max else { return 34 }  // ERANGE
            k.values[id] = v
            k.written.append((id, v))
            return 0
        case V4L2.getFormat, V4L2.setFormat:
            if request == V4L2.setFormat {
                guard k.buffers.isEmpty else { return 16 }  // EBUSY: buffers are allocated
                let code = V4L2.fourCCString(s.u32(16))
                let w = Int(s.u32(8))
                let h = Int(s.u32(12))
                guard let f = formats.first(where: { $0.fourCC == code }) else { return einval }
                // The driver picks the nearest size it has (here: the first of the format when none matches).
                let size = f.sizes.first { $0.width == w && $0.height == h } ?? f.sizes[0]
                k.fourCC = code
                k.width = size.width
                k.height = size.height
                k.sFmtCalls.append((code, size.width, size.height))
            }
            s.set(8, UInt32(k.width))
            s.set(12, UInt32(k.height))
            s.set(16, V4L2.fourCC(k.fourCC))
            s.set(20, V4L2.fieldNone)
            let bpl = k.fourCC == "MJPG" ? 0 : k.fourCC == "NV12" ? k.width : k.width * 2
            s.set(24, UInt32(bpl))
            s.set(28, UInt32(frameBytes(k)))
            return 0
        case V4L2.getParameters, V4L2.setParameters:
            if request == V4L2.setParameters {
                let num = Int(s.u32(12))
                let den = Int(s.u32(16))
                guard num > 0, den > 0 else { return einval }
                k.interval = (num, den)
            }
            s.set(4, V4L2.capabilityTimePerFrame)
            s.set(12, UInt32(k.interval.numerator))
            s.set(16, UInt32(k.interval.denominator))
            return 0
        case V4L2.requestBuffers:
            guard s.u32(4) == V4L2.bufferTypeVideoCapture, s.u32(8) == V4L2.memoryMMAP else { return einval }
            if k.anotherProcessOwnsQueue || k.streaming { return 16 }
            if s.u32(0) == 0, k.mapped > 0 { return 16 }  // EBUSY: buffers still mapped
            for b in k.buffers { b.memory.deallocate() }
            k.buffers = []
            let count = min(Int(s.u32(0)), 3)  // the driver grants at most three
            let length = (frameBytes(k) + 4095) / 4096 * 4096
            for _ in 0..<count {
                k.buffers.append(
                    Buffer(memory: UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 4096), length: length)
                )
            }
            s.set(0, UInt32(count))
            return 0
        case V4L2.queryBuffer, V4L2.queueBuffer:
            let i = Int(s.u32(0))
            guard s.u32(4) == V4L2.bufferTypeVideoCapture, k.buffers.indices.contains(i) else { return einval }
            if request == V4L2.queueBuffer {
                guard k.buffers[i].state == .dequeued else { return einval }
                k.buffers[i].state = .queued
            }
            let b = k.buffers[i]
            var flags: UInt32 = b.isMapped ? V4L2.BufferFlag.mapped : 0
            if b.state == .queued { flags |= V4L2.BufferFlag.queued }
            if b.state == .done { flags |= V4L2.BufferFlag.done }
            s.set(12, flags)
            s.set(64, UInt32(i * 4096))
            s.set(72, UInt32(b.length))
            return 0
        case V4L2.dequeueBuffer:
            guard k.streaming else { return einval }
            guard
                let i = k.buffers.indices.filter({ k.buffers[$0].state == .done }).min(by: {
                    k.buffers[$0].sequence < k.buffers[$1].sequence
                })
            else { return 11 }  // EAGAIN
            k.buffers[i].state = .dequeued
            let b = k.buffers[i]
            s.set(0, UInt32(i))
            s.set(8, UInt32(b.bytesUsed))
            var flags = V4L2.BufferFlag.mapped | V4L2.BufferFlag.timestampMonotonic
            if k.corruptFrames > 0 {
                k.corruptFrames -= 1
                flags |= V4L2.BufferFlag.error
            }
            s.set(12, flags)
            s.set(24, Int64(b.timestampMicroseconds / 1_000_000))
            s.set(32, Int64(b.timestampMicroseconds % 1_000_000))
            s.set(56, b.sequence)
            return 0
        case V4L2.streamOn:
            guard !k.buffers.isEmpty else { return einval }
            k.streaming = true
            k.sequence = 0  // the sequence count restarts with each stream
            return 0
        case V4L2.streamOff:
            k.streaming = false
            for i in k.buffers.indices { k.buffers[i].state = .dequeued }
            return 0
        default:
            return 25  // ENOTTY
        }
    }
}
