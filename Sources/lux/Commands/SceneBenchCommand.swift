import ArgumentParser
import Foundation

struct SceneBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the simulated camera: 12 MP stills and bursts, preview frames with 3A, video frames.",
        discussion: """
            Cases (release build; milliseconds per frame, median after one warm-up):
            \(SceneBench.allCases.map { "  " + $0.name.padding(toLength: 18, withPad: " ", startingAt: 0) + $0.summary + " (goal " + $0.goal + ")" }.joined(separator: "\n"))
            Every case uses hand-held shake. Threads: all cores unless --threads says otherwise. The CPU column is
            the process's CPU time per frame (all threads), which other jobs on the machine disturb less than
            the wall-clock time. `lux bench scene` runs the same cases as separate processes.
            """)

    @Argument(help: "Cases to run (default: all).")
    var cases: [String] = []

    @Option(parsing: .unconditional, help: "Timed frames per case (after one warm-up).")
    var iterations: Int = 5

    @Option(parsing: .unconditional, help: "Render threads (default: all cores).")
    var threads: Int?

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        let known = SceneBench.allCases.map(\.name)
        for c in cases where !known.contains(c) {
            throw ValidationError("unknown case '\(c)'; known: \(known.joined(separator: ", "))")
        }
    }

    func run() async throws {
        #if DEBUG
            print("warning: this is a debug build; benchmark a release build (swift build -c release)")
        #endif
        let selected = cases.isEmpty ? SceneBench.allCases.map(\.name) : cases
        print("case             median ms      min ms  CPU ms   frames   goal")
        for name in selected {
            let times = try await SceneBench.measure(name, iterations: iterations, threads: threads)
            let wall = times.map(\.wall).sorted()
            let goal = SceneBench.allCases.first { $0.name == name }?.goal ?? ""
            let label = name.padding(toLength: 15, withPad: " ", startingAt: 0)
            print(
                label
                    + String(
                        format: " %10.1f  %10.1f  %6.1f   %6d   ", SceneBench.median(wall), wall[0],
                        SceneBench.median(times.map(\.cpu)), times.count) + goal)
        }
    }
}
