public import Foundation

/// Runs third-party command-line tools (exiftool, dcraw, djpeg …) as test oracles, keeping their output as
/// bytes (PGM/PPM images, JSON).
///
/// Tests that need a tool check ``isAvailable(_:)`` and skip with a visible message when it is missing.
public enum ToolRunner {
    /// The result of running a tool.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: Data
        /// Standard output as UTF-8 text.
        public var text: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var errorText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// The full path of an executable found on `PATH` (or `name` itself when it is a path).
    public static func path(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for dir in paths {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether a tool is installed.
    public static func isAvailable(_ name: String) -> Bool { path(name) != nil }

    /// Runs `name` with `arguments`; output is collected through temporary files (no pipe deadlocks).
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil
    ) throws -> Output {
        guard let executable = path(name) else {
            throw NSError(
                domain: "ToolRunner", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(name) is not installed"])
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lux-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("out")
        let errURL = dir.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Output(
            status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
            stderr: try Data(contentsOf: errURL))
    }

    /// A fresh temporary directory for a test's files.
    public static func temporaryDirectory(_ label: String = "lux-test") throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
