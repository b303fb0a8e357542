import ArgumentParser
import Foundation
import Lux

/// `lux fuse A B C… -o OUT`: exposure fusion of bracketed image files (the enfuse role).
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

    @Argument(help: "The brackets (JPEG, PNG or TIFF), at least one.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The output file; its extension picks the format (.jpg, .png, .tif).")
    var output: String

    @Option(help: "Exponent of the contrast weight (0 ignores contrast).")
    var contrastWeight: Float = 1

    @Option(help: "Exponent of the saturation weight.")
    var saturationWeight: Float = 1

    @Option(help: "Exponent of the well-exposedness weight.")
    var exposureWeight: Float = 1

    @Option(help: "The value considered best exposed (0…1).")
    var exposureMean: Float = 0.5

    @Option(help: "The width of the well-exposedness Gaussian.")
    var exposureSigma: Float = 0.2

    @Option(help: "Pyramid levels (default: down to about 8 pixels).")
    var levels: Int?

    @Option(help: "JPEG quality, 1…100.")
    var quality: Int = 90

    @Option(help: "Worker threads (default: one per processor).")
    var threads: Int?

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one image to fuse") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1…100, not \(quality)") }
        guard ImageFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) != nil else {
            throw ValidationError("cannot tell the output format from '\(output)'; use .jpg, .png or .tif")
        }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        var files: [ImageFile] = []
        for path in inputs {
            do {
                files.append(try ImageFile.read(url: URL(fileURLWithPath: path), options: DecodingOptions(appliesOrientation: true)))
            } catch {
                throw CLIError(error, file: path)
            }
        }
        let first = files[0].pixels
        for (path, file) in zip(inputs, files).dropFirst()
        where file.pixels.width != first.width || file.pixels.height != first.height {
            throw CLIError(
                "\(path) is \(file.pixels.width)×\(file.pixels.height) but \(inputs[0]) is \(first.width)×\(first.height); "
                    + "brackets must have the same size")
        }
        let space = first.colorSpace ?? .sRGB
        let deep = files.contains { ![.rgba8, .bgra8, .gray8].contains($0.pixels.format) }
        let format: PixelFormat = deep ? .rgba16 : .rgba8
        let cores = threads ?? ProcessInfo.processInfo.activeProcessorCount
        var frames: [PixelBuffer] = []
        for (path, file) in zip(inputs, files) {
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
        var metadata = files[0].metadata
        metadata.orientation = .up
        do {
            try ImageFile.write(
                fused, metadata: metadata, to: URL(fileURLWithPath: output),
                options: EncodingOptions(quality: Double(quality) / 100, threads: threads))
        } catch {
            throw CLIError(error, file: output)
        }
    }
}
