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
            matrices, AsShotNeutral, the scene white, noise profile, opcodes and embedded previews. For a \
            QuickTime movie it lists the streams. For a Live Photo still or movie it prints the content \
            identifier and whether its partner (same base name, .MOV beside a .JPG or the other way round) \
            exists and carries the same identifier.

            --json prints, for one file, an object with the keys "file", "format" (jpeg, png, tiff, dng, \
            quicktime), "formatName", "width", "height", "pixels" {pixelFormat, bitsPerSample, samplesPerPixel, \
            hasAlpha}, "storage", "colorSpace", "iccProfile" {description, bytes}, "exif" {make, model, lensMake, \
            lensModel, software, artist, copyright, orientation, dateTimeOriginal, exposureTime (s), fNumber, \
            iso, focalLength (mm), focalLengthIn35mmFilm, exposureBias, exposureProgram, meteringMode, \
            whiteBalance, flash, latitude, longitude, altitude}, "xmpBytes", "raw" {dngVersion, \
            uniqueCameraModel, layout, bitsPerSample, cfaPattern, blackLevel, whiteLevel, \
            linearizationTableEntries, activeArea [top, left, bottom, right], defaultCrop [x, y, w, h], \
            colorMatrix1/2 (row-major), calibrationIlluminant1/2 (Exif LightSource codes), forwardMatrix1/2, \
            asShotNeutral, asShotWhiteXY, analogBalance, sceneWhite {temperature, tint, x, y}, \
            baselineExposure, noiseProfile, opcodeList1/2/3, previews [{width, height, encoding}]}, "movie" \
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
            """)

    @Argument(help: "Image files (JPEG, PNG, TIFF, DNG) or QuickTime movies.", completion: .file())
    var files: [String]

    @Flag(help: "Print JSON instead of text (see above for the keys).")
    var json = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one file") }
    }

    func run() throws {
        var reports: [FileReport] = []
        var failed = false
        for file in files {
            do {
                reports.append(try FileReport(path: file))
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
