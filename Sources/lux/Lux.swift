import ArgumentParser

@main
struct LuxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lux",
        abstract: "Capture, develop and edit photos on Linux.")
}
