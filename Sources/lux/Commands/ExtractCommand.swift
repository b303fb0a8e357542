import ArgumentParser
import Foundation
import Lux

struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Extract the raw sensor values or the embedded preview of a raw file.",
        discussion: """
            --raw writes the undemosaiced sensor values of the active area as a 16-bit grayscale TIFF, after the \
            LinearizationTable and before black-level subtraction (what `dcraw -D -4` and LibRaw's \
            unprocessed_raw write). Camera raws other than DNG (NEF, CR2, ARW, RAF, ...) are read through LibRaw; \
            their preview is the largest one LibRaw finds.
            --preview writes the largest embedded preview (a JPEG preview is copied unchanged when the output is .jpg).

            Examples:
              lux extract photo.dng --raw -o sensor.tiff
              lux extract photo.dng --preview -o preview.jpg
            """)

    @Argument(help: "The raw file (DNG or any camera raw LibRaw reads).", completion: .file())
    var file: String

    @Flag(help: "Extract the sensor values.")
    var raw = false

    @Flag(help: "Extract the largest embedded preview.")
    var preview = false

    @Option(
        name: [.customShort("o"), .customLong("out")],
        help: "The output file (.tif for --raw; .jpg, .png or .tif for --preview).", completion: .file())
    var out: String

    @OptionGroup var overwriteOptions: OverwriteOptions

    func validate() throws {
        guard raw != preview else { throw ValidationError("choose exactly one of --raw and --preview") }
    }

    func run() throws {
        let outURL = URL(fileURLWithPath: out)
        do {
            let image = try ImageFile.read(url: URL(fileURLWithPath: file))
            guard let rawImage = image.rawImage else {
                throw CLIError(
                    "\(file): not a raw file (\(image.format)); --raw and --preview need a camera raw or DNG")
            }
            if raw {
                let values = try rawImage.sensorValues()
                try overwriteOptions.check(out)
                try ImageFile.write(
                    values, to: outURL, format: .tiff, options: EncodingOptions(embedsColorProfile: false))
            } else {
                guard let p = rawImage.largestPreview else {
                    throw CLIError("\(file): the file has no embedded preview")
                }
                try overwriteOptions.check(out)
                let wantsJPEG = ImageFormat(fileExtension: outURL.pathExtension) == .jpeg
                if p.encoding == .jpeg, wantsJPEG, let data = p.data {
                    try Data(data).write(to: outURL, options: .atomic)
                } else {
                    try ImageFile.write(p.image(), to: outURL)
                }
            }
        } catch let error as CodecError {
            throw CLIError(error, file: file)
        }
    }
}
