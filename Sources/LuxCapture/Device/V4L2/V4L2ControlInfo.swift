/// A V4L2 control a device offers, as VIDIOC_QUERYCTRL and VIDIOC_QUERYMENU describe it.
public struct V4L2ControlInfo: Hashable, Sendable {
    /// The control.
    public var control: V4L2.Control
    /// The driver's name for it.
    public var name: String
    /// The control type (`v4l2_ctrl_type`).
    public var type: UInt32
    /// Smallest value (the first menu index for menus).
    public var minimum: Int32
    /// Largest value.
    public var maximum: Int32
    /// Step.
    public var step: Int32
    /// Default.
    public var defaultValue: Int32
    /// V4L2_CTRL_FLAG_* bits.
    public var flags: UInt32
    /// The names of a menu control's items, by index (indices the driver skips are absent).
    public var menuItems: [Int32: String] = [:]
    /// The values of an integer-menu control's items, by index.
    public var integerMenuItems: [Int32: Int64] = [:]

    /// Whether the control can be written.
    public var isWritable: Bool { flags & V4L2.controlFlagReadOnly == 0 }
}
