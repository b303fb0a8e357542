import ArgumentParser
import Foundation
import Lux

/// `lux thumbnail IN... -o OUT --size N`: small upright copies of images, read with shrink-on-load
/// (``Thumbnail``), one file, many or folders, in parallel and in shards.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make thumbnails of images: one file, many files or folders, reading as few pixels as possible.",
        usage: """
            lux thumbnail <input> -o <file> --size <n> [<options>]
            lux thumbnail <input>... -o <folder> --size <n> [--format <format>] [--jobs <n>] [<options>]
            """,
        discussion: """
            Fits each image inside a --size box (N for N x N, or WxH; aspect ratio kept, never enlarged) and \
            writes it as JPEG, PNG, TIFF, HEIC, AVIF, WebP or GIF, picked by the output's extension or --format. \
            The pixels are read with shrink-on-load: a HEIC's stored thumbnail or a raw file's embedded JPEG preview when it is \
            at least the thumbnail's size, a JPEG (or JPEG preview) reduced by 2, 4 or 8 in libjpeg's DCT domain, \
            otherwise the whole image; an exact Lanczos-3 step on the encoded values (as vipsthumbnail and Pillow \
            do) gives the final size. A raw file without a large enough preview is developed with LuxRAW's \
            defaults. Orientation is applied (Exif orientation 1), the output is in the input's colour space \
            unless --color-space says otherwise, with its profile embedded, and Exif and XMP are kept unless \
            --strip all or --strip location.

            One input with `-o NAME.ext` writes that file; otherwise `-o` is a folder (created if missing) and \
            each thumbnail is named after its input with the --format extension (default jpg). An existing \
            output is an error unless --overwrite or --skip-existing. --jobs, --threads, --shard, --dry-run and \
            --json work as in `lux convert`; the JSON report's keys are the same with "thumbnailed" for \
            "converted".

            Examples:
              lux thumbnail IMG_0001.jpg -o small.jpg --size 160
              lux thumbnail photos/ -o thumbs/ --size 320x240 --jobs 2
              lux thumbnail IMG_0001.HEIC IMG_0002.dng -o thumbs/ --size 512 --color-space srgb --strip all
            """)

    @Argument(help: "Images (JPEG, PNG, TIFF, HEIC, AVIF, WebP, GIF, raw) and folders of them.", completion: .file())
    var inputs: [String]

    @Option(
        name: [.customShort("o"), .customLong("out")],
        help: "The output file (one input) or folder (several inputs; created if missing).",
        completion: .file())
    var out: String

    @Option(help: "The box to fit inside: N (N x N) or WxH pixels.")
    var size: SizeArgument

    @Option(help: "Output format when outputs are named from their inputs: jpg, png, tiff, heic, avif, webp or gif.")
    var format: FileFormatArgument = .jpg

    @Option(parsing: .unconditional, help: "JPEG and HEIC quality, 1...100.")
    var quality: Int = 90

    @Option(
        name: .customLong("color-space"),
        help: "Output colour space: srgb, p3, adobe, linear, rec2020, ... (default: the input's).")
    var colorSpace: ColorSpaceArgument?

    @Option(help: "Metadata to leave out: all (Exif and XMP) or location (GPS).")
    var strip: StripArgument?

    @OptionGroup var batch: BatchOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one image or folder") }
        try validateQuality(quality)
        if inputs.count == 1, !isFolderPath(inputs[0]), !isFolderPath(out) {
            guard let f = ImageFormat(fileExtension: URL(fileURLWithPath: out).pathExtension), f != .dng else {
                throw ValidationError(
                    "cannot tell the output format from '\(out)'; use .jpg, .png, .tif, .heic, .avif, .webp or .gif, or a folder ending in /"
                )
            }
        }
    }

    func run() throws {
        let plan = try BatchPlan.make(
            arguments: inputs, output: out, fileExtension: format.rawValue, accepted: BatchPlan.imageExtensions,
            kind: "images", verb: "thumbnail")
        let command = self
        try BatchRun(plan: plan, options: batch, verb: ("thumbnail", "thumbnailed", "thumbnailing")).run {
            item, threads in
            try command.thumbnail(item, threads: threads)
        }
    }

    /// Writes the thumbnail of `item` and returns its size.
    func thumbnail(_ item: BatchPlan.Item, threads: Int) throws -> (width: Int, height: Int) {
        let inputURL = URL(fileURLWithPath: item.input)
        let outputURL = URL(fileURLWithPath: item.output)
        let fileFormat = ImageFormat(fileExtension: outputURL.pathExtension) ?? format.imageFormat
        let box = (width: size.width, height: size.height)
        let options = EncodingOptions(quality: Double(quality) / 100, threads: threads)
        let thumbnail: Thumbnail
        do {
            thumbnail = try Thumbnail(
                contentsOf: inputURL, fitting: box, colorSpace: colorSpace?.space, threads: threads)
        } catch CodecError.missingPixelData
            where BatchPlan.rawExtensions.contains(inputURL.pathExtension.lowercased())
        {
            return try developed(inputURL, fitting: box, to: outputURL, format: fileFormat, options: options)
        }
        var metadata = thumbnail.metadata
        strip?.apply(to: &metadata)
        try ImageFile.write(thumbnail.pixels, metadata: metadata, to: outputURL, format: fileFormat, options: options)
        return (thumbnail.pixels.width, thumbnail.pixels.height)
    }

    /// Develops a raw file with LuxRAW's defaults and writes it scaled to fit inside `box`.
    func developed(
        _ url: URL, fitting box: (width: Int, height: Int), to output: URL, format: ImageFormat,
        options: EncodingOptions
    ) throws -> (width: Int, height: Int) {
        let developer = try RAWDeveloper(url: url)
        let image = try developer.outputImage.resizedToFit(box)
        var metadata = developer.outputMetadata(for: image)
        metadata.orientation = .up
        strip?.apply(to: &metadata)
        let context = RenderContext(options: RenderOptions(cacheIntermediates: false, threadCount: options.threads))
        try context.write(
            image, to: output, format: format, colorSpace: colorSpace?.space ?? .sRGB, metadata: metadata,
            options: options)
        return (Int(image.extent.width), Int(image.extent.height))
    }
}
