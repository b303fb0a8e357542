import Foundation

/// Runs installed command-line tools (exiftool, transicc, …) as test oracles.
public enum ExternalTool {
    /// The result of running a tool.
    public struct Output: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output as UTF-8 text.
        public var stdout: String
        /// Standard error as UTF-8 text.
        public var stderr: String
    }

    /// The absolute path of `name` on `PATH`, or `nil` when it is not installed.
    public static func path(_ name: String) -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for dir in dirs {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether `name` is installed (for `.enabled(if:)` traits).
    public static func isInstalled(_ name: String) -> Bool { path(name) != nil }

    /// Runs `name` with `arguments`, feeding `input` to standard input, and waits for it.
    public static func run(_ name: String, _ arguments: [String], input: String = "") throws -> Output {
        guard let executable = path(name) else {
            throw NSError(
                domain: "ExternalTool", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(name) is not installed"])
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Drain both pipes on other threads so a chatty tool cannot block on a full pipe.
        let outBox = DataBox()
        let errBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            outBox.data = stdout.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errBox.data = stderr.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
            stderr: String(decoding: errBox.data, as: UTF8.self))
    }

    /// A fresh temporary directory for one test.
    public static func makeTemporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "lux-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

private final class DataBox: @unchecked Sendable {  // written by one thread, read after group.wait()
    var data = Data()
}
