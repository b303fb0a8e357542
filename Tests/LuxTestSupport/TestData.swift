public import Foundation

/// The test files committed with the package (`Tests/Data`, listed with their sources in `Tests/Data/SOURCES.md`).
public enum TestData {
    /// The package root (three levels above this file).
    public static var packageRoot: String {
        var path = #filePath
        // …/Tests/LuxTestSupport/TestData.swift → package root
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }

    /// The folder of committed test files, `Tests/Data` in the package.
    public static var root: String { packageRoot + "/Tests/Data" }

    /// The path of a test file named relative to ``root``; the names of ``SyntheticDNG`` files (`raw/derived/…`)
    /// resolve to the copies made for this test process.
    public static func path(_ relative: String) throws -> String {
        if let synthetic = SyntheticDNG.allCases.first(where: { $0.relativePath == relative }) {
            return try synthetic.path
        }
        return root + "/" + relative
    }

    /// The URL of a test file named relative to ``root`` (see ``path(_:)``).
    public static func url(_ relative: String) throws -> URL { URL(fileURLWithPath: try path(relative)) }
}
