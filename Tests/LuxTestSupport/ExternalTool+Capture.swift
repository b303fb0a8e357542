public import Foundation

extension ExternalTool {
    /// Everything a tool printed, as bytes (PGM/PPM images, JSON) and text.
    public struct Capture: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: Data
        /// Standard output as UTF-8 text.
        public var text: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var errorText: String { String(decoding: stderr, as: UTF8.self) }

        /// The capture itself when the tool exited with status 0; otherwise throws with its standard error.
        @discardableResult
        public func succeeded() throws -> Self {
            guard status == 0 else { throw ToolError(message: "exit status \(status): \(errorText)") }
            return self
        }
    }

    /// Runs `tool` (a name on `PATH`, or a path) and keeps standard output and standard error as bytes.
    ///
    /// Output goes through temporary files, so large images cannot block a pipe.
    public static func capture(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil
    ) throws -> Capture {
        let executable =
            tool.contains("/") ? (FileManager.default.isExecutableFile(atPath: tool) ? tool : nil) : path(tool)
        guard let executable else { throw ToolError(message: "\(tool) is not installed") }
        let dir = try temporaryFolder("lux-tool")
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
        return Capture(status: process.terminationStatus, stdout: try contents(outURL), stderr: try contents(errURL))
    }

    /// A file's bytes. (FoundationEssentials' `Data(contentsOf:)` leaks 4 KiB for an empty file, which
    /// LeakSanitizer reports when the tests run with `--sanitize=address`.)
    static func contents(_ url: URL) throws -> Data {
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        return size == 0 ? Data() : try Data(contentsOf: url)
    }

    /// A fresh temporary folder for a test's files, as a URL.
    public static func temporaryFolder(_ label: String = "lux-test") throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
