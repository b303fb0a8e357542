public import Foundation

/// The `lux` executable of this build, for tests that drive the command line like a user.
public enum LuxExecutable {
    /// The `lux` of the build that made the running tests, or `nil` when that build made none.
    ///
    /// It is the one in the same folder as the test bundle (`.build/<triple>/<configuration>/`). Tests that need
    /// it carry the `.needsLux` trait, so a missing executable is a visible skip.
    public static let path: String? = {
        let candidate = buildFolder.map { $0.appendingPathComponent("lux").path }
        return candidate.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    }()

    /// The folder of the running test bundle.
    ///
    /// On Linux `swift test` runs the `*.xctest` file itself, so it is the main executable; on macOS `xctest`
    /// loads the `*.xctest` bundle, whose parent is the folder.
    static var buildFolder: URL? {
        if let bundle = Bundle.allBundles.first(where: { $0.bundleURL.pathExtension == "xctest" }) {
            return bundle.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent()
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        guard executable.path != "/proc/self/exe" else {
            return Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
        }
        return executable.deletingLastPathComponent()
    }

    /// Runs `lux` with `arguments` (standard input empty, outputs captured).
    public static func run(
        _ lux: String, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil
    ) throws -> ExternalTool.Capture {
        try ExternalTool.capture(lux, arguments, environment: environment, currentDirectory: currentDirectory)
    }
}
