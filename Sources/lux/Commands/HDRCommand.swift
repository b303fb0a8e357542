import ArgumentParser
import Foundation
import Lux

/// `lux hdr A.dng B.dng C.dng -o OUT`: HDR merge of raw exposure brackets into scene radiance.
struct HDRCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hdr",
        abstract: "Merge raw (DNG) exposure brackets into one scene-referred image (HDR merge), linear or tone-mapped.",
        discussion: """
            Each bracket's linear sensor values are divided by its exposure (EXIF ExposureTime x ISO, or \
            --exposures) and averaged with noise-optimal weights from its DNG NoiseProfile, so every part of the \
            scene comes mostly from the longest exposure that does not clip it; clipped photosites get no weight. \
            Brackets are aligned to the reference (the middle exposure, or --reference) unless --no-align, and \
            local disagreement (motion) is rejected. The merged mosaic is then developed like `lux develop` with \
            the reference's colour calibration, white balance and lens corrections, without highlight recovery, \
            tone curve or sharpening.

            The output depends on the file type: a TIFF holds linear scene radiance in --color-space (default \
            extended linear sRGB), float samples by default (about 1.0 where the reference bracket clips, brighter \
            parts of the scene go above 1) or 16-bit with --depth 16 (0...1: use --exposure to bring highlights \
            below 1). A JPEG, PNG or HEIC (or a TIFF with --depth 8) is tone-mapped for display: by exposure fusion of \
            renderings spanning the scene's range (--tone-map fusion, a local operator) or by Reinhard's global \
            operator (--tone-map reinhard). Outputs carry the reference's Exif and an ICC profile, and are written \
            under a temporary name and renamed, so a failure leaves no partial file.

            Examples:
              lux hdr m2.dng 0.dng p2.dng -o radiance.tif
              lux hdr m2.dng 0.dng p2.dng -o merged.jpg --color-space p3
              lux hdr a.dng b.dng c.dng -o hdr16.tif --depth 16 --exposure -3 --no-align
              lux hdr dark.dng bright.dng -o merged.png --exposures 1,16 --tone-map reinhard
            """)

    @Argument(
        help: "The brackets: raw files (DNG) of one scene, same camera and size, at least one.", completion: .file())
    var inputs: [String]

    @Option(
        name: [.customShort("o"), .customLong("out")],
        help: "The output file; its extension picks the format (.tif: linear radiance, .jpg/.png/.heic: tone-mapped).",
        completion: .file())
    var out: String

    @Option(
        help: ArgumentHelp(
            "Each bracket's relative exposure (time x gain; fractions allowed, e.g. 1/1000,1/250,1/60), instead of the files' EXIF.",
            valueName: "e1,e2,..."),
        transform: HDRCommand.parseExposures)
    var exposures: [Double]?

    @Option(
        parsing: .unconditional,
        help: "The reference bracket (0-based; default: the middle exposure): its position, colour and Exif are kept.")
    var reference: Int?

    @Flag(name: .customLong("no-align"), help: "Do not align the brackets (they were shot from a tripod).")
    var noAlign = false

    @Option(
        parsing: .unconditional,
        help:
            "Exposure in EV, -10...10 (negative values need no \"=\"), added to the reference's BaselineExposure; for tone-mapped outputs, the tone mapper's exposure (default: automatic)."
    )
    var exposure: Double?

    @Option(
        name: .customLong("nr-luma"), parsing: .unconditional,
        help: "Luminance noise reduction, 0...1 (default from the merge's noise: the longest exposure's).")
    var nrLuma: Double?

    @Option(
        name: .customLong("nr-color"), parsing: .unconditional,
        help: "Colour noise reduction, 0...1 (default from the merge's noise).")
    var nrColor: Double?

    @Option(name: .customLong("tone-map"), help: "Tone mapping for 8-bit outputs: fusion (local) or reinhard (global).")
    var toneMap: ToneMapArgument = .fusion

    @Option(
        name: .customLong("color-space"),
        help: "Output colour space (default: linear for TIFF radiance, srgb for tone-mapped outputs).")
    var colorSpace: ColorSpaceArgument?

    @Option(
        help:
            "Output samples: float (TIFF default: radiance), 16 (linear radiance in TIFF, tone-mapped in PNG), 10 (tone-mapped HEIC) or 8 (tone-mapped)."
    )
    var depth: DepthArgument?

    @Option(parsing: .unconditional, help: "JPEG and HEIC quality, 1...100.")
    var quality: Int = 90

    @Option(parsing: .unconditional, help: "Worker threads (default: one per processor).")
    var threads: Int?

    @OptionGroup var overwriteOptions: OverwriteOptions

    /// The tone-mapping operators.
    enum ToneMapArgument: String, ExpressibleByArgument, CaseIterable {
        case fusion, reinhard
    }

    /// Parses `1/250,1/60,0.25`.
    static func parseExposures(_ text: String) throws -> [Double] {
        try text.split(separator: ",").map { item in
            let parts = item.split(separator: "/").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard (1...2).contains(parts.count), parts.allSatisfy({ $0 != nil }) else {
                throw ValidationError("--exposures: '\(item)' is not a number or fraction")
            }
            let value = parts.count == 2 ? parts[0]! / parts[1]! : parts[0]!
            guard value.isFinite, value > 0 else { throw ValidationError("--exposures: '\(item)' is not positive") }
            return value
        }
    }

    /// The output file's format.
    var fileFormat: ImageFormat? { ImageFormat(fileExtension: URL(fileURLWithPath: out).pathExtension) }

    /// Whether the output is tone-mapped (8-bit display samples) rather than linear radiance.
    var isToneMapped: Bool {
        switch (fileFormat, depth) {
        case (.tiff, .eight?): true
        case (.tiff, _): false
        default: true
        }
    }

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one raw bracket") }
        guard let f = fileFormat, f != .dng else {
            throw ValidationError("cannot tell the output format from '\(out)'; use .tif, .jpg, .png or .heic")
        }
        try validateQuality(quality)
        try validatePositive(threads, "--threads")
        if let exposures, exposures.count != inputs.count {
            throw ValidationError("--exposures has \(exposures.count) values for \(inputs.count) brackets")
        }
        if let reference, !inputs.indices.contains(reference) {
            throw ValidationError("--reference must be 0...\(inputs.count - 1)")
        }
        if let exposure, !(exposure.isFinite && abs(exposure) <= 10) {
            throw ValidationError("--exposure must be -10...10")
        }
        switch (f, depth) {
        case (_, .half?): throw ValidationError("--depth must be 8, 10, 16 or float")
        case (.jpeg, let d?) where d != .eight:
            throw ValidationError("JPEG has 8-bit samples only; use a .tif output for radiance")
        case (.png, .float?): throw ValidationError("PNG has no float samples; use a .tif output for radiance")
        case (_, let d?): try d.check(for: f)
        default: break
        }
    }

    func run() throws {
        try overwriteOptions.check(out)
        var brackets: [RawImage] = []
        for path in inputs {
            do {
                let file = try ImageFile.read(url: URL(fileURLWithPath: path))
                guard let raw = file.rawImage else {
                    throw CLIError("\(path): not a raw file (\(file.format)); lux hdr merges DNG brackets")
                }
                brackets.append(raw)
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError(error, file: path)
            }
        }
        var settings = HDRMerge.Settings(reference: reference, threads: threads)
        if noAlign { settings.alignment = nil }
        var merged: RawImage?
        do {
            merged = try HDRMerge(settings: settings).merge(brackets, exposures: exposures).raw
        } catch {
            throw CLIError("\(inputs.joined(separator: ", ")): \(error)")
        }
        // The brackets are not needed any more: free them before developing.
        brackets.removeAll()
        do {
            guard isToneMapped else { return try writeRadiance(merged.take()!) }
            // The merged mosaic (and its developer) is freed once the radiance is rendered.
            let (radiance, metadata) = try developRadiance(merged.take()!)
            try writeToneMapped(radiance, metadata: metadata)
        } catch {
            throw CLIError(error, file: out)
        }
    }

    /// The merged raw's developer (no highlight recovery, tone curve or sharpening).
    func developer(for merged: RawImage) throws -> RAWDeveloper {
        var developer = try RAWDeveloper(rawImage: merged)
        developer.isHighlightRecoveryEnabled = false
        developer.boostAmount = 0
        developer.sharpnessAmount = 0
        if let exposure, !isToneMapped { developer.exposure = exposure }
        if let nrLuma { developer.luminanceNoiseReductionAmount = nrLuma }
        if let nrColor { developer.colorNoiseReductionAmount = nrColor }
        return developer
    }

    var cores: Int { threads ?? ProcessInfo.processInfo.activeProcessorCount }

    var encodingOptions: EncodingOptions {
        EncodingOptions(quality: Double(quality) / 100, alpha: .discard, threads: cores)
    }

    func renderContext() -> RenderContext {
        RenderContext(options: RAWDeveloper.renderOptions(threadCount: cores))
    }

    /// Develops the merged raw and writes its linear radiance strip by strip from the render.
    func writeRadiance(_ merged: consuming RawImage) throws {
        let developer = try developer(for: merged)
        let image = try developer.outputImage
        try renderContext().write(
            image, to: URL(fileURLWithPath: out), format: fileFormat,
            pixelFormat: depth == .sixteen ? .rgba16 : .rgbaFloat,
            colorSpace: colorSpace?.space ?? .extendedLinearSRGB, bounds: image.extent,
            metadata: developer.outputMetadata(for: image, detail: "lux hdr"), options: encodingOptions,
            rowsPerStrip: RAWDeveloper.renderTileSize)
    }

    /// Develops the merged raw into half-float linear radiance (extended linear sRGB) for the tone mapper, which
    /// needs statistics of the whole scene.
    func developRadiance(_ merged: consuming RawImage) throws -> (PixelBuffer, ImageMetadata) {
        let developer = try developer(for: merged)
        let image = try developer.outputImage
        var radiance = try renderContext().createBuffer(
            image, from: image.extent, format: .rgbaHalf, colorSpace: .extendedLinearSRGB)
        radiance.isPremultiplied = false
        return (radiance, developer.outputMetadata(for: image, detail: "lux hdr"))
    }

    /// Tone-maps the radiance and writes the display image band by band as the tone mapper finishes them.
    func writeToneMapped(_ radiance: PixelBuffer, metadata: ImageMetadata) throws {
        let space = colorSpace?.space ?? .sRGB
        let samples: PixelFormat = depth == .sixteen || depth == .ten ? .rgba16 : .rgba8
        let method: HDRToneMapper.Operator = toneMap == .fusion ? .exposureFusion() : .reinhard()
        let mapper = HDRToneMapper(
            settings: .init(method: method, exposure: exposure, outputFormat: samples, threads: cores))
        var options = encodingOptions
        options.sampleType = depth == .ten ? .uint10 : .automatic
        try ImageStreamEncoder.write(
            to: URL(fileURLWithPath: out), format: fileFormat, width: radiance.width, height: radiance.height,
            pixelFormat: samples, colorSpace: space, metadata: metadata, options: options
        ) { append in
            try mapper.map(radiance, to: space) { band, _ in try append(band) }
        }
    }
}
