/// The operating-system boundary of ``V4L2Camera``: the few calls it makes on a `/dev/video*` node.
///
/// The real implementation calls `open`/`ioctl`/`close`; tests inject a driver that replays recorded replies, so the
/// format and control mapping is tested without hardware (the swift-system mocking pattern).
public protocol V4L2Driver: Sendable {
    /// The device nodes present (`/dev/video0`, …).
    func deviceNodes() -> [String]
    /// Opens a node read-write; returns a descriptor or a negative errno.
    func open(_ path: String) -> Int32
    /// Closes a descriptor.
    func close(_ fd: Int32)
    /// Performs `ioctl(fd, request, argument)` on `argument.count` bytes; returns 0 or an errno.
    func ioctl(_ fd: Int32, _ request: UInt, _ argument: inout [UInt8]) -> Int32
}

/// V4L2 request codes and constants from `linux/videodev2.h` (64-bit layouts).
public enum V4L2 {
    public static let queryCapability: UInt = 0x8068_5600  // VIDIOC_QUERYCAP, struct v4l2_capability (104 bytes)
    public static let enumerateFormat: UInt = 0xC040_5602  // VIDIOC_ENUM_FMT, struct v4l2_fmtdesc (64)
    public static let enumerateFrameSizes: UInt = 0xC02C_564A  // VIDIOC_ENUM_FRAMESIZES, v4l2_frmsizeenum (44)
    public static let enumerateFrameIntervals: UInt = 0xC034_564B  // VIDIOC_ENUM_FRAMEINTERVALS, v4l2_frmivalenum (52)
    public static let queryControl: UInt = 0xC044_5624  // VIDIOC_QUERYCTRL, struct v4l2_queryctrl (68)
    public static let getControl: UInt = 0xC008_561B  // VIDIOC_G_CTRL, struct v4l2_control (8)
    public static let setControl: UInt = 0xC008_561C  // VIDIOC_S_CTRL

    public static let capabilityVideoCapture: UInt32 = 0x0000_0001
    public static let capabilityStreaming: UInt32 = 0x0400_0000
    public static let bufferTypeVideoCapture: UInt32 = 1
    public static let frameSizeDiscrete: UInt32 = 1
    public static let controlFlagNextControl: UInt32 = 0x8000_0000
    public static let controlFlagDisabled: UInt32 = 0x0001

    /// Control identifiers.
    public enum Control: UInt32, Sendable, CaseIterable {
        case autoWhiteBalance = 0x0098_090C
        case gain = 0x0098_0913
        case whiteBalanceTemperature = 0x0098_091A
        case exposureAuto = 0x009A_0901
        case exposureAbsolute = 0x009A_0902
        case focusAbsolute = 0x009A_090A
        case focusAuto = 0x009A_090C
        case exposureBias = 0x009A_0913
        case isoSensitivity = 0x009A_0917
    }

    /// A four-character pixel-format code as V4L2 stores it (little-endian).
    public static func fourCC(_ s: String) -> UInt32 {
        let b = Array(s.utf8) + [0, 0, 0, 0]
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }

    /// The text of a four-character code.
    public static func fourCCString(_ v: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) }, as: UTF8.self)
    }
}

/// Little-endian field access on a V4L2 structure held as bytes.
struct V4L2Struct {
    var bytes: [UInt8]

    init(size: Int) { bytes = [UInt8](repeating: 0, count: size) }

    func u32(_ offset: Int) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(
            bytes[offset + 3]) << 24
    }

    func s32(_ offset: Int) -> Int32 { Int32(bitPattern: u32(offset)) }

    mutating func set(_ offset: Int, _ value: UInt32) {
        guard offset + 4 <= bytes.count else { return }
        for k in 0..<4 { bytes[offset + k] = UInt8((value >> (8 * k)) & 0xFF) }
    }

    func string(_ offset: Int, _ length: Int) -> String {
        guard offset + length <= bytes.count else { return "" }
        let slice = bytes[offset..<(offset + length)]
        return String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self)
    }
}
