import LuxPixels

/// A camera a ``CaptureDeviceDiscoverySession`` found, with what it offers.
public struct DiscoveredCamera: Hashable, Sendable {
    /// The camera's stable identifier (``CaptureDevice/uniqueID``).
    public var uniqueID: String
    /// The camera's name for people.
    public var localizedName: String
    /// The device node (`/dev/video0`), or `nil` for the simulated camera.
    public var path: String?
    /// The kernel driver (such as "uvcvideo"), or `nil` for the simulated camera.
    public var driverName: String?
    /// The formats the camera streams.
    public var formats: [DeviceFormat]
    /// The manual controls it has.
    public var controlCapabilities: ControlCapabilities
    /// The V4L2 controls Lux maps onto the manual controls, with their ranges, by control identifier.
    public var deviceControls: [V4L2ControlInfo]
}

/// A microphone a ``CaptureDeviceDiscoverySession`` found.
public struct DiscoveredMicrophone: Hashable, Sendable {
    /// A stable identifier (`alsa:hw:0,0` for an ALSA device).
    public var uniqueID: String
    /// The name for people.
    public var localizedName: String
    /// The device node (`/dev/snd/pcmC0D0c`), or `nil` for the simulated microphone.
    public var path: String?
    /// Whether a capture session can record from it (the simulated microphone; ALSA devices are listed only).
    public var isCaptureSupported: Bool
}

/// A device node a ``CaptureDeviceDiscoverySession`` could not use, and why.
public struct UnusableDeviceNode: Hashable, Sendable {
    /// The node.
    public var path: String
    /// Why it cannot be used (a UVC metadata node is ``CaptureError/unsupported(_:)``, a node the process may not open
    /// ``CaptureError/accessDenied(mediaType:reason:)``, one in use ``CaptureError/deviceBusy(_:)``).
    public var reason: CaptureError
}

/// What a ``CaptureDeviceDiscoverySession`` found.
public struct DiscoveredDevices: Hashable, Sendable {
    /// The cameras: the V4L2 cameras by node, then the simulated camera.
    public var cameras: [DiscoveredCamera] = []
    /// The microphones: the simulated one, then the ALSA capture devices.
    public var microphones: [DiscoveredMicrophone] = []
    /// The video nodes that exist but cannot stream a format Lux reads, or cannot be opened.
    public var unusableNodes: [UnusableDeviceNode] = []
}
