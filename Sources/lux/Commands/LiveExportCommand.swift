import ArgumentParser
import Foundation
import Lux

/// `lux live export PAIR --gif OUT | --webp OUT`: the movie as an animated GIF or WebP to share.
struct LiveExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a Live Photo's movie as an animated GIF or WebP that loops or bounces.",
        discussion: """
            The movie is decoded (H.264, HEVC or Motion-JPEG), turned upright, scaled to fit --size pixels on its \
            long side (Lanczos, never enlarged) and sampled at --fps frames per second: each animation frame shows \
            the movie frame on screen at its time. --loop (the default) plays start to end again and again; \
            --bounce plays start to end and back. GIF frames get their own 256-colour palette (median cut, \
            Floyd-Steinberg dithering unless --no-dither); WebP frames are lossy at --quality. The animation plays \
            forever. The file is written atomically: on failure nothing is left behind.

            Examples:
              lux live export IMG_0001.JPG --gif IMG_0001.gif
              lux live export IMG_0001.MOV --webp bounce.webp --bounce --size 360 --fps 12
            """)

    @Argument(help: "The still or the movie of the pair.", completion: .file())
    var pair: String

    @Option(help: "Write an animated GIF here.", completion: .file(extensions: ["gif"]))
    var gif: String?

    @Option(help: "Write an animated WebP here.", completion: .file(extensions: ["webp"]))
    var webp: String?

    @Flag(help: "Play start to end, again and again (the default).")
    var loop = false

    @Flag(help: "Play start to end and back, again and again.")
    var bounce = false

    @Option(parsing: .unconditional, help: "The longest side in pixels (never enlarged).")
    var size = 480

    @Option(parsing: .unconditional, help: "Frames per second, 1...50.")
    var fps: Double = 15

    @Option(parsing: .unconditional, help: "WebP quality, 1...100.")
    var quality = 80

    @Flag(inversion: .prefixedNo, help: "Dither GIF colours (Floyd-Steinberg).")
    var dither = true

    @OptionGroup var overwriteOptions: OverwriteOptions

    func validate() throws {
        guard (gif == nil) != (webp == nil) else { throw ValidationError("give one of --gif OUT or --webp OUT") }
        guard !(loop && bounce) else { throw ValidationError("--loop and --bounce exclude each other") }
        guard size > 0 else { throw ValidationError("--size must be at least 1, not \(size)") }
        guard (1...50).contains(fps) else { throw ValidationError("--fps must be 1...50, not \(fps)") }
        try validateQuality(quality)
    }

    func run() throws {
        let (path, format): (String, ImageFormat) = gif.map { ($0, .gif) } ?? (webp!, .webp)
        try overwriteOptions.check(path)
        var encoding = EncodingOptions(quality: Double(quality) / 100)
        encoding.dithers = dither
        let settings = LivePhotoAnimationSettings(
            playback: bounce ? .bounce : .loop, maximumSize: size, framesPerSecond: fps, encoding: encoding)
        do {
            let live = try LivePhoto(pairing: URL(fileURLWithPath: pair))
            let written = try live.writeAnimation(to: URL(fileURLWithPath: path), format: format, settings: settings)
            print("\(path): \(written.frames) frames, \(written.width)x\(written.height), \(format)")
        } catch let e as LivePhotoError {
            throw e.cliError
        } catch let e as CodecError {
            throw CLIError(e, file: pair)
        }
    }
}
