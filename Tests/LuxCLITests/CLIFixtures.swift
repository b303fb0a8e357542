import Foundation
import LuxTestSupport
import Testing

/// Inputs for the command-line tests, made with the built `lux` itself (`lux capture --raw` on small sensors).
enum CLIFixtures {
    /// A fresh folder with `count` small DNGs from the simulated camera, named IMG_<id>_1.dng.
    static func raws(_ lux: String, count: Int, sensor: String = "128x96") throws -> URL {
        let dir = try ExternalTool.temporaryFolder("lux-cli-raws")
        let r = try LuxExecutable.run(
            lux, ["capture", "--raw", "--sensor", sensor, "--count", "\(count)", "-o", dir.path])
        try #require(r.status == 0, "lux capture failed: \(r.errorText)")
        return dir
    }

    /// The names of the regular, visible files in `dir`, sorted.
    static func files(in dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Every name in `dir`, hidden ones included (temporary files left by an interrupted write start with ".").
    static func allFiles(in dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    /// Decodes `data` as `T`, recording the text when it is not valid JSON of that shape.
    static func decode<T: Decodable>(_ type: T.Type, _ capture: ExternalTool.Capture) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: capture.stdout)
        } catch {
            Issue.record("not the documented JSON: \(error)\n\(capture.text.prefix(2000))\n\(capture.errorText)")
            throw error
        }
    }

    /// Runs `count` processes at once (`run(i)` starts and waits for process `i`) and returns their results in order.
    static func parallel(_ count: Int, _ run: @escaping @Sendable (Int) throws -> ExternalTool.Capture) throws
        -> [ExternalTool.Capture]
    {
        let results = ResultBox(count: count)
        let threads = (0..<count).map { i in Thread { results.set(i, Result { try run(i) }) } }
        for thread in threads { thread.start() }
        while !results.isComplete { usleep(10_000) }
        return try results.values.map { try $0.get() }
    }
}

/// `lux develop --json`, as documented in `lux develop --help` (decoded independently of the CLI's own types).
struct DevelopJSON: Decodable {
    struct Shard: Decodable {
        var index: Int
        var count: Int
        var indexSource: String
    }
    struct File: Decodable {
        var input: String
        var output: String
        var status: String
        var error: String?
        var width: Int?
        var height: Int?
        var bytes: Int?
        var seconds: Double?
    }
    var shard: Shard?
    var batchInputCount: Int
    var files: [File]
    var developed: Int
    var skipped: Int
    var failed: Int
    var seconds: Double
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Result<ExternalTool.Capture, any Error>?]

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ value: Result<ExternalTool.Capture, any Error>) {
        lock.lock()
        storage[i] = value
        lock.unlock()
    }

    var isComplete: Bool {
        lock.lock()
        defer { lock.unlock() }
        return storage.allSatisfy { $0 != nil }
    }

    var values: [Result<ExternalTool.Capture, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return storage.map { $0! }
    }
}
