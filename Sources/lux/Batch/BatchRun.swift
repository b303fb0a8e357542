import Foundation
import Synchronization

/// Runs a batch command over its plan: the shard's share of the inputs, `--jobs` files at a time with
/// cores ÷ jobs render threads each, progress on a terminal, a line per file (or the JSON report) and a summary.
///
/// A file that fails is reported and the others still run; the run then exits with status 1.
struct BatchRun {
    var plan: BatchPlan
    var options: BatchOptions
    /// The command's verb: present ("develop"), past ("developed") and progressive ("developing").
    var verb: (present: String, past: String, progressive: String)

    /// Processes every item of this shard with `body`, which writes `item.output` and returns its size.
    func run(_ body: @escaping @Sendable (BatchPlan.Item, _ threads: Int) throws -> (width: Int, height: Int)) throws {
        let start = ContinuousClock.now
        let resolvedShard = try options.shard?.resolve(environment: ProcessInfo.processInfo.environment)
        let items = resolvedShard?.select(plan.items) ?? plan.items
        var report = BatchReport(verb: verb.past, shard: resolvedShard, batchInputCount: plan.items.count)
        if options.dryRun {
            report.files = items.map { .init(input: $0.input, output: $0.output, status: .planned) }
            if options.json {
                try JSONOutput.print(report)
            } else {
                for item in items { print("\(item.input) → \(item.output)") }
                print(summary(report, planned: items.count))
            }
            return
        }

        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workers = min(options.jobs, max(items.count, 1))
        let threadsPerFile = options.threads ?? max(1, cores / workers)
        let progress = ProgressBar(total: items.count, label: verb.progressive, enabled: items.count > 1)
        let results = Results(count: items.count)
        let run = self
        WorkQueue.run(count: items.count, workers: workers) { i in
            let item = items[i]
            progress.started(URL(fileURLWithPath: item.input).lastPathComponent)
            let file = run.process(item, threads: threadsPerFile, body)
            results.set(i, file)
            switch file.status {
            case .failed: progress.log("error: " + (file.error ?? item.input))
            case .done where !run.options.json:
                progress.say(
                    "\(item.input) → \(item.output) (\(file.width ?? 0)×\(file.height ?? 0), \(String(format: "%.2f s", file.seconds ?? 0)))"
                )
            case .skipped where !run.options.json: progress.say("\(item.input): skipped, \(item.output) exists")
            default: break
            }
            progress.advance(failed: file.status == .failed)
        }
        progress.finish()
        report.files = results.all
        report.seconds = seconds(ContinuousClock.now - start)
        if options.json {
            try JSONOutput.print(report)
        } else if items.count > 1 || resolvedShard != nil {
            print(summary(report, planned: nil))
        }
        if report.failed > 0 { throw ExitStatus.failure }
    }

    private func summary(_ report: BatchReport, planned: Int?) -> String {
        var text =
            planned.map { "\($0) to \(verb.present)" }
            ?? "\(verb.past) \(report.finished), skipped \(report.skipped), failed \(report.failed)"
        text += " of \(report.batchInputCount) input\(report.batchInputCount == 1 ? "" : "s")"
        if let s = report.shard { text += " (shard \(s.index)/\(s.count), index from \(s.indexSource))" }
        if planned == nil { text += String(format: " in %.1f s", report.seconds) }
        return text
    }

    /// Processes one file, returning what happened (never throws: a failure is a report entry).
    private func process(
        _ item: BatchPlan.Item, threads: Int, _ body: (BatchPlan.Item, Int) throws -> (width: Int, height: Int)
    ) -> BatchReport.File {
        var file = BatchReport.File(input: item.input, output: item.output, status: .failed)
        let start = ContinuousClock.now
        if FileManager.default.fileExists(atPath: item.output) {
            if options.skipExisting {
                file.status = .skipped
                return file
            }
            if !options.overwriteOptions.overwrite {
                file.error =
                    "\(item.output): already exists; pass --overwrite to replace it or --skip-existing to keep it"
                return file
            }
        }
        do {
            let folder = URL(fileURLWithPath: item.output).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let size = try body(item, threads)
            file.status = .done
            file.width = size.width
            file.height = size.height
            file.bytes = (try? FileManager.default.attributesOfItem(atPath: item.output)[.size] as? Int) ?? nil
        } catch {
            file.error = CLIError(error, file: item.input).description
        }
        file.seconds = seconds(ContinuousClock.now - start)
        return file
    }
}

/// Per-file results filled in by the workers.
private final class Results: Sendable {
    private let files: Mutex<[BatchReport.File?]>

    init(count: Int) { files = Mutex(Array(repeating: nil, count: count)) }

    func set(_ i: Int, _ file: BatchReport.File) { files.withLock { $0[i] = file } }

    var all: [BatchReport.File] { files.withLock { $0.compactMap { $0 } } }
}

/// Seconds in a duration.
func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
