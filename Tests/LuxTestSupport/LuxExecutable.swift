public import Foundation

/// The `lux` command-line tool as built in this package (`.build/debug/lux` or `.build/release/lux`), for tests
/// that drive it like a user.
public enum LuxExecutable {
    /// The built executable, or `nil` (with a visible note naming `what` is skipped) when it has not been built.
    public static func path(skipping what: String) -> String? {
        var root = #filePath
        // …/Tests/LuxTestSupport/LuxExecutable.swift → package root
        for _ in 0..<3 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
        for config in ["debug", "release"] {
            let candidate = root + "/.build/\(config)/lux"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        print("note: skipping \(what) because the lux executable has not been built (swift build)")
        return nil
    }
}
