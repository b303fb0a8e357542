import LuxCodecs
import LuxColor
import LuxPixels
import LuxRAW
import LuxRender

/// Develops Bayer frames into processed photos, then scales them to the photo size.
///
/// Two looks: ``develop(_:colorSpace:size:pool:)`` uses the camera's image processor — the look of its stream
/// frames, for the speed level and brackets (what you see is what you get); ``developFused(_:colorSpace:size:exposureFusion:pool:)``
/// uses ``RAWDeveloper`` (RCD demosaic, noise reduction from the merged frame's noise, highlight recovery,
/// sharpening) for merged frames, optionally tone-mapped by exposure fusion.
struct PhotoDeveloper: Sendable {
    let sensor: SensorModel
    let calibration: CameraCalibration
    let threads: Int
    let context: RenderContext

    init(camera: any SensorPipelineDevice, context: RenderContext) {
        sensor = camera.sensor
        calibration = camera.calibration
        threads = Parallel.defaultThreadCount
        self.context = context
    }

    /// The exposure (EV) the RAW developer adds so merged photos have the stream's brightness: the image
    /// processor maps the metered level (12.8 % of the sensor range) to 1.6 × that.
    static let fusedExposure = 0.68

    /// An 8-bit RGBA rendering of a merged frame in `colorSpace` by the RAW developer, scaled to `size`.
    func developFused(
        _ frame: RawFrame, colorSpace: CaptureColorSpace, size: PixelDimensions, exposureFusion: Bool, pool: BufferPool
    ) throws(CaptureError) -> PixelBuffer {
        var description = frame.metadata.raw
        description.blackLevel = Int(frame.blackLevel.rounded())
        description.whiteLevel = Int(frame.whiteLevel.rounded())
        let raw = RAWPacking.rawImage(frame.pixels, description: description, exif: EXIF(), preview: nil)
        let full: PixelBuffer
        do {
            var developer = try RAWDeveloper(rawImage: raw)
            developer.exposure = Self.fusedExposure
            if exposureFusion {
                developer.boostAmount = 0  // scene-referred: the tone mapper does the rest
                let linear = try context.createBuffer(
                    developer.outputImage, format: .rgbaFloat,
                    colorSpace: colorSpace.colorSpace.linearized().withExtendedRange(true))
                full = try PhotoFusion.toneMap(linear, colorSpace: colorSpace, threads: threads)
            } else {
                full = try context.createBuffer(
                    developer.outputImage, format: .rgba8, colorSpace: colorSpace.colorSpace)
            }
        } catch let error as CaptureError {
            throw error
        } catch {
            throw .processing("developing the merged frame failed: \(error)")
        }
        if size.width == full.width && size.height == full.height { return PipelineBuffers.copy(full, pool: pool) }
        return AreaScaler.scaled(full, width: size.width, height: size.height, pool: pool, threads: threads)
    }

    /// An 8-bit RGBA rendering of `frame` in `colorSpace` by the camera's image processor, scaled to `size`.
    func develop(_ frame: RawFrame, colorSpace: CaptureColorSpace, size: PixelDimensions, pool: BufferPool)
        -> PixelBuffer
    {
        var levels = sensor
        levels.blackLevel = Int(frame.blackLevel.rounded())
        levels.whiteLevel = Int(frame.whiteLevel.rounded())
        let processor = FrameProcessor(sensor: levels, calibration: calibration)
        var full = PipelineBuffers.buffer(
            pool: pool, format: .rgba8, width: frame.pixels.width, height: frame.pixels.height)
        processor.process(
            raw: frame.pixels, gains: frame.metadata.whiteBalanceGains, colorSpace: colorSpace, into: &full,
            threads: threads)
        if size.width == full.width && size.height == full.height { return full }
        return AreaScaler.scaled(full, width: size.width, height: size.height, pool: pool, threads: threads)
    }

    /// The camera's own processed image of `frame` as 8-bit RGBA, scaled to `size` (a camera the output does not
    /// develop).
    ///
    /// - Throws: ``CaptureError/processing(_:)`` when the frame has no processed image.
    static func deviceProcessed(_ frame: RawFrame, size: PixelDimensions, pool: BufferPool, threads: Int)
        throws(CaptureError) -> PixelBuffer
    {
        guard let image = frame.image else { throw .processing("the camera delivered a frame without an image") }
        let rgba = converted(image, to: .rgba8, pool: pool, threads: threads)
        if size.width == rgba.width && size.height == rgba.height { return rgba }
        return AreaScaler.scaled(rgba, width: size.width, height: size.height, pool: pool, threads: threads)
    }

    /// `image` (8-bit RGBA) in `format`, in a buffer from `pool`.
    static func converted(_ image: PixelBuffer, to format: PixelFormat, pool: BufferPool, threads: Int) -> PixelBuffer {
        if image.format == format { return image }
        let converted = image.converted(to: format, threads: threads)
        return PipelineBuffers.copy(converted, pool: pool)
    }

    /// The preview of `image` (8-bit RGBA): scaled to `size` and converted to `format`.
    static func preview(
        of image: PixelBuffer, size: PixelDimensions, format: PixelFormat, pool: BufferPool, threads: Int
    ) -> PixelBuffer {
        let scaled = AreaScaler.scaled(image, width: size.width, height: size.height, pool: pool, threads: threads)
        return converted(scaled, to: format, pool: pool, threads: threads)
    }
}
