import ArgumentParser
import Lux

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the whole Lux story and write the results to a folder.")

    @Option(name: .shortAndLong, help: "Where to write the results.")
    var out: String = "lux-demo"

    func run() async throws {
        print("lux demo: nothing to show yet (the capture pipeline has not landed). Output folder: \(out)")
    }
}
