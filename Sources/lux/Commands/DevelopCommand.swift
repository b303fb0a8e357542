import ArgumentParser
import Foundation
import Lux
import Synchronization

/// `lux develop IN... [-o OUT|DIR]`: develops raw files to JPEG, PNG, TIFF or HEIC, one, many or a folder, in parallel
/// and in shards.
struct DevelopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "develop",
        abstract:
            "Develop camera raws (DNG, NEF, CR2, ARW, RAF ...) into JPEG, PNG, TIFF or HEIC: one file, many or folders.",
        usage: """
            lux develop <input> [-o <file>] [<options>]
            lux develop <input>... [-o <folder>] [--jobs <n>] [--shard <index>/<count>] [<options>]
            """,
        discussion: """
            DNG files are decoded by Lux itself, other camera raws (more than 1000 cameras) by LibRaw; Bayer, \
            X-Trans and Linear Raw (ProRAW) data all go through LuxRAW's pipeline (linearise, demosaic, moire \
            reduction, lens corrections, noise reduction, white balance and camera colour, exposure, highlight \
            recovery, gamut mapping, the linear filter, saturation, tone curve, shadow boost, contrast, \
            sharpening, default crop, scale and orientation). Parameters left out keep the defaults read from the file \
            (white balance from AsShotNeutral, noise reduction from the NoiseProfile, BaselineExposure ...). \
            Outputs are rendered and encoded a strip at a time, so very large raws develop in bounded memory; \
            they carry an ICC profile for --color-space and the raw's Exif, and are written under a temporary \
            name and renamed, so a failure never leaves a partial file.

            Inputs are files and folders (a folder gives its raw files: .dng, .nef, .cr2, .arw, ...). One input \
            with `-o NAME.jpg` writes that file; otherwise `-o` is a folder (created if missing) and each output \
            is named after its input with the --format extension. Without `-o`, outputs go beside their inputs. \
            An existing output is an error unless --overwrite (replace) or --skip-existing (keep) is given. \
            A file that fails is reported as "error: FILE: what is wrong" and the others are still developed.

            Batches: --jobs N develops N files at a time (each with cores/N render threads; memory grows with N, \
            not with the number of files). --shard INDEX/COUNT develops only this process's share of the sorted \
            input list (positions INDEX, INDEX+COUNT, ...), so COUNT processes on any number of machines develop \
            every input exactly once. --shard auto/COUNT reads INDEX from $LUX_SHARD_INDEX, \
            $JOB_COMPLETION_INDEX (Kubernetes Indexed Job), $SLURM_ARRAY_TASK_ID (minus $SLURM_ARRAY_TASK_MIN), \
            $AWS_BATCH_JOB_ARRAY_INDEX or $CLOUD_RUN_TASK_INDEX; --shard auto also reads COUNT from \
            $LUX_SHARD_COUNT, $SLURM_ARRAY_TASK_COUNT or $CLOUD_RUN_TASK_COUNT. --dry-run prints the plan.

            --json prints one object on standard output: "shard" ({index, count, indexSource}, absent without \
            --shard), "batchInputCount" (inputs of all shards), "files" (one {input, output, status, error, width, \
            height, bytes, seconds} per input of this shard, status "developed", "skipped", "failed" or \
            "planned"; keys without a value are left out), "developed", "skipped", "failed" and "seconds".

            Examples:
              lux develop IMG_0001.dng -o IMG_0001.jpg
              lux develop shots/ -o developed/ --color-space p3 --exposure 0.3 --jobs 2
              lux develop shot.dng -o shot.tif --depth 16 --boost 0 --color-space linear
              lux develop DSCF0001.RAF -o small.jpg --scale 0.25 --exposure -0.7 --shadow-boost 0.4
              lux develop IMG_0001.CR2 -o card.jpg --neutral-at 1200,800 --moire 0.5 --linear-filter 'GaussianBlur radius=1' 
              lux develop /data/raw -o /data/jpg --shard 3/16 --skip-existing --json
              JOB_COMPLETION_INDEX=3 lux develop /data/raw -o /data/jpg --shard auto/16
            """)

    @Argument(help: "Raw files (DNG or any camera raw LibRaw reads) and folders of them.", completion: .file())
    var inputs: [String]

    @Option(
        name: [.customShort("o"), .customLong("out")],
        help: "The output file (one input) or folder (several inputs; created if missing). Default: beside each input.",
        completion: .file())
    var out: String?

    @Option(help: "Output format when outputs are named from their inputs: jpg, png, tiff or heic.")
    var format: FileFormatArgument = .jpg

    @Option(parsing: .unconditional, help: "Exposure in EV, -5...5, added to the file's BaselineExposure.")
    var exposure: Double?
    @Option(parsing: .unconditional, help: "White-balance temperature in kelvin, 2000...50000 (default: as shot).")
    var temperature: Double?
    @Option(parsing: .unconditional, help: "White-balance tint, -150...150, positive green (default: as shot).")
    var tint: Double?
    @Option(
        name: .customLong("nr-luma"), parsing: .unconditional,
        help: "Luminance noise reduction, 0...1 (default from the noise profile).")
    var nrLuma: Double?
    @Option(
        name: .customLong("nr-color"), parsing: .unconditional,
        help: "Colour noise reduction, 0...1 (default from the noise profile).")
    var nrColor: Double?
    @Option(parsing: .unconditional, help: "Sharpening amount, 0...2 (default 0.5 x BaselineSharpness).")
    var sharpen: Double?
    @Option(
        name: .customLong("sharpen-radius"), parsing: .unconditional,
        help: "Sharpening radius in pixels, 0.3...5 (default 1).")
    var sharpenRadius: Double?
    @Option(parsing: .unconditional, help: "Contrast, -1...1 (default 0).")
    var contrast: Double?
    @Option(parsing: .unconditional, help: "Saturation, -1...1 (default 0).")
    var saturation: Double?
    @Option(parsing: .unconditional, help: "Vibrance, -1...1 (default 0).")
    var vibrance: Double?
    @Option(parsing: .unconditional, help: "Tone curve amount, 0...1 (default 1; 0 keeps the output scene-referred).")
    var boost: Double?
    @Option(parsing: .unconditional, help: "Shadow boost after the tone curve, 0...1 (default 0).")
    var shadowBoost: Double?
    @Option(
        name: .customLong("moire"), parsing: .unconditional, help: "Moire (false colour) reduction, 0...1 (default 0).")
    var moire: Double?
    @Option(
        name: .customLong("nr-detail"), parsing: .unconditional,
        help: "Fine detail luminance noise reduction keeps, 0...1 (default 0.5).")
    var nrDetail: Double?
    @Option(
        name: .customLong("nr-sharpness"), parsing: .unconditional,
        help: "Sharpening inside luminance noise reduction, 0...1 (default 0).")
    var nrSharpness: Double?
    @Option(
        name: .customLong("nr-contrast"), parsing: .unconditional,
        help: "Local contrast inside luminance noise reduction, 0...1 (default 0).")
    var nrContrast: Double?
    @Option(
        name: .customLong("neutral-xy"), parsing: .unconditional,
        help: ArgumentHelp(
            "The white to render neutral as CIE x,y chromaticity (instead of --temperature/--tint).", valueName: "x,y"),
        transform: DevelopCommand.parsePair)
    var neutralXY: [Double]?
    @Option(
        name: .customLong("neutral-at"), parsing: .unconditional,
        help: ArgumentHelp(
            "Render the output pixels around X,Y (output coordinates) neutral, such as a grey card.", valueName: "x,y"),
        transform: DevelopCommand.parsePair)
    var neutralAt: [Double]?
    @Option(parsing: .unconditional, help: "Output size relative to the cropped image, 0 < s <= 1 (default 1).")
    var scale: Double?
    @Option(
        parsing: .unconditional,
        help: "Orientation override, 1...8 (Exif; default: the file's).")
    var orientation: Int?
    @Flag(name: .customLong("ignore-orientation"), help: "Ignore the file's orientation (same as --orientation 1).")
    var ignoreOrientation = false
    @Option(
        name: .customLong("linear-filter"),
        help:
            "A filter chain applied in linear scene-referred space before the tone curve, e.g. 'GaussianBlur radius=2'."
    )
    var linearFilter: String?
    @Option(help: "Demosaicing method: rcd (default), quality (slower, finer) or bilinear.")
    var method = DemosaicMethodArgument(.rcd)
    @Flag(name: .customLong("no-lens-correction"), help: "Skip the file's lens corrections.")
    var noLensCorrection = false
    @Flag(name: .customLong("no-highlight-recovery"), help: "Leave clipped highlights unreconstructed.")
    var noHighlightRecovery = false
    @Flag(
        name: .customLong("no-gamut-mapping"), help: "Keep colours outside Rec. 2020 as the camera matrix gives them.")
    var noGamutMapping = false
    @Flag(help: "Draft: faster and lower quality, at the same output size.")
    var draft = false
    @Flag(help: "Develop at half size (the same as --scale 0.5).")
    var half = false
    @Option(
        help: "The decoder of DNG files: lux (default) or libraw (for comparisons; other raws always use LibRaw).")
    var decoder: DecoderArgument = .lux

    @Option(
        name: .customLong("color-space"),
        help: "Output colour space: srgb, p3, adobe, linear (extended linear sRGB), rec2020, ....")
    var colorSpace = ColorSpaceArgument(.sRGB)
    @Option(
        parsing: .unconditional,
        help: "JPEG and HEIC quality, 1...100 (HEIC: x265 CRF 50 × (1 − q/100), as heif-enc -q).")
    var quality: Int = 90
    @Flag(
        name: .customLong("optimize-huffman"),
        help: "Optimise JPEG Huffman tables (about 5 % smaller, more time and about 3 bytes per pixel of memory).")
    var optimizeHuffman = false
    @Option(
        help:
            "Output samples: 8, 10 (HEIC), 16 (PNG, TIFF), half or float (TIFF). Default: 16 for TIFF, 10 for HEIC, 8 for JPEG and PNG."
    )
    var depth: DepthArgument?

    @OptionGroup var batch: BatchOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one raw file or folder") }
        try validateQuality(quality)
        if depth == .half { throw ValidationError("--depth must be 8, 10, 16 or float") }
        var output = format.imageFormat
        if let orientation, !(1...8).contains(orientation) {
            throw ValidationError("--orientation must be 1...8 (Exif), not \(orientation)")
        }
        if half, let scale, scale != 0.5 { throw ValidationError("--half is --scale 0.5; give one of them") }
        if neutralXY != nil, temperature != nil || tint != nil || neutralAt != nil {
            throw ValidationError(
                "--neutral-xy sets the white balance: leave out --temperature, --tint and --neutral-at")
        }
        if let linearFilter { _ = try Self.linearFilter(linearFilter) }
        if inputs.count == 1, !isFolderPath(inputs[0]), let out, !isFolderPath(out) {
            let ext = URL(fileURLWithPath: out).pathExtension
            guard let f = ImageFormat(fileExtension: ext), f != .dng, f != .cameraRaw else {
                throw ValidationError(
                    "cannot tell the output format from '\(out)'; use .jpg, .png, .tif or .heic, or a folder ending in /"
                )
            }
            output = f
        }
        try depth?.check(for: output)
    }

    func run() throws {
        let plan = try BatchPlan.make(arguments: inputs, output: out, fileExtension: format.rawValue)
        let command = self
        try BatchRun(plan: plan, options: batch, verb: ("develop", "developed", "developing")).run { item, threads in
            try command.develop(item, threads: threads)
        }
    }

    /// The developer for `input` with every flag applied.
    func developer(for input: String) throws -> RAWDeveloper {
        var d = try RAWDeveloper(
            url: URL(fileURLWithPath: input),
            options: DecodingOptions(allowsMappedPixels: true, decodesDNGWithLibRaw: decoder == .libraw))
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
        if let shadowBoost { d.shadowBoostAmount = shadowBoost }
        if let moire { d.moireReductionAmount = moire }
        if let nrDetail { d.noiseReductionDetailAmount = nrDetail }
        if let nrSharpness { d.noiseReductionSharpnessAmount = nrSharpness }
        if let nrContrast { d.noiseReductionContrastAmount = nrContrast }
        if let scale { d.scaleFactor = scale }
        if half { d.scaleFactor = 0.5 }
        if ignoreOrientation { d.orientation = .up }
        if let orientation, let o = Orientation(rawValue: UInt16(orientation)) { d.orientation = o }
        if let neutralXY { d.neutralChromaticity = Chromaticity(x: neutralXY[0], y: neutralXY[1]) }
        d.demosaicMethod = method.method
        d.isLensCorrectionEnabled = !noLensCorrection
        d.isHighlightRecoveryEnabled = !noHighlightRecovery
        d.isGamutMappingEnabled = !noGamutMapping
        d.isDraftModeEnabled = draft
        if let neutralAt { try d.setNeutral(at: Point(x: neutralAt[0], y: neutralAt[1])) }
        if let linearFilter { d.linearSpaceFilter = try Self.linearFilter(linearFilter) }
        return d
    }

    /// `X,Y`: two numbers.
    static func parsePair(_ text: String) throws -> [Double] {
        let values = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 2, values.allSatisfy(\.isFinite) else {
            throw ValidationError("expected two numbers X,Y, not '\(text)'")
        }
        return values
    }

    /// The linear-space filter of `--linear-filter`: the chain applied to the image, cropped to its extent.
    ///
    /// The chain is tried on a small image first, so an unknown filter or a bad value is an error before any file
    /// is developed.
    static func linearFilter(_ text: String) throws -> @Sendable (Image) -> Image {
        let chain: FilterChain
        do {
            chain = try FilterChain(parsing: text)
            _ = try chain.apply(to: Image(color: .black).cropped(to: Rect(width: 8, height: 8)), registry: .builtIn) {
                path in throw FilterError.imageLoad(path: path, reason: "--linear-filter takes no image parameters")
            }
        } catch {
            throw ValidationError("--linear-filter '\(text)': \(error)")
        }
        return { image in
            let result = try? chain.apply(to: image, registry: .builtIn) { path in
                throw FilterError.imageLoad(path: path, reason: "--linear-filter takes no image parameters")
            }
            return result?.cropped(to: image.extent) ?? image
        }
    }

    /// Develops `item` and returns the output's size.
    func develop(_ item: BatchPlan.Item, threads: Int) throws -> (width: Int, height: Int) {
        let context = RenderContext(options: RAWDeveloper.renderOptions(threadCount: threads))
        let developer = try developer(for: item.input)
        let image = try developer.outputImage
        let url = URL(fileURLWithPath: item.output)
        let fileFormat = ImageFormat(fileExtension: url.pathExtension) ?? format.imageFormat
        let metadata = developer.outputMetadata(for: image)
        var options = EncodingOptions(quality: Double(quality) / 100, alpha: .discard, threads: threads)
        // Optimised Huffman tables make libjpeg keep every DCT coefficient of the image (about 3 bytes per
        // pixel) for a second pass, so they are opt-in.
        options.optimizesHuffmanTables = optimizeHuffman
        let samples: OutputSamples
        do {
            // A developed raw is deeper than 8 bits: TIFF defaults to 16 and HEIC to 10.
            samples = try OutputSamples(
                format: fileFormat, depth: depth, deep: fileFormat == .tiff || fileFormat == .heic)
        } catch {
            throw CLIError("\(item.output): \(error)")
        }
        options.sampleType = samples.sampleType
        // Every format is rendered and encoded a strip at a time.
        try context.write(
            image, to: url, format: fileFormat, pixelFormat: samples.pixelFormat, colorSpace: colorSpace.space,
            bounds: image.extent,
            metadata: metadata, options: options, rowsPerStrip: RAWDeveloper.renderTileSize)
        return (Int(image.extent.width), Int(image.extent.height))
    }
}
