public import Foundation

/// Runs third-party command-line tools (exiftool, dcraw, djpeg …) as test oracles.
///
/// Tests that need a tool check ``isAvailable(_:)`` and skip with a visible message when it is missing.
public enum ExternalTool {
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

    /// The full path of an executable found on `PATH`.
    public static func path(_ name: String) -> String? {
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
            throw NSError(domain: "ExternalTool", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(name) is not installed"])
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lux-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("out"), errURL = dir.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Output(
            status: process.terminationStatus, stdout: try Data(contentsOf: outURL), stderr: try Data(contentsOf: errURL))
    }

    /// A fresh temporary directory for a test's files.
    public static func temporaryDirectory(_ label: String = "lux-test") throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// Netpbm images (PGM/PPM, 8- or 16-bit), the output format of dcraw, djpeg and unprocessed_raw.
public struct NetpbmImage: Sendable {
    public var width: Int
    public var height: Int
    /// 1 (PGM) or 3 (PPM).
    public var channels: Int
    public var maxValue: Int
    /// Samples row by row, big-endian 16-bit values already converted.
    public var samples: [UInt16]

    /// Parses binary P5/P6 data.
    public init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var p = 0
        func token() throws -> String {
            while p < bytes.count {
                if bytes[p] == UInt8(ascii: "#") {
                    while p < bytes.count, bytes[p] != 10 { p += 1 }
                } else if [9, 10, 13, 32].contains(bytes[p]) {
                    p += 1
                } else {
                    break
                }
            }
            let start = p
            while p < bytes.count, ![9, 10, 13, 32].contains(bytes[p]) { p += 1 }
            guard p > start else { throw NSError(domain: "Netpbm", code: 1) }
            return String(decoding: bytes[start..<p], as: UTF8.self)
        }
        let magic = try token()
        guard magic == "P5" || magic == "P6", let w = Int(try token()), let h = Int(try token()), let m = Int(try token()) else {
            throw NSError(domain: "Netpbm", code: 2, userInfo: [NSLocalizedDescriptionKey: "not a binary PGM/PPM"])
        }
        p += 1
        width = w
        height = h
        channels = magic == "P5" ? 1 : 3
        maxValue = m
        let n = w * h * channels
        let wide = m > 255
        guard bytes.count - p >= n * (wide ? 2 : 1) else { throw NSError(domain: "Netpbm", code: 3) }
        samples = (0..<n).map { i in
            wide ? UInt16(bytes[p + 2 * i]) << 8 | UInt16(bytes[p + 2 * i + 1]) : UInt16(bytes[p + i])
        }
    }
}
