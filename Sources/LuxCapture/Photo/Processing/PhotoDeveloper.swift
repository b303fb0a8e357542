import LuxColor
import LuxPixels

/// Develops merged or single Bayer frames into processed photos with the camera's image processor (the look of
/// its stream frames), then scales them to the photo size.
struct PhotoDeveloper: Sendable {
    let sensor: SensorModel
    let calibration: CameraCalibration
    let threads: Int

    init(camera: SimulatedCamera) {
        sensor = camera.sensor
        calibration = camera.calibration
        threads = Parallel.defaultThreadCount
    }

    /// An 8-bit RGBA rendering of `frame` in `colorSpace`, scaled to `size`.
    func develop(_ frame: RawFrame, colorSpace: CaptureColorSpace, size: PixelDimensions, pool: BufferPool) -> PixelBuffer {
        var levels = sensor
        levels.blackLevel = Int(frame.blackLevel.rounded())
        levels.whiteLevel = Int(frame.whiteLevel.rounded())
        let processor = FrameProcessor(sensor: levels, calibration: calibration)
        let full = processor.process(
            raw: frame.pixels, gains: frame.metadata.whiteBalanceGains, pixelFormat: .rgba8, colorSpace: colorSpace,
            threads: threads)
        if size.width == full.width && size.height == full.height { return PipelineBuffers.copy(full, pool: pool) }
        return AreaScaler.scaled(full, width: size.width, height: size.height, pool: pool, threads: threads)
    }

    /// `image` (8-bit RGBA) in `format`, in a buffer from `pool`.
    static func converted(_ image: PixelBuffer, to format: PixelFormat, pool: BufferPool, threads: Int) -> PixelBuffer {
        if image.format == format { return image }
        let converted = image.converted(to: format, threads: threads)
        return PipelineBuffers.copy(converted, pool: pool)
    }

    /// The preview of `image` (8-bit RGBA): scaled to `size` and converted to `format`.
    static func preview(of image: PixelBuffer, size: PixelDimensions, format: PixelFormat, pool: BufferPool, threads: Int) -> PixelBuffer {
        let scaled = AreaScaler.scaled(image, width: size.width, height: size.height, pool: pool, threads: threads)
        return converted(scaled, to: format, pool: pool, threads: threads)
    }
}
