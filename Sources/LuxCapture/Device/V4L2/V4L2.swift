/// Names for the Video4Linux2 request codes, flags and control identifiers of `linux/videodev2.h` and
/// `linux/v4l2-controls.h` that ``V4L2Camera`` uses (64-bit structure layouts).
///
/// Request codes are computed as the kernel's `_IOR`/`_IOW`/`_IOWR` macros compute them, from the
/// structure's size, so a layout and its request code cannot disagree.
public enum V4L2 {
    // MARK: Request codes

    /// `_IOC(direction, 'V', number, size)`.
    static func request(read: Bool, write: Bool, number: UInt, size: Int) -> UInt {
        let direction: UInt = (write ? 1 : 0) | (read ? 2 : 0)
        return direction << 30 | UInt(size) << 16 | UInt(UInt8(ascii: "V")) << 8 | number
    }

    /// VIDIOC_QUERYCAP (`struct v4l2_capability`, 104 bytes).
    public static let queryCapability = request(read: true, write: false, number: 0, size: Layout.capability)
    /// VIDIOC_ENUM_FMT (`struct v4l2_fmtdesc`, 64 bytes).
    public static let enumerateFormat = request(read: true, write: true, number: 2, size: Layout.formatDescription)
    /// VIDIOC_G_FMT (`struct v4l2_format`, 208 bytes).
    public static let getFormat = request(read: true, write: true, number: 4, size: Layout.format)
    /// VIDIOC_S_FMT.
    public static let setFormat = request(read: true, write: true, number: 5, size: Layout.format)
    /// VIDIOC_REQBUFS (`struct v4l2_requestbuffers`, 20 bytes).
    public static let requestBuffers = request(read: true, write: true, number: 8, size: Layout.requestBuffers)
    /// VIDIOC_QUERYBUF (`struct v4l2_buffer`, 88 bytes).
    public static let queryBuffer = request(read: true, write: true, number: 9, size: Layout.buffer)
    /// VIDIOC_QBUF.
    public static let queueBuffer = request(read: true, write: true, number: 15, size: Layout.buffer)
    /// VIDIOC_DQBUF.
    public static let dequeueBuffer = request(read: true, write: true, number: 17, size: Layout.buffer)
    /// VIDIOC_STREAMON (an `int` buffer type).
    public static let streamOn = request(read: false, write: true, number: 18, size: 4)
    /// VIDIOC_STREAMOFF.
    public static let streamOff = request(read: false, write: true, number: 19, size: 4)
    /// VIDIOC_G_PARM (`struct v4l2_streamparm`, 204 bytes).
    public static let getParameters = request(read: true, write: true, number: 21, size: Layout.streamParameters)
    /// VIDIOC_S_PARM.
    public static let setParameters = request(read: true, write: true, number: 22, size: Layout.streamParameters)
    /// VIDIOC_G_CTRL (`struct v4l2_control`, 8 bytes).
    public static let getControl = request(read: true, write: true, number: 27, size: Layout.control)
    /// VIDIOC_S_CTRL.
    public static let setControl = request(read: true, write: true, number: 28, size: Layout.control)
    /// VIDIOC_QUERYCTRL (`struct v4l2_queryctrl`, 68 bytes).
    public static let queryControl = request(read: true, write: true, number: 36, size: Layout.queryControl)
    /// VIDIOC_QUERYMENU (`struct v4l2_querymenu`, 44 bytes, packed).
    public static let queryMenu = request(read: true, write: true, number: 37, size: Layout.queryMenu)
    /// VIDIOC_ENUM_FRAMESIZES (`struct v4l2_frmsizeenum`, 44 bytes).
    public static let enumerateFrameSizes = request(
        read: true, write: true, number: 74, size: Layout.frameSizeEnumeration)
    /// VIDIOC_ENUM_FRAMEINTERVALS (`struct v4l2_frmivalenum`, 52 bytes).
    public static let enumerateFrameIntervals = request(
        read: true, write: true, number: 75, size: Layout.frameIntervalEnumeration)

    /// Structure sizes on 64-bit Linux.
    enum Layout {
        static let capability = 104
        static let formatDescription = 64
        static let format = 208
        static let requestBuffers = 20
        static let buffer = 88
        static let streamParameters = 204
        static let control = 8
        static let queryControl = 68
        static let queryMenu = 44
        static let frameSizeEnumeration = 44
        static let frameIntervalEnumeration = 52
    }

    // MARK: Constants

    /// V4L2_CAP_VIDEO_CAPTURE.
    public static let capabilityVideoCapture: UInt32 = 0x0000_0001
    /// V4L2_CAP_TIMEPERFRAME (in `v4l2_captureparm.capability`): the frame interval can be set.
    public static let capabilityTimePerFrame: UInt32 = 0x1000
    /// V4L2_CAP_STREAMING.
    public static let capabilityStreaming: UInt32 = 0x0400_0000
    /// V4L2_CAP_DEVICE_CAPS: `device_caps` is filled in.
    public static let capabilityDeviceCaps: UInt32 = 0x8000_0000
    /// V4L2_BUF_TYPE_VIDEO_CAPTURE.
    public static let bufferTypeVideoCapture: UInt32 = 1
    /// V4L2_MEMORY_MMAP.
    public static let memoryMMAP: UInt32 = 1
    /// V4L2_FIELD_NONE (progressive frames).
    public static let fieldNone: UInt32 = 1
    /// V4L2_FRMSIZE_TYPE_DISCRETE / V4L2_FRMIVAL_TYPE_DISCRETE.
    public static let frameSizeDiscrete: UInt32 = 1
    /// V4L2_FRMSIZE_TYPE_CONTINUOUS / V4L2_FRMIVAL_TYPE_CONTINUOUS.
    public static let frameSizeContinuous: UInt32 = 2
    /// V4L2_FRMSIZE_TYPE_STEPWISE / V4L2_FRMIVAL_TYPE_STEPWISE.
    public static let frameSizeStepwise: UInt32 = 3
    /// V4L2_CTRL_FLAG_NEXT_CTRL (in a VIDIOC_QUERYCTRL id): the next control after this one.
    public static let controlFlagNextControl: UInt32 = 0x8000_0000
    /// V4L2_CTRL_FLAG_DISABLED.
    public static let controlFlagDisabled: UInt32 = 0x0001
    /// V4L2_CTRL_FLAG_READ_ONLY.
    public static let controlFlagReadOnly: UInt32 = 0x0004
    /// V4L2_CTRL_FLAG_INACTIVE: the control has no effect now (its automatic mode is on).
    public static let controlFlagInactive: UInt32 = 0x0010
    /// V4L2_CTRL_FLAG_WRITE_ONLY.
    public static let controlFlagWriteOnly: UInt32 = 0x0040

    /// Buffer flags of `struct v4l2_buffer`.
    public enum BufferFlag {
        /// V4L2_BUF_FLAG_MAPPED.
        public static let mapped: UInt32 = 0x0001
        /// V4L2_BUF_FLAG_QUEUED: in the driver's incoming queue.
        public static let queued: UInt32 = 0x0002
        /// V4L2_BUF_FLAG_DONE: in the driver's outgoing queue.
        public static let done: UInt32 = 0x0004
        /// V4L2_BUF_FLAG_ERROR: the data may be corrupt; the buffer can be queued again.
        public static let error: UInt32 = 0x0040
        /// V4L2_BUF_FLAG_TIMESTAMP_MASK.
        public static let timestampMask: UInt32 = 0xE000
        /// V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC: the timestamp is on CLOCK_MONOTONIC.
        public static let timestampMonotonic: UInt32 = 0x2000
        /// V4L2_BUF_FLAG_TSTAMP_SRC_SOE: the timestamp is the start of the exposure (else its end).
        public static let timestampStartOfExposure: UInt32 = 0x0001_0000
    }

    /// Control types (`enum v4l2_ctrl_type`).
    public enum ControlType: UInt32, Sendable {
        /// V4L2_CTRL_TYPE_INTEGER.
        case integer = 1
        /// V4L2_CTRL_TYPE_BOOLEAN.
        case boolean = 2
        /// V4L2_CTRL_TYPE_MENU: named items.
        case menu = 3
        /// V4L2_CTRL_TYPE_BUTTON: an action.
        case button = 4
        /// V4L2_CTRL_TYPE_INTEGER64.
        case integer64 = 5
        /// V4L2_CTRL_TYPE_CTRL_CLASS: a heading, not a control.
        case controlClass = 6
        /// V4L2_CTRL_TYPE_STRING.
        case string = 7
        /// V4L2_CTRL_TYPE_BITMASK.
        case bitmask = 8
        /// V4L2_CTRL_TYPE_INTEGER_MENU: numbered items.
        case integerMenu = 9
    }

    /// The controls ``V4L2Camera`` maps onto the manual controls of ``CaptureDevice``.
    public enum Control: UInt32, Sendable, CaseIterable, CustomStringConvertible {
        /// V4L2_CID_AUTO_WHITE_BALANCE (boolean).
        case autoWhiteBalance = 0x0098_090C
        /// V4L2_CID_RED_BALANCE (integer, units defined by the device).
        case redBalance = 0x0098_090E
        /// V4L2_CID_BLUE_BALANCE (integer, units defined by the device).
        case blueBalance = 0x0098_090F
        /// V4L2_CID_GAIN (integer, units defined by the device).
        case gain = 0x0098_0913
        /// V4L2_CID_WHITE_BALANCE_TEMPERATURE (integer, kelvin).
        case whiteBalanceTemperature = 0x0098_091A
        /// V4L2_CID_EXPOSURE_AUTO (menu: 0 auto, 1 manual, 2 shutter priority, 3 aperture priority).
        case exposureAuto = 0x009A_0901
        /// V4L2_CID_EXPOSURE_ABSOLUTE (integer, 100 µs units).
        case exposureAbsolute = 0x009A_0902
        /// V4L2_CID_FOCUS_ABSOLUTE (integer; larger values focus closer).
        case focusAbsolute = 0x009A_090A
        /// V4L2_CID_FOCUS_AUTO (boolean: continuous autofocus).
        case focusAuto = 0x009A_090C
        /// V4L2_CID_AUTO_EXPOSURE_BIAS (integer menu, 0.001 EV units).
        case exposureBias = 0x009A_0913
        /// V4L2_CID_ISO_SENSITIVITY (integer menu of ISO values).
        case isoSensitivity = 0x009A_0917
        /// V4L2_CID_ISO_SENSITIVITY_AUTO (menu: 0 manual, 1 auto).
        case isoSensitivityAuto = 0x009A_0918
        /// V4L2_CID_3A_LOCK (bitmask: 1 exposure, 2 white balance, 4 focus).
        case lock3A = 0x009A_091B
        /// V4L2_CID_AUTO_FOCUS_START (button: one autofocus scan).
        case autoFocusStart = 0x009A_091C
        /// V4L2_CID_AUTO_FOCUS_STOP (button: end an autofocus scan).
        case autoFocusStop = 0x009A_091D
        /// V4L2_CID_AUTO_FOCUS_STATUS (bitmask: 1 busy, 2 reached, 4 failed).
        case autoFocusStatus = 0x009A_091E
        /// V4L2_CID_ANALOGUE_GAIN (integer, units defined by the sensor driver).
        case analogueGain = 0x009E_0903
        /// V4L2_CID_BLACK_LEVEL (integer; deprecated, offered by a few raw-sensor drivers).
        case blackLevel = 0x0098_090B

        public var description: String {
            switch self {
            case .autoWhiteBalance: "white_balance_automatic"
            case .redBalance: "red_balance"
            case .blueBalance: "blue_balance"
            case .gain: "gain"
            case .whiteBalanceTemperature: "white_balance_temperature"
            case .exposureAuto: "auto_exposure"
            case .exposureAbsolute: "exposure_time_absolute"
            case .focusAbsolute: "focus_absolute"
            case .focusAuto: "focus_automatic_continuous"
            case .exposureBias: "auto_exposure_bias"
            case .isoSensitivity: "iso_sensitivity"
            case .isoSensitivityAuto: "iso_sensitivity_auto"
            case .lock3A: "3a_lock"
            case .autoFocusStart: "auto_focus_start"
            case .autoFocusStop: "auto_focus_stop"
            case .autoFocusStatus: "auto_focus_status"
            case .analogueGain: "analogue_gain"
            case .blackLevel: "black_level"
            }
        }
    }

    /// V4L2_EXPOSURE_* items of ``Control/exposureAuto``.
    enum ExposureAutoItem {
        static let auto: Int32 = 0
        static let manual: Int32 = 1
        static let shutterPriority: Int32 = 2
        static let aperturePriority: Int32 = 3
    }

    /// V4L2_LOCK_* bits of ``Control/lock3A``.
    enum LockBit {
        static let exposure: Int32 = 1
        static let whiteBalance: Int32 = 2
        static let focus: Int32 = 4
    }

    /// V4L2_AUTO_FOCUS_STATUS_* bits of ``Control/autoFocusStatus``.
    enum AutoFocusStatusBit {
        static let busy: Int32 = 1
        static let reached: Int32 = 2
        static let failed: Int32 = 4
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
