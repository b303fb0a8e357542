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

    @Option(name: [.customShort("o"), .customLong("out")], help: "The output file; its extension picks the format (.jpg, .png, .tif).", completion: .file())
    var out: String

    @Option(help: "Exponent of the contrast weight (0 ignores contrast).")
    var contrastWeight: Float = 1

    @Option(help: "Exponent of the saturation weight.")
    var saturationWeight: Float = 1

    @Option(help: "Exponent of the well-exposedness weight.")
    var exposureWeight: Float = 1

    @Option(help: "The value considered best exposed (0...1).")
    var exposureMean: Float = 0.5

    @Option(help: "The width of the well-exposedness Gaussian.")
    var exposureSigma: Float = 0.2

    @Option(help: "Pyramid levels (default: down to about 8 pixels).")
    var levels: Int?

    @Option(help: "JPEG quality, 1...100.")
    var quality: Int = 90

    @Option(help: "Worker threads (default: one per processor).")
    var threads: Int?

    @OptionGroup var overwriteOptions: OverwriteOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one image to fuse") }
        try validateQuality(quality)
        guard let f = ImageFormat(fileExtension: URL(fileURLWithPath: out).pathExtension), f != .dng else {
            throw ValidationError("cannot tell the output format from '\(out)'; use .jpg, .png or .tif")
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
        let fused: PixelBuffer
        do {
            fused = try ExposureFusion(settings: settings).fuse(frames)
        } catch {
            throw CLIError("\(inputs.joined(separator: ", ")): \(error)")
        }
        // The brackets are not needed any more: free them before encoding.
        frames.removeAll()
        var metadata = firstMetadata
        metadata.orientation = .up
        do {
            try Self.write(
                fused, metadata: metadata, to: URL(fileURLWithPath: out),
                options: EncodingOptions(quality: Double(quality) / 100, threads: threads))
        } catch {
            throw CLIError(error, file: out)
        }
    }

    /// Encodes `image` into `url` a band of rows at a time (TIFF strips go straight to the file), so no encoded or
    /// converted copy of the whole image is held; the file appears only when complete. Alpha is not written (the
    /// fusion's output is opaque, so the pixels are those of writing the whole image).
    static func write(_ image: PixelBuffer, metadata: ImageMetadata, to url: URL, options: EncodingOptions)
        throws
    {
        var options = options
        options.alpha = .discard
        let encoder = try ImageStreamEncoder(
            writingTo: url, width: image.width, height: image.height, pixelFormat: image.format,
            colorSpace: image.colorSpace, metadata: metadata, options: options)
        let band = 256
        for y in stride(from: 0, to: image.height, by: band) {
            try encoder.append(image.view(x: 0, y: y, width: image.width, height: min(band, image.height - y)))
        }
        try encoder.finish()
    }
}
