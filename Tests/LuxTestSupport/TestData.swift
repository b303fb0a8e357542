/// Shared helpers for Lux's test targets.
public enum TestData {
    /// The shared test data folder (`../shared/testdata` relative to the package root).
    public static var root: String {
        var path = #filePath
        // …/Tests/LuxTestSupport/TestData.swift → package root
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/../shared/testdata"
    }
}
