public import Foundation

/// Runs third-party command-line tools (the independent oracles of interop tests).
public enum ExternalTool {
    /// The absolute path of `name` on `PATH`, or `nil` when it is not installed.
    public static func path(_ name: String) -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for d in dirs {
            let p = "\(d)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    /// Whether `name` is installed.
    public static func isAvailable(_ name: String) -> Bool { path(name) != nil }

    /// Runs `name` with `arguments`; returns its exit status and standard output.
    @discardableResult
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: Data
    ) {
        guard let exe = path(name) else { throw ToolError(message: "\(name) is not installed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, data)
    }

    /// A failure to run a tool.
    public struct ToolError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// A fresh temporary directory.
    public static func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lux-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
