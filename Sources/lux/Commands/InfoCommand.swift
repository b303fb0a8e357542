import ArgumentParser
import Foundation
import Lux

/// `lux info FILE...`: everything about image and movie files, from their headers.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe image and movie files without decoding their pixels.",
        discussion: """
            Prints the format, dimensions, sample layout, colour space and ICC profile description, Exif \
            (camera, lens, exposure, date, GPS), and for DNG files the CFA pattern, black and white levels, \
            linearisation table, active area, crop, colour matrices and calibration illuminants, forward \
            matrices, AsShotNeutral, the scene white, noise profile, opcodes and embedded previews. For a HEIF/HEIC \
            file it lists every top-level image (0 = the primary, then heif-info's order) with its size, bit \
            depth, ICC profile or nclx colour description, thumbnails, auxiliary images (depth map, HDR gain \
            map, alpha, mattes) and metadata items; --image N makes the top-level fields describe image N. For a \
            QuickTime movie it lists the streams. For a Live Photo still or movie it prints the content \
            identifier and whether its partner (same base name, .MOV beside a .JPG or the other way round) \
            exists and carries the same identifier.

            --json prints, for one file, an object with the keys "file", "format" (jpeg, png, tiff, dng, \
            heic, quicktime), "formatName", "width", "height", "pixels" {colorModel (gray, rgb, cmyk, raw), \
            pixelFormat, bitsPerSample, samplesPerPixel, hasAlpha}, "storage", "colorSpace", "iccProfile" \
            {description, bytes, deviceClass (input, display, output, colour space, ...), colorSpace (RGB, GRAY, \
            CMYK, ...), version}, "exif" {make, model, lensMake, \
            lensModel, software, artist, copyright, orientation, dateTimeOriginal, exposureTime (s), fNumber, \
            iso, focalLength (mm), focalLengthIn35mmFilm, exposureBias, exposureProgram, meteringMode, \
            whiteBalance, flash, latitude, longitude, altitude}, "xmpBytes", "raw" {dngVersion, \
            uniqueCameraModel, layout, bitsPerSample, cfaPattern, blackLevel, whiteLevel, \
            linearizationTableEntries, activeArea [top, left, bottom, right], defaultCrop [x, y, w, h], \
            colorMatrix1/2 (row-major), calibrationIlluminant1/2 (Exif LightSource codes), forwardMatrix1/2, \
            asShotNeutral, asShotWhiteXY, analogBalance, sceneWhite {temperature, tint, x, y}, \
            baselineExposure, noiseProfile, opcodeList1/2/3, previews [{width, height, encoding}]}, "heif" \
            {mainBrand, compatibleBrands, images [{index, itemID, isPrimary, width, height, storedWidth, \
            storedHeight, bitDepth, chromaBitDepth, hasAlpha, iccProfileDescription, nclx {colorPrimaries, \
            transferCharacteristics, matrixCoefficients, isFullRange}, thumbnails and auxiliaryImages [{itemID, \
            type, kind, width, height, bitDepth}], depth {kind, zNear, zFar, minimumDisparity, \
            maximumDisparity, disparityReferenceView}, metadata [{type, contentType, byteCount}], grid {rows, \
            columns, tileWidth, tileHeight, tileCodec, width, height} (a grid image's tiles and output size, \
            before rotation)}]}, "movie" \
            {brand, duration, stillImageTime, tracks [{id, kind, codec, codecName, duration, samples, width, \
            height, frameRate, sampleRate, channels}]} and "livePhoto" {contentIdentifier, partner, \
            partnerContentIdentifier, paired}. Keys without a value are left out. Several files give an array \
            of such objects. A file that cannot be read is reported on standard error and the others are still \
            described (exit status 1).

            Examples:
              lux info IMG_0001.JPG
              lux info photo.dng --json | jq .raw.asShotNeutral
              lux info IMG_0001.MOV
              lux info *.dng --json
              lux info IMG_0001.HEIC --json | jq .heif.images[0].auxiliaryImages
              lux info spatial.heic --image 1
            """)

    @Argument(help: "Image files (JPEG, PNG, TIFF, HEIC, DNG) or QuickTime movies.", completion: .file())
    var files: [String]

    @Option(
        parsing: .unconditional,
        help: "The image of a HEIC holding several that the top-level fields describe: 0 (the primary), 1, ....")
    var image: Int = 0

    @Flag(help: "Print JSON instead of text (see above for the keys).")
    var json = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one file") }
        guard image >= 0 else { throw ValidationError("--image must be 0 or more, not \(image)") }
    }

    func run() throws {
        var reports: [FileReport] = []
        var failed = false
        for file in files {
            do {
                reports.append(try FileReport(path: file, imageIndex: image))
            } catch {
                failed = true
                Terminal.printError("error: \(CLIError(error, file: file))")
            }
        }
        if json {
            if files.count == 1 {
                if let report = reports.first { try JSONOutput.print(report) }
            } else {
                try JSONOutput.print(reports)
            }
        } else {
            for (n, report) in reports.enumerated() {
                if n > 0 { print("") }
                print(report.file)
                for (key, value) in report.lines { print("  " + key.padding(16) + value) }
            }
        }
        if failed { throw ExitStatus.failure }
    }
}
