import LuxPixels

/// A device whose Bayer frames the photo output develops itself, with the device's sensor model and calibration.
///
/// The simulated camera is one: its photos can be full-resolution stills on photo formats, brackets, multi-frame
/// fusion and Live Photos. Any other ``CaptureDevice`` (a V4L2 camera) gets photos made from its own processed stream
/// frames, one frame per photo, with a RAW photo when ``CaptureDevice/rawPixelFormat`` says its frames carry one.
protocol SensorPipelineDevice: CaptureDevice {
    /// The sensor's geometry, levels and noise.
    var sensor: SensorModel { get }
    /// The colour calibration of the image processor.
    var calibration: CameraCalibration { get }
    /// The pool the device's RAW frames come from.
    var pool: BufferPool { get }
    /// Returns to the system the memory only full-size stills use (idle frames, a rendered view of the scene) while
    /// no still is expected for a while; the next still pays to make them again.
    func releaseStillMemory()
}

extension SimulatedCamera: SensorPipelineDevice {
    func releaseStillMemory() {
        let f = activeFormat
        radianceCache.removeViews(width: f.width, height: f.height)
        pool.releaseIdleMemory()
    }
}
