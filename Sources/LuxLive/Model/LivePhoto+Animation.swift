public import FoundationEssentials
public import LuxCodecs
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender

/// How a Live Photo's movie becomes an animated GIF or WebP, the form users share it in.
public struct LivePhotoAnimationSettings: Hashable, Sendable {
    /// The order frames play in.
    public enum Playback: String, Hashable, Sendable, CaseIterable {
        /// Start to end, then again from the start.
        case loop
        /// Start to end and back, then again (the "Bounce" effect of Photos).
        case bounce
    }

    /// The order frames play in; default `.loop`.
    public var playback: Playback
    /// The longest side of the animation in pixels (the movie is scaled down to fit, never enlarged); default 480.
    public var maximumSize: Int
    /// Frames per second of the animation, sampled from the movie's timeline; default 15.
    public var framesPerSecond: Double
    /// Encoder options (WebP quality, GIF dithering).
    public var encoding: EncodingOptions

    /// Creates settings.
    public init(
        playback: Playback = .loop, maximumSize: Int = 480, framesPerSecond: Double = 15,
        encoding: EncodingOptions = EncodingOptions(quality: 0.8)
    ) {
        self.playback = playback
        self.maximumSize = maximumSize
        self.framesPerSecond = framesPerSecond
        self.encoding = encoding
    }
}

extension LivePhoto {
    /// Writes the movie as an animated GIF or WebP that plays forever: upright, scaled to fit
    /// ``LivePhotoAnimationSettings/maximumSize``, at ``LivePhotoAnimationSettings/framesPerSecond`` (each
    /// animation frame shows the movie frame on screen at its time), looping or bouncing.
    ///
    /// Frames are decoded reduced by FFmpeg (by 2, 4 or 8) while that leaves at least twice the animation's size,
    /// then scaled with a Lanczos filter.
    ///
    /// ```swift
    /// let live = try LivePhoto(pairing: URL(fileURLWithPath: "IMG_0001.JPG"))
    /// try live.writeAnimation(to: URL(fileURLWithPath: "IMG_0001.gif"), settings: .init(playback: .bounce))
    /// ```
    ///
    /// - Parameter format: `.gif` or `.webp` (default: from the file name's extension).
    /// - Returns: The number of frames written and the animation's size.
    /// - Throws: ``LivePhotoError`` when the movie has no video or its codec cannot be decoded;
    ///   ``CodecError`` for other formats, invalid settings, a damaged movie or a failed write (`url` is then
    ///   untouched); ``RenderError`` when scaling fails.
    @discardableResult
    public func writeAnimation(
        to url: URL, format: ImageFormat? = nil, settings: LivePhotoAnimationSettings = LivePhotoAnimationSettings()
    ) throws -> (frames: Int, width: Int, height: Int) {
        guard let chosen = format ?? ImageFormat(fileExtension: url.pathExtension), chosen == .gif || chosen == .webp
        else {
            throw CodecError.invalidArgument(
                "a Live Photo animation is written as .gif or .webp, not \(url.lastPathComponent)")
        }
        guard settings.maximumSize > 0, settings.framesPerSecond > 0, settings.framesPerSecond <= 100 else {
            throw CodecError.invalidArgument("the animation needs a positive size and 0 < frames per second ≤ 100")
        }
        let movie = try QuickTimeMovie(contentsOf: movieURL)
        guard let track = movie.videoTrack else { throw LivePhotoError.noVideo(movieURL) }
        guard track.canDecodeFrames else { throw LivePhotoError.movieNotDecodable(movieURL, codec: track.codecName) }
        // FFmpeg reduces frames while converting them to RGB as far as leaves twice the animation's size for the
        // Lanczos filter.
        let longSide = max(track.width, track.height)
        let reduction = [8, 4, 2].first { longSide / $0 >= 2 * settings.maximumSize } ?? 1
        let reader = try VideoFrameReader(
            movie: movie, track: track, options: VideoDecodingOptions(reduction: reduction))
        let context = RenderContext()
        var frames: [PixelBuffer] = []
        var slot = 0  // the next animation frame, at slot ÷ fps seconds
        while let frame = try reader.next() {
            let end = (frame.time + frame.duration).seconds
            var scaled: PixelBuffer?
            while Double(slot) / settings.framesPerSecond < end {
                if scaled == nil { scaled = try Self.scaled(frame.pixels, track.orientation, settings, context) }
                frames.append(scaled!)
                slot += 1
            }
        }
        guard let first = frames.first else { throw LivePhotoError.noVideo(movieURL) }
        if settings.playback == .bounce, frames.count > 2 { frames += frames.reversed().dropFirst().dropLast() }
        let encoder = try AnimationEncoder(
            format: chosen, width: first.width, height: first.height, options: settings.encoding)
        for f in frames { try encoder.append(f, duration: 1 / settings.framesPerSecond) }
        try encoder.finish(writingTo: url)
        return (frames.count, first.width, first.height)
    }

    /// A movie frame upright and scaled to fit the settings' size, as 8-bit sRGB.
    private static func scaled(
        _ pixels: PixelBuffer, _ orientation: Orientation, _ settings: LivePhotoAnimationSettings,
        _ context: RenderContext
    ) throws -> PixelBuffer {
        let upright = Image(buffer: pixels.applying(orientation))
        let fitted = upright.resizedToFit((settings.maximumSize, settings.maximumSize))
        var out = PixelBuffer(
            width: Int(fitted.extent.width), height: Int(fitted.extent.height), format: .rgba8, colorSpace: .sRGB)
        try context.render(fitted, to: &out)
        return out
    }
}
