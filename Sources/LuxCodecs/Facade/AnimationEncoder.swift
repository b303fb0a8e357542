internal import CWebP
public import FoundationEssentials
public import LuxPixels

/// Writes an animated GIF or WebP frame by frame (the role of an ImageIO destination with several images and
/// `kCGImagePropertyGIFDelayTime`).
///
/// Every frame has the animation's size and a duration; GIF frames get their own median-cut palette (GIF delays are
/// whole hundredths of a second), WebP frames are lossy at ``EncodingOptions/quality`` (or lossless) and libwebp
/// stores only the parts that change.
///
/// ```swift
/// let animation = try AnimationEncoder(format: .gif, width: 480, height: 360)
/// for frame in frames { try animation.append(frame, duration: 1.0 / 15) }
/// try animation.finish(writingTo: URL(fileURLWithPath: "live.gif"))
/// ```
public final class AnimationEncoder {
    /// The format being written (`.gif` or `.webp`).
    public let format: ImageFormat
    /// The canvas size.
    public let width: Int
    public let height: Int
    private let options: EncodingOptions
    private var gif: GIFWriter?
    private var webp: OpaquePointer?
    /// The time at which the next frame starts, in milliseconds (WebP) or hundredths of a second (GIF).
    private var elapsed = 0.0
    private var frameCount = 0

    /// Starts an animation.
    ///
    /// - Parameters:
    ///   - loopCount: How many times viewers play it; 0 (the default) loops forever.
    /// - Throws: ``CodecError/invalidArgument(_:)`` for formats other than GIF and WebP or invalid sizes.
    public init(
        format: ImageFormat, width: Int, height: Int, loopCount: Int = 0, options: EncodingOptions = .default
    ) throws(CodecError) {
        self.format = format
        self.width = width
        self.height = height
        self.options = options
        switch format {
        case .gif:
            gif = try GIFWriter(width: width, height: height, loopCount: loopCount)
        case .webp:
            guard (1...WebP.maximumDimension).contains(width), (1...WebP.maximumDimension).contains(height) else {
                throw .invalidArgument("WebP animations are 1 to 16383 pixels on a side, not \(width) × \(height)")
            }
            var settings = WebPAnimEncoderOptions()
            guard WebPAnimEncoderOptionsInitInternal(&settings, Int32(WEBP_MUX_ABI_VERSION)) != 0 else {
                throw .library(name: "libwebpmux", message: "version mismatch")
            }
            settings.anim_params.loop_count = Int32(clamping: loopCount)
            webp = WebPAnimEncoderNewInternal(Int32(width), Int32(height), &settings, Int32(WEBP_MUX_ABI_VERSION))
            guard webp != nil else { throw .library(name: "libwebpmux", message: "cannot start the animation") }
        default:
            throw .invalidArgument("\(format) files do not hold animations; write a GIF or a WebP")
        }
    }

    deinit { if let webp { WebPAnimEncoderDelete(webp) } }

    /// Adds a frame shown for `duration` seconds.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for a frame of another size or a duration that is not positive;
    ///   ``CodecError/library(name:message:)`` when the encoder fails.
    public func append(_ frame: PixelBuffer, duration: Double) throws(CodecError) {
        guard frame.width == width, frame.height == height else {
            throw .invalidArgument("a \(frame.width)×\(frame.height) frame in a \(width)×\(height) animation")
        }
        guard duration > 0, duration.isFinite else { throw .invalidArgument("a frame lasts more than 0 s") }
        if let gif {
            // Delays in hundredths, rounded so their running sum follows the frames' times.
            let start = elapsed.rounded()
            elapsed += duration * 100
            try gif.add(frame, delay: Int(max(1, elapsed.rounded() - start)), options: options)
        } else if let webp {
            let prepared = try RGBEncoding.prepare(
                frame, format: "WebP", maximumDimension: WebP.maximumDimension, options: options)
            var config = try WebP.configuration(options)
            var picture = try WebP.picture(
                from: prepared.pixels, alpha: prepared.hasAlpha, lossless: options.isLossless)
            defer { WebPPictureFree(&picture) }
            guard WebPAnimEncoderAdd(webp, &picture, Int32(elapsed.rounded()), &config) != 0 else {
                throw .library(name: "libwebpmux", message: lastWebPError)
            }
            elapsed += duration * 1000
        }
        frameCount += 1
    }

    private var lastWebPError: String {
        webp.flatMap { WebPAnimEncoderGetError($0) }.map { String(cString: $0) } ?? "encoding failed"
    }

    /// Completes the animation and returns the file's bytes.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when no frame was added or the animation is already finished.
    public func finish() throws(CodecError) -> [UInt8] {
        guard frameCount > 0 else { throw .invalidArgument("an animation needs at least one frame") }
        if let gif {
            self.gif = nil
            return try gif.finish()
        }
        guard let webp else { throw .invalidArgument("the animation is already finished") }
        defer {
            WebPAnimEncoderDelete(webp)
            self.webp = nil
        }
        guard WebPAnimEncoderAdd(webp, nil, Int32(elapsed.rounded()), nil) != 0 else {
            throw .library(name: "libwebpmux", message: lastWebPError)
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(webp, &data) != 0, let bytes = data.bytes else {
            throw .library(name: "libwebpmux", message: lastWebPError)
        }
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    /// Completes the animation and writes it atomically to `url` (a temporary file renamed into place).
    ///
    /// - Throws: ``CodecError`` from ``finish()``, or `.io` when the file cannot be written (`url` is then untouched).
    public func finish(writingTo url: URL) throws(CodecError) {
        try FileIO.writeAtomically(try finish(), to: url, synchronize: options.synchronizesFile)
    }
}
