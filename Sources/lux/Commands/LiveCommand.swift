import ArgumentParser
import Lux

/// `lux live ...`: inspect, edit and take apart Live Photos.
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Inspect, edit and take apart Live Photos (a still and a movie tied by a content identifier).",
        discussion: """
            A Live Photo is given by its still or its movie (the other file has the same base name beside it), \
            e.g. IMG_0001.JPG + IMG_0001.MOV.

            Examples:
              lux live info IMG_0001.JPG
              lux live edit IMG_0001.JPG -o edited --chain 'SepiaTone intensity=0.6' --square --volume 0.5
              lux live extract IMG_0001.MOV -o parts --photo-frame --audio
              lux live export IMG_0001.JPG --gif IMG_0001.gif --bounce
            """,
        subcommands: [LiveInfoCommand.self, LiveEditCommand.self, LiveExtractCommand.self, LiveExportCommand.self])
}

extension LivePhotoError {
    /// The error as a message for the terminal.
    var cliError: CLIError { CLIError(description) }
}
