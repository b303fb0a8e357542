import Foundation
public import Testing

extension Tag {
    /// Long load, soak and stress runs, skipped unless `LUX_LONG_TESTS=1` (CI accepts these skips).
    @Tag public static var long: Self
    /// Tests that need real hardware (a camera) attached, skipped without it (CI accepts these skips).
    @Tag public static var hardware: Self
}

/// The skip comments that name a test's category: `.ci/run` counts skips by these prefixes.
public enum SkipReason {
    /// The start of a ``Tag/long`` test's skip comment.
    public static let long = "long test"
    /// The start of a ``Tag/hardware`` test's skip comment.
    public static let hardware = "hardware test"
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when every tool is on `PATH`; otherwise skips it, naming the missing ones.
    public static func needs(_ tools: String...) -> Self {
        let missing = tools.filter { !ExternalTool.isAvailable($0) }
        return .enabled(if: missing.isEmpty, "needs \(missing.joined(separator: ", ")) (not installed)")
    }

    /// Runs the test only when `LUX_LONG_TESTS=1`; pair it with `.tags(.long)`.
    public static var longRunning: Self {
        .enabled(
            if: ProcessInfo.processInfo.environment["LUX_LONG_TESTS"] == "1",
            Comment(rawValue: SkipReason.long + ": set LUX_LONG_TESTS=1 to run it"))
    }

    /// Runs the test only when a Video4Linux2 camera is attached at `/dev/video0`; pair it with `.tags(.hardware)`.
    public static var cameraAttached: Self {
        .enabled(
            if: FileManager.default.fileExists(atPath: "/dev/video0"),
            Comment(rawValue: SkipReason.hardware + ": needs a V4L2 camera at /dev/video0"))
    }

    /// Runs the test only when the built `lux` executable is beside the test bundle (see ``LuxExecutable``).
    public static var needsLux: Self {
        .enabled(if: LuxExecutable.path != nil, "needs the lux executable of this build (swift build builds it)")
    }
}
