import ArgumentParser
import Foundation

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Benchmark Lux against peer tools (vips, ImageMagick, lcms2, libjpeg-turbo, dcraw...) on this machine.",
        discussion: """
            Each case runs Lux and the peer commands that do the same work alternately (one warm-up, then \
            --runs counted rounds), as separate processes, and reports median wall time, peak RSS and the \
            ratio. Build in release mode first: `swift build -c release`, then `.build/release/lux bench`.

            Examples:
              lux bench --list
              lux bench color --runs 7
              lux bench filters --only GaussianBlur,Droste,PerspectiveTile
              lux bench --markdown          # appends the table to Benchmarks/RESULTS.md
            """)

    @Argument(help: "Suites to run (default: all). See --list.")
    var suites: [String] = []

    @Option(parsing: .unconditional, help: "Counted runs per case (after one warm-up).")
    var runs: Int = 5

    @Option(
        help: """
            Run only the cases named (comma-separated): a case's name or the words before its first space or comma \
            (GaussianBlur runs the three radii).
            """)
    var only: String?

    @Flag(help: "List the suites and exit.")
    var list = false

    @Flag(help: "Append the results table to Benchmarks/RESULTS.md.")
    var markdown = false

    @Option(help: "Where prepared inputs are cached.")
    var inputs: String = FileManager.default.temporaryDirectory.appendingPathComponent("lux-bench-inputs").path

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        let known = Set(benchSuites.map { $0.name })
        for s in suites where !known.contains(s) {
            throw ValidationError("unknown suite '\(s)'; known: \(known.sorted().joined(separator: ", "))")
        }
    }

    /// Whether `--only` (when given) names the case `name`.
    func selects(_ name: String) -> Bool {
        guard let only else { return true }
        return only.split(separator: ",").contains { item in
            name == item || name.hasPrefix(item + ",") || name.hasPrefix(item + " ")
        }
    }

    func run() throws {
        if list || benchSuites.isEmpty {
            if benchSuites.isEmpty { print("no benchmark suites are built in yet") }
            for s in benchSuites { print("\(s.name)\t\(s.summary)") }
            return
        }
        #if DEBUG
            print("warning: this is a debug build; benchmark a release build (swift build -c release)")
        #endif
        let selected = suites.isEmpty ? benchSuites : benchSuites.filter { suites.contains($0.name) }
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let inputsURL = URL(fileURLWithPath: inputs)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lux-bench-scratch-\(getpid())")
        try FileManager.default.createDirectory(at: inputsURL, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let context = BenchContext(inputs: inputsURL, scratch: scratch, luxExecutable: exe)
        let runner = BenchRunner(luxExecutable: exe, runs: runs) { print($0) }
        var results: [BenchResult] = []
        for suite in selected {
            print("suite \(suite.name): preparing inputs...")
            for c in try suite.cases(in: context) where selects(c.name) {
                print("  \(c.name)...")
                let r = try runner.run(c)
                results.append(r)
                let peers = r.peers.map { "\($0.name) \(BenchReport.format($0.medianSeconds)) s" }.joined(
                    separator: ", ")
                print(
                    "    Lux \(BenchReport.format(r.lux.medianSeconds)) s, \(BenchReport.format(r.lux.peakRSSMB, digits: 0)) MB; \(peers)"
                )
            }
        }
        let table = BenchReport.markdown(
            results, command: (["lux", "bench"] + CommandLine.arguments.dropFirst(2)).joined(separator: " "))
        print("\n" + table)
        if markdown {
            let url = URL(fileURLWithPath: "Benchmarks/RESULTS.md")
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: url.path) {
                try "# Benchmark results\n\nTables appended by `lux bench --markdown` (release build).\n\n".write(
                    to: url, atomically: true, encoding: .utf8)
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(table.utf8))
            print("appended to \(url.path)")
        }
    }
}

/// `lux bench-worker SUITE JOB ARGS...`: runs one benchmark job in-process (used by `lux bench`).
struct BenchWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-worker", abstract: "Run one benchmark job (used by lux bench).", shouldDisplay: false)

    @Argument var suite: String
    @Argument var job: String
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []

    func run() throws {
        guard let s = benchSuites.first(where: { $0.name == suite }) else {
            throw ValidationError("unknown suite \(suite)")
        }
        let seconds = try s.work(job: job, arguments: arguments)
        print("inner=\(seconds)")
    }
}
