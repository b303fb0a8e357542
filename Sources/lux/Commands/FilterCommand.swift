import ArgumentParser
import Foundation
import Lux

/// `lux filter IN -o OUT --chain '...'`: applies a chain of filters to an image file.
struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Apply a chain of filters to an image file.",
        discussion: """
            The chain is a list of filters separated by `|`, each followed by key=value parameters: numbers \
            (0.8), vectors and points (x,y[,z,w]), rectangles (x,y,width,height), colours (r,g,b[,a] in sRGB, \
            #rrggbb, white, black...), transforms (a,b,c,d,tx,ty) and images as file paths. Each filter receives \
            the previous result as its image. `lux filters` lists the filters and their parameters. A result \
            that covers the whole input (blurs grow the extent by their margin) is cropped to the input's size. \
            An opaque input gives an opaque output unless the chain uncovers part of the picture (a rotation's \
            corners): the output then keeps an alpha channel where the format has one.

            The input is colour-matched into the working space (extended linear sRGB unless --working-space \
            says otherwise) and the result is written in --color-space (default: the input's). Every output \
            format (JPEG, PNG, TIFF, HEIC) is rendered and encoded a strip at a time (a JPEG with the standard Huffman \
            tables, as `lux convert` writes it: optimised tables would keep every DCT coefficient of the image in \
            memory). --image N picks the image \
            of a HEIC holding several (0 = the primary). Set LUX_PRINT_TREE=1 or 8 to see the graph and the \
            fused programs.

            Examples:
              lux filter photo.jpg -o sepia.jpg --chain 'SepiaTone intensity=0.8 | GaussianBlur radius=4'
              lux filter photo.jpg -o small.png --chain 'LanczosScaleTransform scale=0.25' --color-space p3
              lux filter in.tif -o out.tif --depth 16 --chain 'ExposureAdjust ev=-1' --overwrite
              lux filter IMG_0001.HEIC -o warm.heic --chain 'TemperatureAndTint neutral=6500,0 targetNeutral=5000,0'
            """)

    @Argument(help: "The input image (JPEG, PNG, TIFF or HEIC).", completion: .file())
    var input: String

    @Option(
        name: [.customShort("o"), .customLong("out")],
        help: "The output file; its extension picks the format (.jpg, .png, .tif, .heic, .avif, .webp, .gif).",
        completion: .file())
    var out: String

    @Option(
        parsing: .unconditional,
        help: "The image of a HEIC holding several: 0 (the primary, default), 1, ... in heif-info order.")
    var image: Int = 0

    @Option(help: "The filter chain, e.g. 'SepiaTone intensity=0.8 | GaussianBlur radius=4'.")
    var chain: String

    @Option(
        name: .customLong("color-space"),
        help: "The output colour space (srgb, p3, adobe, linear, ...; default: the input's).")
    var colorSpace: ColorSpaceArgument?

    @Option(
        help:
            "Output samples: 8, 10 (HEIC), 16 (PNG, TIFF), half or float (TIFF); default: the deeper one for deeper inputs, else 8."
    )
    var depth: DepthArgument?

    @Option(parsing: .unconditional, help: "JPEG and HEIC quality, 1...100.")
    var quality: Int = 90

    @Option(
        help: "The colour space filters compute in (default: linear sRGB, extended); 'none' disables colour management."
    )
    var workingSpace: String?

    @Option(help: "The storage format of intermediates: half (default), float or 8.")
    var workingFormat: String = "half"

    @Option(parsing: .unconditional, help: "Render threads (default: one per processor).")
    var threads: Int?

    @Option(
        help:
            "Rendering intent for CMYK and LUT-based ICC profiles (Little CMS): perceptual, relative, saturation or absolute."
    )
    var intent: IntentArgument = .relative

    @OptionGroup var overwriteOptions: OverwriteOptions

    static let workingFormats: [String: PixelFormat] = ["half": .rgbaHalf, "float": .rgbaFloat, "8": .rgba8]

    func validate() throws {
        try validateQuality(quality)
        try validatePositive(threads, "--threads")
        let known = ColorSpace.shortNames.keys.sorted().joined(separator: ", ")
        if let workingSpace, workingSpace != "none", ColorSpace.named(workingSpace) == nil {
            throw ValidationError("unknown working space '\(workingSpace)'; known: none, \(known)")
        }
        guard Self.workingFormats[workingFormat] != nil else {
            throw ValidationError("--working-format must be half, float or 8, not '\(workingFormat)'")
        }
        guard let f = ImageFormat(fileExtension: URL(fileURLWithPath: out).pathExtension), f != .dng else {
            throw ValidationError(
                "cannot tell the output format from '\(out)'; use .jpg, .png, .tif, .heic, .avif, .webp or .gif")
        }
        try depth?.check(for: f)
        guard image >= 0 else { throw ValidationError("--image must be 0 or more, not \(image)") }
    }

    func run() throws {
        try overwriteOptions.check(out)
        do {
            try apply()
        } catch let e as CodecError {
            throw CLIError(e, file: input)
        } catch let e as FilterError {
            throw CLIError("\(input): \(e)")
        } catch let e as RenderError {
            throw CLIError("\(input): \(e)")
        }
    }

    private func open(_ path: String, image: Int = 0) throws(CodecError) -> ImageRegionReader {
        var options = DecodingOptions(appliesOrientation: true, imageIndex: image)
        options.renderingIntent = intent.intent
        return try ImageRegionReader(url: URL(fileURLWithPath: path), options: options)
    }

    private func apply() throws {
        // The input is read strip by strip as the render needs it (TIFF), and the output is encoded strip by
        // strip: a TIFF-to-TIFF chain runs in bounded memory whatever the image size.
        let reader = try open(input, image: image)
        let input = Image(reading: reader, url: URL(fileURLWithPath: self.input))
        var result = try FilterChain(parsing: chain).apply(to: input, registry: .builtIn) { path in
            do { return Image(reading: try open(path), url: URL(fileURLWithPath: path)) } catch {
                throw FilterError.imageLoad(path: path, reason: "\(error)")
            }
        }
        let source = Rect(width: reader.width, height: reader.height)

        if result.extent.contains(source) {
            // Neighbourhood filters grow the extent by their margin; keep the picture the input's size.
            result = result.cropped(to: source)
        }
        guard !result.extent.isInfinite else {
            throw CLIError(
                "the result of '\(chain)' has an infinite extent; end the chain with Crop rectangle=x,y,width,height")
        }
        guard !result.extent.isEmpty else { throw CLIError("the result of '\(chain)' is empty") }

        let url = URL(fileURLWithPath: out)
        let fileFormat = ImageFormat(fileExtension: url.pathExtension)!
        let outputSpace = colorSpace?.space ?? reader.colorSpace ?? .sRGB
        let samples = try OutputSamples(
            format: fileFormat, depth: depth,
            deep: [.rgba16, .gray16, .rgbaHalf, .rgbaFloat, .grayFloat].contains(reader.pixelFormat),
            gray: outputSpace.model == .gray,
            // An opaque input stays opaque unless the chain uncovers part of the picture (a rotation's corners).
            opaque: reader.isOpaque && (result.isOpaque || !result.mayUncoverExtent))
        var options = RenderOptions(
            workingFormat: Self.workingFormats[workingFormat]!, cacheIntermediates: false, threadCount: threads)
        if let workingSpace {
            options.workingColorSpace = workingSpace == "none" ? nil : ColorSpace.named(workingSpace)
        }
        var metadata = reader.metadata
        metadata.orientation = .up
        try RenderContext(options: options).write(
            result, to: url, format: fileFormat, pixelFormat: samples.encodedFormat, colorSpace: outputSpace,
            bounds: result.extent.integral, metadata: metadata,
            options: EncodingOptions(
                quality: Double(quality) / 100, optimizesHuffmanTables: false, sampleType: samples.sampleType,
                alpha: samples.alpha, threads: threads))
    }
}
