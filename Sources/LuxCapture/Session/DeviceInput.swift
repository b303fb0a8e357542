/// Feeds a session from a camera or a microphone (AVCaptureDeviceInput), through one port per media type.
///
/// ```swift
/// let camera = SimulatedCamera(scene: .stillLife())
/// let session = CaptureSession()
/// try session.addInput(DeviceInput(camera: camera))
/// try session.addInput(DeviceInput(microphone: SimulatedMicrophone(source: camera.scene.sound)))
/// ```
public final class DeviceInput: Sendable, CustomStringConvertible {
    /// What the input reads from.
    public enum Source: Sendable {
        /// A camera.
        case camera(any CaptureDevice)
        /// A microphone.
        case microphone(SimulatedMicrophone)
    }

    /// One stream of the input.
    public struct Port: Hashable, Sendable, CustomStringConvertible {
        /// What the port carries.
        public var mediaType: MediaType
        /// The unique ID of the input's device.
        public var deviceID: String

        public var description: String { "\(deviceID)/\(mediaType)" }
    }

    /// The device.
    public let source: Source
    /// The input's ports (one video port for a camera, one audio port for a microphone).
    public let ports: [Port]

    /// An input reading a camera.
    public init(camera: any CaptureDevice) {
        source = .camera(camera)
        ports = [Port(mediaType: .video, deviceID: camera.uniqueID)]
    }

    /// An input reading a microphone.
    public init(microphone: SimulatedMicrophone) {
        source = .microphone(microphone)
        ports = [Port(mediaType: .audio, deviceID: microphone.uniqueID)]
    }

    /// The camera, if the input reads one.
    public var camera: (any CaptureDevice)? {
        if case .camera(let c) = source { return c }
        return nil
    }

    /// The microphone, if the input reads one.
    public var microphone: SimulatedMicrophone? {
        if case .microphone(let m) = source { return m }
        return nil
    }

    /// The media type of the input's device.
    public var mediaType: MediaType { ports[0].mediaType }

    /// The unique ID of the input's device.
    public var deviceID: String { ports[0].deviceID }

    public var description: String {
        switch source {
        case .camera(let c): "DeviceInput(\(c.localizedName))"
        case .microphone(let m): "DeviceInput(\(m.localizedName))"
        }
    }
}
