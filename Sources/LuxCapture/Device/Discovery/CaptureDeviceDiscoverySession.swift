import LuxScene

/// Finds the cameras and microphones of this machine (AVCaptureDevice.DiscoverySession): the V4L2 cameras with their
/// formats and controls, the ALSA capture devices, and the simulated camera and microphone.
///
/// The operating-system boundaries are injectable, so the same listing runs against a fake kernel in tests.
///
/// ```swift
/// let found = CaptureDeviceDiscoverySession().devices()
/// for camera in found.cameras { print(camera.localizedName, camera.path ?? "simulated") }
/// ```
public struct CaptureDeviceDiscoverySession: Sendable {
    /// The media types to look for (``MediaType/video`` finds cameras, ``MediaType/audio`` microphones).
    public var mediaTypes: Set<MediaType>
    /// Whether the simulated camera and microphone are listed (after the V4L2 cameras, before ALSA devices).
    public var includesSimulatedDevices: Bool
    let videoDriver: any V4L2Driver
    let soundCards: ALSACaptureDevices

    /// Creates a discovery session.
    ///
    /// - Parameters:
    ///   - mediaTypes: What to look for.
    ///   - includesSimulatedDevices: Whether to list the simulated camera and microphone.
    ///   - videoDriver: The V4L2 boundary (the kernel's by default).
    ///   - soundCards: Where the ALSA capture devices are read from.
    public init(
        mediaTypes: Set<MediaType> = [.video, .audio], includesSimulatedDevices: Bool = true,
        videoDriver: any V4L2Driver = SystemV4L2Driver(), soundCards: ALSACaptureDevices = ALSACaptureDevices()
    ) {
        self.mediaTypes = mediaTypes
        self.includesSimulatedDevices = includesSimulatedDevices
        self.videoDriver = videoDriver
        self.soundCards = soundCards
    }

    /// Looks for the devices now (each V4L2 node is opened, queried and closed again).
    public func devices() -> DiscoveredDevices {
        var found = DiscoveredDevices()
        if mediaTypes.contains(.video) {
            for path in videoDriver.deviceNodes() {
                do throws(CaptureError) {
                    let camera = try V4L2Camera(path: path, driver: videoDriver)
                    found.cameras.append(
                        DiscoveredCamera(
                            uniqueID: camera.uniqueID, localizedName: camera.localizedName, path: path,
                            driverName: camera.driverName, formats: camera.formats,
                            controlCapabilities: camera.controlCapabilities,
                            deviceControls: camera.controls.values.sorted { $0.control.rawValue < $1.control.rawValue }
                        ))
                } catch {
                    found.unusableNodes.append(UnusableDeviceNode(path: path, reason: error))
                }
            }
            if includesSimulatedDevices {
                let simulated = SimulatedCamera(scene: .grayCard())
                found.cameras.append(
                    DiscoveredCamera(
                        uniqueID: simulated.uniqueID, localizedName: simulated.localizedName, path: nil,
                        driverName: nil, formats: simulated.formats, controlCapabilities: simulated.controlCapabilities,
                        deviceControls: []))
            }
        }
        if mediaTypes.contains(.audio) {
            if includesSimulatedDevices {
                let microphone = SimulatedMicrophone(source: Scene.grayCard().sound)
                found.microphones.append(
                    DiscoveredMicrophone(
                        uniqueID: microphone.uniqueID, localizedName: microphone.localizedName, path: nil,
                        isCaptureSupported: true))
            }
            found.microphones += soundCards.devices()
        }
        return found
    }
}
