import LuxPixels

/// A source of video frames with manual controls: the simulated camera, or a V4L2 camera.
///
/// A `CaptureSession` drives a device by pulling frames: each ``nextFrame(_:)`` exposes the next frame slot on
/// the device clock (``MediaTime``, starting at zero), runs the 3A loops on it, and returns it. Frames come
/// from the device's ``BufferPool``; holding too many makes the next request throw
/// ``CaptureError/bufferPoolExhausted(_:)``. ``captureStill(_:)`` takes one full-resolution exposure with
/// explicit settings (photos, brackets) in the next slot.
public protocol CaptureDevice: AnyObject, Sendable {
    /// A stable identifier.
    var uniqueID: String { get }
    /// A name for people.
    var localizedName: String { get }
    /// Where the camera faces.
    var position: CaptureDevicePosition { get }
    /// Whether the camera has a flash for stills.
    var hasFlash: Bool { get }
    /// Every format the device offers.
    var formats: [DeviceFormat] { get }
    /// The format in use.
    var activeFormat: DeviceFormat { get }
    /// Switches format (resets frame rate to the format's default).
    func setActiveFormat(_ format: DeviceFormat) throws(CaptureError)
    /// The colour space processed frames are delivered in.
    var activeColorSpace: CaptureColorSpace { get }
    /// Sets the colour space (it must be one the active format supports).
    func setActiveColorSpace(_ colorSpace: CaptureColorSpace) throws(CaptureError)
    /// A snapshot of the observable state.
    var status: DeviceStatus { get }
    /// The values of one property: the current value, then each change.
    func values<Value: Sendable & Equatable>(of property: DeviceProperty<Value>) -> AsyncStream<Value>
    /// Starts the frame stream.
    func startStreaming() async throws(CaptureError)
    /// Stops the frame stream.
    func stopStreaming() async
    /// Produces the next frame.
    func nextFrame(_ configuration: StreamConfiguration) async throws(CaptureError) -> CaptureFrame
    /// Takes one still exposure at full resolution.
    func captureStill(_ request: StillRequest) async throws(CaptureError) -> StillCapture
}

extension CaptureDevice {
    /// External cameras do not say where they face.
    public var position: CaptureDevicePosition { .unspecified }
    /// Cameras have no flash unless they say so.
    public var hasFlash: Bool { false }
}
