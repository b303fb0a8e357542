import Foundation
import LuxTestSupport
import Testing

/// The package needs nothing beside its clone: CI lays the project's shared folder next to the clone, so a test
/// or a benchmark that read from there would still pass in CI while failing for everyone else.
@Suite struct SelfContainedPackageTests {
    /// What the package is made of (build, tests, benchmarks, documentation, fuzzing).
    static let scanned = ["Sources", "Tests", "Benchmarks", "Documentation", "Fuzz", "README.md", "Package.swift"]

    /// Every file under `entry` (a file or a folder of the package), leaving out hidden and build folders.
    static func files(under entry: String) -> [String] {
        let root = TestData.packageRoot + "/" + entry
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [root] }
        var out: [String] = []
        let walker = FileManager.default.enumerator(atPath: root)
        while let next = walker?.nextObject() as? String {
            if next.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + next, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                out.append(root + "/" + next)
            }
        }
        return out
    }

    @Test("no file of the package names the shared folder beside the clone")
    func namesNothingOutside() throws {
        // Spelled in two parts, so this file does not name them itself.
        let outside = ["../" + "shared", "/work/" + "shared"].map { Data($0.utf8) }
        let files = Self.scanned.flatMap(Self.files(under:))
        #expect(files.count > 500, "the scan found only \(files.count) files")
        var offenders: [String] = []
        for file in files {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            if outside.contains(where: { bytes.range(of: $0) != nil }) {
                offenders.append(String(file.dropFirst(TestData.packageRoot.count + 1)))
            }
        }
        #expect(
            offenders.isEmpty, "these files name a folder outside the package:\n\(offenders.joined(separator: "\n"))")
    }

    @Test(
        "every committed test file is listed in Tests/Data/SOURCES.md and matches its SHA-256 (sha256sum -c)",
        .needs("sha256sum"))
    func checksums() throws {
        let sources = try String(contentsOfFile: TestData.root + "/SOURCES.md", encoding: .utf8)
        let sums = sources.split(separator: "\n").filter { line in
            line.count > 66 && line.prefix(64).allSatisfy(\.isHexDigit) && line.dropFirst(64).hasPrefix("  ")
        }
        let listed = Set(sums.map { String($0.dropFirst(66)) })
        let committed = Set(
            Self.files(under: "Tests/Data").map { String($0.dropFirst(TestData.root.count + 1)) }.filter {
                $0 != "SOURCES.md"
            })
        #expect(
            listed == committed,
            "listed but missing: \(listed.subtracting(committed)); unlisted: \(committed.subtracting(listed))")
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("SHA256SUMS")
        try Data((sums.joined(separator: "\n") + "\n").utf8).write(to: list)
        let check = try ExternalTool.capture(
            "sha256sum", ["-c", "--strict", list.path], currentDirectory: TestData.root)
        #expect(check.status == 0, "\(check.text)\(check.errorText)")
    }
}
