import Foundation
import LuxTestSupport
import Testing

/// The "batch at scale" page: `lux develop --shard` run as parallel processes of the built binary, with the
/// committed Kubernetes and Slurm files, develops every input exactly once.
@Suite(.serialized) struct DocumentationBatchTests {
    static let batch = TestData.packageRoot + "/Documentation/batch"

    /// The container command of the Indexed Job manifest (a JSON-style flow list on the `command:` line).
    static func manifestCommand() throws -> (command: [String], completions: Int, parallelism: Int) {
        let yaml = try String(contentsOfFile: batch + "/develop-job.yaml", encoding: .utf8)
        func value(_ key: String) -> String? {
            yaml.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":") }
                .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) }
        }
        let command = try JSONDecoder().decode([String].self, from: Data(try #require(value("command")).utf8))
        return (command, try #require(Int(value("completions") ?? "")), try #require(Int(value("parallelism") ?? "")))
    }

    @Test(
        "the Indexed Job's command, run once per JOB_COMPLETION_INDEX in parallel, develops every input exactly once",
        .needsLux)
    func kubernetesIndexedJob() throws {
        let lux = try #require(LuxExecutable.path)
        let (command, completions, parallelism) = try Self.manifestCommand()
        #expect(completions == parallelism)
        let shardValue = try #require(command.firstIndex(of: "--shard").map { command[$0 + 1] })
        #expect(shardValue == "auto/\(completions)", "the --shard count must equal completions")
        #expect(command.contains("--skip-existing"))
        #expect(command.first == "lux" && command.dropFirst().first == "develop")

        let inputs = try CLIFixtures.raws(lux, count: 11)
        let out = try ExternalTool.temporaryFolder("lux-k8s-out")
        defer {
            try? FileManager.default.removeItem(at: inputs)
            try? FileManager.default.removeItem(at: out)
        }
        // The pod's command with the volume paths pointing at the test's folders.
        let arguments =
            command.dropFirst().map { $0 == "/data/raw" ? inputs.path : $0 == "/data/developed" ? out.path : $0 } + [
                "--json"
            ]
        let results = try CLIFixtures.parallel(completions) { index in
            try LuxExecutable.run(lux, Array(arguments), environment: ["JOB_COMPLETION_INDEX": "\(index)"])
        }
        var developed: [String] = []
        for (index, r) in results.enumerated() {
            #expect(r.status == 0, "pod \(index): \(r.errorText)")
            let report = try CLIFixtures.decode(DevelopJSON.self, r)
            #expect(report.shard?.index == index && report.shard?.count == completions)
            #expect(report.shard?.indexSource == "JOB_COMPLETION_INDEX")
            #expect(report.batchInputCount == 11 && report.failed == 0)
            developed += report.files.filter { $0.status == "developed" }.map {
                URL(fileURLWithPath: $0.input).lastPathComponent
            }
        }
        let names = try CLIFixtures.files(in: inputs)
        #expect(developed.sorted() == names, "every input once: \(developed.sorted()) vs \(names)")
        #expect(Set(developed).count == developed.count)
        #expect(try CLIFixtures.allFiles(in: out) == names.map { $0.replacingOccurrences(of: ".dng", with: ".jpg") })
    }

    @Test(
        "the Slurm script, run once per array task with the SLURM_* variables, develops every input exactly once",
        .needsLux)
    func slurmArray() throws {
        let lux = try #require(LuxExecutable.path)
        let script = try String(contentsOfFile: Self.batch + "/develop.sbatch", encoding: .utf8)
        let array = try #require(script.split(separator: "\n").first { $0.hasPrefix("#SBATCH --array=") })
        let range = array.dropFirst("#SBATCH --array=".count).split(separator: "-").compactMap { Int($0) }
        #expect(range.count == 2)
        let tasks = Array(range[0]...range[1])
        let inputs = try CLIFixtures.raws(lux, count: 10)
        let out = try ExternalTool.temporaryFolder("lux-slurm-out")
        defer {
            try? FileManager.default.removeItem(at: inputs)
            try? FileManager.default.removeItem(at: out)
        }
        let output = out.appendingPathComponent("developed").path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let results = try CLIFixtures.parallel(tasks.count) { i in
            let env = [
                "SLURM_ARRAY_TASK_ID": "\(tasks[i])", "SLURM_ARRAY_TASK_MIN": "\(tasks[0])",
                "SLURM_ARRAY_TASK_COUNT": "\(tasks.count)", "SLURM_CPUS_PER_TASK": "1",
                "INPUT": inputs.path, "OUTPUT": output, "LUX": lux,
            ]
            return try ExternalTool.capture("/bin/bash", [Self.batch + "/develop.sbatch"], environment: env)
        }
        var developed: [String] = []
        for (i, task) in tasks.enumerated() {
            let r = results[i]
            #expect(r.status == 0, "task \(task): \(r.errorText)")
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(output).shard-\(task).json"))
            let report = try JSONDecoder().decode(DevelopJSON.self, from: data)
            #expect(
                report.shard?.index == i && report.shard?.count == tasks.count
                    && report.shard?.indexSource == "SLURM_ARRAY_TASK_ID")
            developed += report.files.filter { $0.status == "developed" }.map {
                URL(fileURLWithPath: $0.input).lastPathComponent
            }
        }
        let names = try CLIFixtures.files(in: inputs)
        #expect(developed.sorted() == names)
        #expect(
            try CLIFixtures.allFiles(in: URL(fileURLWithPath: output))
                == names.map { $0.replacingOccurrences(of: ".dng", with: ".jpg") })
    }

    @Test(
        "shards partition the sorted input list round-robin, for every count, with the index from the argument or any runner's variable",
        .needsLux)
    func partition() throws {
        let lux = try #require(LuxExecutable.path)
        // 23 empty files are enough for --dry-run, which only plans.
        let dir = try ExternalTool.temporaryFolder("lux-shard-plan")
        defer { try? FileManager.default.removeItem(at: dir) }
        let names =
            (0..<23).map { String(format: "IMG_%04d.dng", ($0 * 7919) % 10000) } + [
                "b.DNG", "a.nef", "notes.txt", ".hidden.dng",
            ]
        for name in names {
            FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data())
        }
        // The oracle: raw extensions only, visible files, sorted by byte order, position i goes to shard i % n.
        let raws = names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".txt") }.map { dir.path + "/" + $0 }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for count in [1, 3, 4, 25] {
            var seen: [String] = []
            for index in 0..<count {
                // Every index from the argument; the runners' variables (the same index, read elsewhere) at the
                // first and the last index of each count, where an off-by-one (Slurm's from 1) shows.
                let argument: [(String, [String: String])] = [("\(index)/\(count)", [:])]
                let variables: [(String, [String: String])] = [
                    ("auto/\(count)", ["JOB_COMPLETION_INDEX": "\(index)"]),
                    (
                        "auto",
                        [
                            "SLURM_ARRAY_TASK_ID": "\(index + 1)", "SLURM_ARRAY_TASK_MIN": "1",
                            "SLURM_ARRAY_TASK_COUNT": "\(count)",
                        ]
                    ),
                    ("auto", ["LUX_SHARD_INDEX": "\(index)", "LUX_SHARD_COUNT": "\(count)"]),
                ]
                let forms = index == 0 || index == count - 1 ? argument + variables : argument
                var plans: [[String]] = []
                for (shard, env) in forms {
                    let r = try LuxExecutable.run(
                        lux, ["develop", dir.path, "-o", dir.path + "/out", "--shard", shard, "--dry-run", "--json"],
                        environment: env)
                    #expect(r.status == 0, "\(shard) \(env): \(r.errorText)")
                    let report = try CLIFixtures.decode(DevelopJSON.self, r)
                    #expect(report.batchInputCount == raws.count)
                    #expect(report.files.allSatisfy { $0.status == "planned" })
                    plans.append(report.files.map(\.input))
                }
                let expected = raws.enumerated().filter { $0.offset % count == index }.map(\.element)
                for plan in plans { #expect(plan == expected, "shard \(index)/\(count)") }
                seen += expected
            }
            #expect(seen.sorted() == raws.sorted())
        }
    }

    @Test(
        "shard indices outside the range, a missing variable or a Slurm array of another size are usage errors (64)",
        .needsLux)
    func refusals() throws {
        let lux = try #require(LuxExecutable.path)
        let inputs = try CLIFixtures.raws(lux, count: 1)
        defer { try? FileManager.default.removeItem(at: inputs) }
        let cases: [([String], [String: String], String)] = [
            (["--shard", "4/4"], [:], "below the count"),
            (["--shard", "-1/4"], [:], "index"),
            (["--shard", "1/0"], [:], "count"),
            (["--shard", "auto/4"], [:], "JOB_COMPLETION_INDEX"),
            (["--shard", "auto"], ["JOB_COMPLETION_INDEX": "0"], "SLURM_ARRAY_TASK_COUNT"),
            (["--shard", "auto/4"], ["JOB_COMPLETION_INDEX": "7"], "index 7 (from JOB_COMPLETION_INDEX)"),
            (["--shard", "auto/4"], ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"], "3 tasks"),
        ]
        for (flags, env, message) in cases {
            let r = try LuxExecutable.run(lux, ["develop", inputs.path, "--dry-run"] + flags, environment: env)
            #expect(r.status == 64, "\(flags) \(env): \(r.status) \(r.errorText)")
            #expect(r.errorText.contains(message), "\(flags) \(env): \(r.errorText)")
            #expect(!r.errorText.contains("Fatal error"))
        }
    }
}
