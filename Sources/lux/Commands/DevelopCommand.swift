import ArgumentParser
import Foundation
import Lux

/// `lux develop IN… -o OUT|DIR`: develops raw files to JPEG, PNG or TIFF.
struct DevelopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "develop",
        abstract: "Develop raw (DNG) files into JPEG, PNG or TIFF images.",
        discussion: """
            Each file goes through LuxRAW's pipeline (linearise, demosaic, lens corrections, noise reduction, \
            white balance and camera colour, exposure, highlight recovery, tone curve, contrast, saturation, \
            sharpening, default crop and orientation). Parameters left out keep the defaults read from the file \
            (white balance from AsShotNeutral, noise reduction from the NoiseProfile, BaselineExposure …). \
            Outputs are rendered and encoded a strip at a time, so very large raws develop in bounded memory. \
            JPEGs use libjpeg's standard Huffman tables unless --optimize-huffman is given (about 5 % smaller \
            files, but a second pass that holds every DCT coefficient of the image: about 3 bytes per pixel). The output carries an ICC profile for --colorspace and the raw's Exif.

            Examples:
              lux develop IMG_0001.dng -o IMG_0001.jpg
              lux develop *.dng -o developed/ --colorspace p3 --exposure 0.3
              lux develop shot.dng -o shot.tif --depth 16 --boost 0 --colorspace linear
              lux develop shot.dng -o preview.jpg --half
            """)

    @Argument(help: "Raw files to develop (DNG or TIFF/EP raw).")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The output file (one input) or folder (several; created if missing).")
    var output: String

    @Option(help: "Output format for folder outputs: jpg, png or tiff (default jpg).")
    var format: String = "jpg"

    @Option(help: "Exposure in EV, −5…5, added to the file's BaselineExposure.")
    var exposure: Double?
    @Option(help: "White-balance temperature in kelvin, 2000…50000 (default: as shot).")
    var temperature: Double?
    @Option(help: "White-balance tint, −150…150, positive green (default: as shot).")
    var tint: Double?
    @Option(name: .customLong("nr-luma"), help: "Luminance noise reduction, 0…1 (default from the noise profile).")
    var nrLuma: Double?
    @Option(name: .customLong("nr-color"), help: "Colour noise reduction, 0…1 (default from the noise profile).")
    var nrColor: Double?
    @Option(help: "Sharpening amount, 0…2 (default 0.5 × BaselineSharpness).")
    var sharpen: Double?
    @Option(name: .customLong("sharpen-radius"), help: "Sharpening radius in pixels, 0.3…5 (default 1).")
    var sharpenRadius: Double?
    @Option(help: "Contrast, −1…1 (default 0).")
    var contrast: Double?
    @Option(help: "Saturation, −1…1 (default 0).")
    var saturation: Double?
    @Option(help: "Vibrance, −1…1 (default 0).")
    var vibrance: Double?
    @Option(help: "Tone curve amount, 0…1 (default 1; 0 keeps the output scene-referred).")
    var boost: Double?
    @Option(help: "Demosaicing method: rcd (default) or bilinear.")
    var method: String = "rcd"
    @Flag(name: .customLong("no-lens-correction"), help: "Skip the file's lens corrections.")
    var noLensCorrection = false
    @Flag(name: .customLong("no-highlight-recovery"), help: "Leave clipped highlights unreconstructed.")
    var noHighlightRecovery = false
    @Flag(help: "Develop a half-size draft (fast preview).")
    var half = false
    @Option(help: "Output colour space: srgb, p3, adobe or linear (extended linear sRGB).")
    var colorspace: String = "srgb"
    @Option(help: "JPEG quality, 1…100.")
    var quality: Int = 90
    @Flag(name: .customLong("optimize-huffman"), help: "Optimise JPEG Huffman tables (smaller file, more time and memory).")
    var optimizeHuffman = false
    @Option(help: "PNG/TIFF samples: 8, 16 or float (TIFF only; default 16 for TIFF, 8 for PNG).")
    var depth: String?
    @Option(help: "Worker threads (default: one per processor).")
    var threads: Int?

    static let spaces: [String: ColorSpace] = [
        "srgb": .sRGB, "p3": .displayP3, "display-p3": .displayP3, "adobe": .adobeRGB, "adobe-rgb": .adobeRGB,
        "linear": .extendedLinearSRGB,
    ]

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one raw file") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1…100, not \(quality)") }
        guard Self.spaces[colorspace.lowercased()] != nil else {
            throw ValidationError("--colorspace must be srgb, p3, adobe or linear, not '\(colorspace)'")
        }
        guard DemosaicMethod(rawValue: method) != nil else {
            throw ValidationError("--method must be \(DemosaicMethod.allCases.map(\.rawValue).joined(separator: " or ")), not '\(method)'")
        }
        if let depth, !["8", "16", "float"].contains(depth) {
            throw ValidationError("--depth must be 8, 16 or float, not '\(depth)'")
        }
        guard ImageFormat(fileExtension: format) != nil, format != "dng" else {
            throw ValidationError("--format must be jpg, png or tiff, not '\(format)'")
        }
        if inputs.count == 1 && !isFolder(output) {
            guard let f = ImageFormat(fileExtension: URL(fileURLWithPath: output).pathExtension), f != .dng else {
                throw ValidationError("cannot tell the output format from '\(output)'; use .jpg, .png or .tif, or a folder")
            }
        }
    }

    private func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return path.hasSuffix("/") || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    /// One unit of work: a future `--jobs`/`--shard` splits the list of these.
    struct Job {
        var input: String
        var output: URL
    }

    func jobs() throws -> [Job] {
        if inputs.count == 1 && !isFolder(output) {
            return [Job(input: inputs[0], output: URL(fileURLWithPath: output))]
        }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let ext = ImageFormat(fileExtension: format)!.fileExtension
        return inputs.map { input in
            let name = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
            return Job(input: input, output: URL(fileURLWithPath: output).appendingPathComponent("\(name).\(ext)"))
        }
    }

    func run() throws {
        // 256-pixel tiles: the raw pipeline's per-tile working set (demosaic, noise reduction and sharpening
        // scratch, about 12 MB per worker) then stays cache- and arena-friendly; measured on 12 MP, 512-pixel
        // tiles cost ~20 % more CPU and twice the memory despite their smaller margins.
        let context = RenderContext(options: RenderOptions(cacheIntermediates: false, threadCount: threads, tileSize: 256))
        var failures = 0
        for job in try jobs() {
            do {
                try develop(job, context: context)
            } catch let e as RAWError {
                failures += 1
                printError("\(job.input): \(e)")
            } catch let e as CodecError {
                failures += 1
                printError(CLIError(e, file: job.input).description)
            } catch {
                failures += 1
                printError("\(job.input): \(error)")
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }

    private func printError(_ message: String) {
        FileHandle.standardError.write(Data(("error: " + message + "\n").utf8))
    }

    /// The developer for `input` with every flag applied.
    func developer(for input: String) throws -> RAWDeveloper {
        var d = try RAWDeveloper(url: URL(fileURLWithPath: input))
        if let exposure { d.exposure = exposure }
        if let temperature { d.neutralTemperature = temperature }
        if let tint { d.neutralTint = tint }
        if let nrLuma { d.luminanceNoiseReductionAmount = nrLuma }
        if let nrColor { d.colorNoiseReductionAmount = nrColor }
        if let sharpen { d.sharpnessAmount = sharpen }
        if let sharpenRadius { d.sharpnessRadius = sharpenRadius }
        if let contrast { d.contrastAmount = contrast }
        if let saturation { d.saturationAmount = saturation }
        if let vibrance { d.vibranceAmount = vibrance }
        if let boost { d.boostAmount = boost }
        d.demosaicMethod = DemosaicMethod(rawValue: method)!
        d.isLensCorrectionEnabled = !noLensCorrection
        d.isHighlightRecoveryEnabled = !noHighlightRecovery
        d.isDraftModeEnabled = half
        return d
    }

    func develop(_ job: Job, context: RenderContext) throws {
        let developer = try developer(for: job.input)
        let image = try developer.outputImage
        let space = Self.spaces[colorspace.lowercased()]!
        let fileFormat = ImageFormat(fileExtension: job.output.pathExtension) ?? .jpeg
        var metadata = ImageMetadata(exif: developer.properties.exif)
        metadata.exif.orientation = .up
        metadata.exif.pixelXDimension = Int(image.extent.width)
        metadata.exif.pixelYDimension = Int(image.extent.height)
        metadata.exif.software = "Lux (LuxRAW \(developer.version))"
        var options = EncodingOptions(quality: Double(quality) / 100, alpha: .discard, threads: threads)
        let bounds = image.extent
        // Optimised Huffman tables make libjpeg keep every DCT coefficient of the image (about 3 bytes per
        // pixel) for a second pass, so they are opt-in.
        options.optimizesHuffmanTables = optimizeHuffman
        let samples: PixelFormat
        switch (fileFormat, depth) {
        case (.jpeg, _): samples = .rgba8
        case (.png, "16"), (.tiff, "16"), (.tiff, nil): samples = .rgba16
        case (.tiff, "float"): samples = .rgbaFloat
        case (.png, "float"): throw CLIError("PNG has no float samples; use --depth 16 or a .tif output")
        default: samples = .rgba8
        }
        // JPEG, PNG and TIFF are all rendered and encoded a strip at a time.
        try context.write(
            image, to: job.output, format: fileFormat, pixelFormat: samples, colorSpace: space, bounds: bounds,
            metadata: metadata, options: options)
    }
}
