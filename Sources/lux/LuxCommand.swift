import ArgumentParser

@main
struct LuxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lux",
        abstract: "Capture, develop and edit photos on Linux.",
        discussion: """
            Lux captures photos from a simulated (or V4L2) camera, develops RAW/DNG files and edits images \
            through a colour-managed filter graph. Run `lux demo` to see everything at once.
            """,
        version: "0.1.0",
        subcommands: [
            DemoCommand.self,
            DevelopCommand.self,
            DemosaicCommand.self,
            FilterCommand.self,
            FiltersCommand.self,
            FuseCommand.self,
            InfoCommand.self,
            ExtractCommand.self,
            SceneCommand.self,
            CaptureCommand.self,
            LiveCommand.self,
            BenchCommand.self,
            BenchWorkerCommand.self,
        ])
}
