import ArgumentParser
import Foundation
import Lux

/// `lux fuse A B C... -o OUT`: exposure fusion of bracketed image files (the enfuse role).
struct FuseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuse",
        abstract: "Fuse differently exposed images of one scene into one well-exposed image (exposure fusion).",
        discussion: """
            Blends the brackets with Mertens et al.'s weights (contrast, saturation, well-exposedness) in a \
            Laplacian pyramid, like `enfuse`; no HDR radiance map or camera response is needed. The images must \
            have the same size and be aligned (shot from a tripod, or aligned beforehand). They are fused in the \
            first image's colour space and sample depth (16-bit when any input is deeper than 8 bits); the output \
            keeps the first image's metadata.

            Examples:
              lux fuse under.jpg normal.jpg over.jpg -o fused.jpg
              lux fuse m2.tif 0.tif p2.tif -o fused.tif --contrast-weight 0 --levels 6
            """)

    @Argument(help: "The brackets (JPEG, PNG or TIFF), at least one.", completion: .file())
    var inputs: [String]

    @Option(
        name: [.customShort("o"), .customLong("out")],
        help: "The output file; its extension picks the format (.jpg, .png, .tif, .heic).", completion: .file())
    var out: String

    @Option(parsing: .unconditional, help: "Exponent of the contrast weight (0 ignores contrast).")
    var contrastWeight: Float = 1

    @Option(parsing: .unconditional, help: "Exponent of the saturation weight.")
    var saturationWeight: Float = 1

    @Option(parsing: .unconditional, help: "Exponent of the well-exposedness weight.")
    var exposureWeight: Float = 1

    @Option(parsing: .unconditional, help: "The value considered best exposed (0...1).")
    var exposureMean: Float = 0.5

    @Option(parsing: .unconditional, help: "The width of the well-exposedness Gaussian.")
    var exposureSigma: Float = 0.2

    @Option(parsing: .unconditional, help: "Pyramid levels (default: down to about 8 pixels).")
    var levels: Int?

    @Option(parsing: .unconditional, help: "JPEG quality, 1...100.")
    var quality: Int = 90

    @Option(parsing: .unconditional, help: "Worker threads (default: one per processor).")
    var threads: Int?

    @OptionGroup var overwriteOptions: OverwriteOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one image to fuse") }
        try validateQuality(quality)
        guard let f = ImageFormat(fileExtension: URL(fileURLWithPath: out).pathExtension), f != .dng else {
            throw ValidationError("cannot tell the output format from '\(out)'; use .jpg, .png, .tif or .heic")
        }
        try validatePositive(threads, "--threads")
    }

    func run() throws {
        try overwriteOptions.check(out)
        // One file decoded at a time, each dropped once converted: peak memory is the frames plus one file.
        let cores = threads ?? ProcessInfo.processInfo.activeProcessorCount
        var deep = false
        for path in inputs {
            do {
                let info = try ImageFile.info(url: URL(fileURLWithPath: path))
                deep = deep || ![PixelFormat.rgba8, .bgra8, .gray8].contains(info.pixelFormat)
            } catch {
                throw CLIError(error, file: path)
            }
        }
        let format: PixelFormat = deep ? .rgba16 : .rgba8
        var frames: [PixelBuffer] = []
        var firstMetadata = ImageMetadata()
        var space = ColorSpace.sRGB
        for path in inputs {
            let file: ImageFile
            do {
                file = try ImageFile.read(
                    url: URL(fileURLWithPath: path), options: DecodingOptions(appliesOrientation: true))
            } catch {
                throw CLIError(error, file: path)
            }
            if let first = frames.first, file.pixels.width != first.width || file.pixels.height != first.height {
                throw CLIError(
                    "\(path) is \(file.pixels.width)×\(file.pixels.height) but \(inputs[0]) is \(first.width)×\(first.height); "
                        + "brackets must have the same size")
            }
            if frames.isEmpty {
                firstMetadata = file.metadata
                space = file.pixels.colorSpace ?? .sRGB
            }
            var p = file.pixels.converted(to: format, threads: cores)
            if p.colorSpace == nil { p.colorSpace = space }
            if p.colorSpace != space {
                do { p = try p.matchingColors(to: space, threads: cores) } catch { throw CLIError("\(path): \(error)") }
            }
            frames.append(p)
        }
        let settings = ExposureFusion.Settings(
            contrastWeight: contrastWeight, saturationWeight: saturationWeight, exposureWeight: exposureWeight,
            exposureMean: exposureMean, exposureSigma: exposureSigma, levels: levels, threads: threads)
        var metadata = firstMetadata
        metadata.orientation = .up
        var options = EncodingOptions(quality: Double(quality) / 100, threads: threads)
        options.alpha = .discard  // the fusion's output is opaque
        // The fused rows go to the encoder a band at a time as the blend finishes them (TIFF strips straight to the
        // file), so no full-size output is held; the file appears only when complete.
        do {
            try ImageStreamEncoder.write(
                to: URL(fileURLWithPath: out), width: frames[0].width, height: frames[0].height, pixelFormat: format,
                colorSpace: space, metadata: metadata, options: options
            ) { append in
                try ExposureFusion(settings: settings).fuse(frames) { band, _ in try append(band) }
            }
        } catch let error as CodecError {
            throw CLIError(error, file: out)
        } catch {
            throw CLIError("\(inputs.joined(separator: ", ")): \(error)")
        }
    }
}
