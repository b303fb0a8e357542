import ArgumentParser

@main
struct LuxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lux",
        abstract: "Capture, develop and edit photos on Linux.",
        discussion: """
            Lux captures photos from a simulated (or V4L2) camera, develops RAW/DNG files and edits images \
            through a colour-managed filter graph. Run `lux demo` to see everything at once, and \
            `lux help <subcommand>` for each command's options and examples.

            Conventions shared by every subcommand: -o/--out names the output file or folder; --format is a \
            file format (jpg, png, tiff, heic); --depth the samples of outputs (8; 10 for HEIC; 16 for PNG and \
            TIFF; half and float for TIFF); --quality the JPEG and HEIC quality 1...100; --size WxH a box to fit \
            inside; --image N the image of a HEIC holding several; --color-space an output colour space (srgb, \
            p3, adobe, linear, rec2020, ...); --threads the render threads of one file and --jobs the files \
            processed at once; --json a machine-readable report on standard output (info, capture, develop, \
            convert, live info); existing \
            outputs are never replaced without --overwrite. Progress bars appear on standard error only when it \
            is a terminal (set LUX_NO_PROGRESS=1 to hide them there too). Errors are printed as \
            "error: FILE: what is wrong", never as a stack trace.

            \(ExitStatus.table)

            Shell completion: lux --generate-completion-script bash|zsh|fish (see Documentation/man/README.md). \
            Manual page: Documentation/man/lux.1.

            Examples:
              lux demo -o lux-demo
              lux capture --raw-plus jpeg -o shots
              lux develop shots/ -o developed/ --color-space p3 --jobs 2
              lux info developed/IMG_1_1.jpg
              lux convert photos/ -o jpegs/ --format jpg --size 2048x2048 --jobs 2
              lux filter in.jpg -o out.jpg --chain 'SepiaTone | GaussianBlur radius=4'
            """,
        version: "0.1.0",
        subcommands: [
            DemoCommand.self,
            CaptureCommand.self,
            DevicesCommand.self,
            DevelopCommand.self,
            ConvertCommand.self,
            ThumbnailCommand.self,
            FilterCommand.self,
            FiltersCommand.self,
            LiveCommand.self,
            InfoCommand.self,
            SceneCommand.self,
            FuseCommand.self,
            HDRCommand.self,
            DemosaicCommand.self,
            ExtractCommand.self,
            CodesCommand.self,
            StudioCommand.self,
            BenchCommand.self,
            BenchWorkerCommand.self,
        ])

    /// Runs the command line after setting the allocator policy (``MallocPolicy``).
    static func main() async {
        MallocPolicy.apply()
        await main(nil)
    }
}
