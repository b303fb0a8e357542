import ArgumentParser
import Lux

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark Lux against peer tools on this machine.")

    func run() async throws {
        print("lux bench: no suites yet")
    }
}
