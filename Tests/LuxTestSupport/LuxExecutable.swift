public import Foundation

/// The built `lux` executable, for tests that drive the command line like a user.
public enum LuxExecutable {
    /// The package root (three levels above this file).
    public static var packageRoot: String {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }

    /// `.build/debug/lux` or `.build/release/lux`, whichever was built last; `nil` (with a visible note) when
    /// neither exists.
    public static var path: String? {
        let candidates = ["debug", "release"].map { packageRoot + "/.build/\($0)/lux" }
            .filter { FileManager.default.isExecutableFile(atPath: $0) }
        func modified(_ p: String) -> Date {
            (try? FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as? Date) ?? .distantPast
        }
        guard let newest = candidates.max(by: { modified($0) < modified($1) }) else {
            print("note: skipping command-line tests because the lux executable has not been built (swift build)")
            return nil
        }
        return newest
    }

    /// Runs `lux` with `arguments` (standard input empty, outputs captured).
    public static func run(
        _ lux: String, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil
    ) throws -> ExternalTool.Capture {
        try ExternalTool.capture(lux, arguments, environment: environment, currentDirectory: currentDirectory)
    }
}
