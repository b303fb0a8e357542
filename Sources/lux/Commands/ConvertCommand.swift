import ArgumentParser
import Foundation
import Lux

/// `lux convert IN... -o OUT`: converts images between JPEG, PNG, TIFF, HEIC, AVIF, WebP and GIF (raws developed or their previews),
/// one file, many or folders, in parallel and in shards.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert images between JPEG, PNG, TIFF, HEIC, AVIF, WebP and GIF: one file, many files or folders.",
        usage: """
            lux convert <input> -o <file> [<options>]
            lux convert <input>... [-o <folder>] [--format <format>] [--jobs <n>] [--shard <index>/<count>] [<options>]
            """,
        discussion: """
            Reads JPEG, PNG, TIFF, HEIC/HEIF, AVIF, WebP, GIF and raw files (developed with LuxRAW's defaults, or \
            their largest embedded preview with --raw preview) and writes JPEG, PNG, TIFF, HEIC, AVIF, WebP or GIF, \
            picked by the output's extension or --format. WebP is lossy at --quality (as cwebp -q) or lossless with \
            --lossless; AVIF is AV1 at --quality (as heif-enc -A -q); GIF gets a 256-colour median-cut palette with \
            Floyd-Steinberg dithering. For an animated GIF or WebP input, --image N picks the frame (0 = the \
            first). CMYK and YCCK JPEGs and images with LUT-based ICC profiles are converted to sRGB through their \
            profile by Little CMS (--intent, relative colorimetric by default; a CMYK file without a profile is \
            read as DeviceCMYK, R = (1 - C)(1 - K)). An opaque input gives an opaque output (no alpha channel), a \
            gray input a gray output (one channel, gray profile) unless --color-space asks for colour, and a 16-bit \
            input a 16-bit PNG or TIFF. Orientation is applied (the output is upright, Exif orientation 1); the \
            colour space is kept (the input's ICC profile, Display P3 for iPhone photos) unless --color-space says \
            otherwise, and its profile is embedded; a HEIC's thumbnail carries over (reduced from the converted \
            picture; a JPEG's in its Exif block, a HEIC's as a thumbnail image); Exif and XMP are kept unless \
            --strip all (drop both) or \
            --strip location (drop the GPS fields). --size WxH scales the image to fit inside the box (Lanczos, \
            aspect ratio kept, never enlarged). The image is read, converted and encoded a strip at a time: a \
            HEIC is decoded by libheif into planes and interleaved strip by strip (an 8-bit HEIC written \
            unchanged as a JPEG of its colour space goes from the planes straight to the JPEG's Y'CbCr), a \
            JPEG re-encoded as a JPEG with nothing else changed (same colour space, no --size, upright, one scan, \
            4:4:4 or the output's chroma sampling) goes from its Y'CbCr blocks to the output's with no colour \
            conversion either way, an uncompressed 8-bit RGB TIFF written as an 8-bit RGB TIFF (no --size, \
            upright, opaque) goes from its stored rows to the output's strips, colour-matched in place by table on \
            all threads, and a HEIC output is encoded as 512 x 512 grid tiles a tile row at a time.

            HEIC inputs: --image N picks one of several top-level images (0 = the primary, then heif-info's \
            order). An HDR gain map (Apple's urn:com:apple:photo:2020:aux:hdrgainmap) is kept when a HEIC is \
            written from a HEIC (--hdr-gain-map keep, the default; it is scaled with the image), left out with \
            drop, or applied with apply: the HDR rendition, linear light above 1 where the gain map brightens \
            (Apple's formula: SDR x (1 + (headroom - 1) x gain), the headroom from the maker note's tags 33 and \
            48, or --hdr-headroom H when the maker note lacks one of them, as some iPhones' photos do), which needs \
            an output that keeps extended range (--depth half or float, a TIFF). PQ and HLG images (BT.2100) are \
            decoded to linear light with 203 cd/m2 as 1.0; an output that cannot hold values above 1 (any integer \
            depth) gets them tone-mapped by Reinhard's extended operator on luminance, L (1 + L / W^2) / (1 + L), \
            with the white point W at the format's peak (10000/203 for PQ, 1000/203 for HLG), never clipped.

            Inputs are files and folders (a folder gives its images: .jpg, .png, .tif, .heic, .heif, .hif, .avif, \
            .webp, .gif and raw files). One input with `-o NAME.ext` writes that file; otherwise `-o` is a folder (created if missing) \
            and each output is named after its input with the --format extension (default jpg). Without `-o`, \
            outputs go beside their inputs. An existing output is an error unless --overwrite (replace) or \
            --skip-existing (keep) is given. --jobs, --threads, --shard, --dry-run and --json work as in `lux \
            develop`; the JSON report's keys are the same with "converted" for "developed".

            Examples:
              lux convert IMG_0001.HEIC -o IMG_0001.jpg
              lux convert photos/ -o jpegs/ --format jpg --quality 85 --size 2048x2048 --jobs 2
              lux convert scan.tif -o scan.heic --depth 10 --color-space p3
              lux convert IMG_0001.HEIC -o hdr.tif --hdr-gain-map apply --depth half
              lux convert /data/photos -o /data/web --format jpg --strip location --shard auto/8 --json
            """)

    @Argument(help: "Images (JPEG, PNG, TIFF, HEIC, AVIF, WebP, GIF, raw) and folders of them.", completion: .file())
    var inputs: [String]

    @Option(
        name: [.customShort("o"), .customLong("out")],
        help: "The output file (one input) or folder (several inputs; created if missing). Default: beside each input.",
        completion: .file())
    var out: String?

    @Option(help: "Output format when outputs are named from their inputs: jpg, png, tiff, heic, avif, webp or gif.")
    var format: FileFormatArgument = .jpg

    @Option(
        parsing: .unconditional,
        help: "JPEG, HEIC, AVIF and WebP quality, 1...100 (HEIC: x265 CRF 50 × (1 − q/100), as heif-enc -q).")
    var quality: Int = 90

    @Flag(help: "Write WebP losslessly (VP8L) instead of lossy at --quality.")
    var lossless = false

    @Option(
        help:
            "Output samples: 8, 10 (HEIC), 16 (PNG, TIFF), half or float (TIFF); default: the deeper one for deeper inputs, else 8."
    )
    var depth: DepthArgument?

    @Option(
        name: .customLong("color-space"),
        help: "Output colour space: srgb, p3, adobe, linear, rec2020, ... (default: the input's).")
    var colorSpace: ColorSpaceArgument?

    @Option(help: "Fit inside this box, WxH pixels (aspect ratio kept, never enlarged).")
    var size: SizeArgument?

    @Option(help: "Metadata to leave out: all (Exif and XMP) or location (GPS).")
    var strip: StripArgument?

    @Option(
        parsing: .unconditional,
        help: "The image of a HEIC holding several (0: the primary, then heif-info order), or a GIF/WebP frame.")
    var image: Int = 0

    @Option(
        name: .customLong("hdr-gain-map"),
        help: "A HEIC's HDR gain map: keep (into HEIC outputs), apply (render the HDR rendition) or drop.")
    var gainMap: GainMapArgument = .keep

    @Option(
        name: .customLong("hdr-headroom"), parsing: .unconditional,
        help: "The headroom for --hdr-gain-map apply (a linear factor, 1 or more), instead of the maker note's.")
    var hdrHeadroom: Double?

    @Option(help: "Raw inputs: develop (LuxRAW's defaults) or preview (the largest embedded preview).")
    var raw: RawInputArgument = .develop

    @Option(
        help:
            "Rendering intent for CMYK and LUT-based ICC profiles (Little CMS): perceptual, relative, saturation or absolute."
    )
    var intent: IntentArgument = .relative

    @OptionGroup var batch: BatchOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one image or folder") }
        try validateQuality(quality)
        guard image >= 0 else { throw ValidationError("--image must be 0 or more, not \(image)") }
        var output = format.imageFormat
        if inputs.count == 1, !isFolderPath(inputs[0]), let out, !isFolderPath(out) {
            guard let f = ImageFormat(fileExtension: URL(fileURLWithPath: out).pathExtension), f != .dng else {
                throw ValidationError(
                    "cannot tell the output format from '\(out)'; use .jpg, .png, .tif, .heic, .avif, .webp or .gif, or a folder ending in /"
                )
            }
            output = f
        }
        try depth?.check(for: output)
        if let hdrHeadroom {
            guard gainMap == .apply else { throw ValidationError("--hdr-headroom goes with --hdr-gain-map apply") }
            guard hdrHeadroom >= 1, hdrHeadroom.isFinite else {
                throw ValidationError("--hdr-headroom must be a finite factor of 1 or more, not \(hdrHeadroom)")
            }
        }
        if gainMap == .apply, let depth, ![.half, .float].contains(depth) {
            throw ValidationError("--hdr-gain-map apply renders values above 1: use --depth half or float (TIFF)")
        }
    }

    func run() throws {
        let plan = try BatchPlan.make(
            arguments: inputs, output: out, fileExtension: format.rawValue, accepted: BatchPlan.imageExtensions,
            kind: "images", verb: "convert")
        let command = self
        try BatchRun(plan: plan, options: batch, verb: ("convert", "converted", "converting")).run { item, threads in
            try command.convert(item, threads: threads)
        }
    }

    /// Converts `item` and returns the output's size.
    func convert(_ item: BatchPlan.Item, threads: Int) throws -> (width: Int, height: Int) {
        let inputURL = URL(fileURLWithPath: item.input)
        let outputURL = URL(fileURLWithPath: item.output)
        let fileFormat = ImageFormat(fileExtension: outputURL.pathExtension) ?? format.imageFormat
        var source = try ConversionSource(
            url: inputURL, imageIndex: image, raw: raw, gainMap: gainMap, writesHEIC: fileFormat == .heic,
            intent: intent.intent)
        if gainMap == .apply {
            guard source.hdrGainMap != nil else {
                throw CLIError("\(item.input): --hdr-gain-map apply: the image has no HDR gain map")
            }
            try source.applyGainMap(headroom: hdrHeadroom)
        }
        if let size { source.resize(toFit: (size.width, size.height)) }
        var metadata = source.metadata
        metadata.orientation = .up
        strip?.apply(to: &metadata)

        var space = colorSpace?.space ?? source.colorSpace
        let samples = try OutputSamples(
            format: fileFormat, depth: depth, deep: source.isDeep, gray: space.model == .gray,
            opaque: source.isOpaque)
        var picture = source.image
        if let peak = source.hdrPeak {
            let keepsRange = samples.pixelFormat.isFloatingPoint && fileFormat == .tiff
            if gainMap == .apply, !keepsRange {
                throw CLIError(
                    "\(item.output): --hdr-gain-map apply renders values above 1; write a TIFF with --depth half or float"
                )
            }
            if keepsRange {
                if colorSpace == nil { space = source.colorSpace }
            } else {
                // Integer samples cannot hold HDR values: Reinhard's extended operator maps the content's peak to 1.
                picture = try HDRToneMapper(settings: .init(method: .reinhard(whitePoint: peak), exposure: 0))
                    .map(picture)
                if colorSpace == nil { space = source.colorSpace.integerFileEncoding }
            }
        }
        var options = EncodingOptions(
            quality: Double(quality) / 100, optimizesHuffmanTables: false, sampleType: samples.sampleType,
            alpha: samples.alpha, threads: threads)
        options.synchronizesFile = true
        // A HEIC's thumbnail carries over (reduced from the converted picture: upright, scaled like it).
        if source.hasThumbnail { options.embedsThumbnail = true }
        options.isLossless = lossless
        let extent = picture.extent.integral
        let encoder = try ImageStreamEncoder(
            writingTo: outputURL, format: fileFormat, width: Int(extent.width), height: Int(extent.height),
            pixelFormat: samples.encodedFormat, colorSpace: space, metadata: metadata, options: options)
        if fileFormat == .heic, let auxiliary = source.keptGainMap { encoder.auxiliaryImages = [auxiliary] }
        // An unchanged picture in its own sample format may go straight from the decoder to the encoder when the
        // encoder can take it (an 8-bit HEIC to a JPEG of its colour space: libheif's planes to Y′CbCr).
        var direct = false
        if let reader = source.reader, source.hdrPeak == nil, samples.pixelFormat == reader.pixelFormat {
            direct = try encoder.appendRowsDirectly(from: reader)
        }
        if !direct {
            let context = RenderContext(options: RenderOptions(cacheIntermediates: false, threadCount: threads))
            try context.render(picture, bounds: extent, format: samples.pixelFormat, colorSpace: space) { strip in
                try encoder.append(strip.buffer)
            }
        }
        try encoder.finish()
        return (Int(extent.width), Int(extent.height))
    }
}

/// `--strip`: metadata `lux convert` leaves out.
enum StripArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Exif and XMP (the ICC profile stays: it describes the pixels).
    case all
    /// The GPS fields of Exif and XMP.
    case location

    /// Removes the metadata from `metadata`.
    func apply(to metadata: inout ImageMetadata) {
        switch self {
        case .all:
            metadata.exif = EXIF()
            metadata.xmp = nil
        case .location:
            metadata.removeLocation()
        }
    }
}

/// `--hdr-gain-map`: what `lux convert` does with a HEIC's HDR gain map.
enum GainMapArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case keep, apply, drop
}

/// `--raw`: how `lux convert` reads a raw file.
enum RawInputArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case develop, preview
}
