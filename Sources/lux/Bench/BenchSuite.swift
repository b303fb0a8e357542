import Foundation

/// What a suite needs to prepare its inputs and build its cases.
struct BenchContext {
    /// Where prepared inputs are cached (deterministic, reused between runs).
    var inputs: URL
    /// Scratch space for outputs (emptied by the suite as needed).
    var scratch: URL
    /// The `lux` executable measured.
    var luxExecutable: String
}

/// A group of benchmark cases: each runs Lux (as a `lux bench-worker` child process) against peers.
protocol BenchSuite: SendableMetatype {
    /// The name used on the command line.
    static var name: String { get }
    /// What the suite measures.
    static var summary: String { get }
    /// Prepares inputs (if not cached) and returns the cases.
    static func cases(in context: BenchContext) throws -> [BenchCase]
    /// Runs one job in this process and returns the seconds spent in the measured work (excluding start-up).
    static func work(job: String, arguments: [String]) throws -> Double
}

/// Every suite `lux bench` knows.
let benchSuites: [any BenchSuite.Type] = [
    ColorBenchSuite.self, CodecsBenchSuite.self, RenderBench.self, RawBenchSuite.self, FusionBench.self,
    CaptureBenchSuite.self,
    FiltersBenchSuite.self, SceneBench.self, LiveBenchSuite.self,
]

/// Runs an async job to completion from a suite's synchronous `work` (the worker's `run` is synchronous).
func awaitBenchWork<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let semaphore = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        semaphore.signal()
    }
    semaphore.wait()
    return try box.result!.get()
}

/// The result of ``awaitBenchWork(_:)``'s task.
private final class ResultBox<T>: @unchecked Sendable {  // written by the task before the semaphore signals, read after
    var result: Result<T, any Error>?
}

/// Monotonic seconds, for the workers' inner timings.
func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
