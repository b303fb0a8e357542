import Foundation
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Paths and helpers shared by the codec tests.
enum Fixtures {
    static func url(_ relative: String) throws -> URL { try TestData.url(relative) }
    static func bytes(_ relative: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(relative))) }

    static let genuineDNGs = ["raw/canon_eos550d_magiclantern_14bit.dng"]
    /// The 12 MP DNGs made from the 550D's (see ``SyntheticDNG``), by their `raw/derived/…` names.
    static let syntheticDNGs = SyntheticDNG.allCases.map(\.relativePath)
    static let metadataOnly = [
        "raw/metadata-only/apple_iphone12pro_proraw_HEADERONLY.dng", "raw/metadata-only/leica_m10_TRUNCATED.dng",
        "raw/metadata-only/canon_350d_adobe_dng_STRIPPED.dng", "raw/metadata-only/nikon_d70_STRIPPED.nef",
        "raw/metadata-only/sony_zv-e10_TRUNCATED.arw", "raw/metadata-only/canon_350d_STRIPPED.cr2",
        "raw/metadata-only/fujifilm_s5pro_STRIPPED.raf",
    ]

    /// exiftool's reading of a file (`-j -n`), as a dictionary.
    static func exiftool(_ path: String, _ extra: [String] = []) throws -> [String: Any] {
        let out = try ExternalTool.capture("exiftool", ["-j", "-n"] + extra + [path])
        let list = try JSONSerialization.jsonObject(with: out.stdout) as? [[String: Any]]
        return list?.first ?? [:]
    }

    /// Numbers from an exiftool value ("1 2 3", a number, or a list).
    static func numbers(_ value: Any?) -> [Double] {
        if let n = value as? NSNumber { return [n.doubleValue] }
        if let s = value as? String { return s.split(separator: " ").compactMap { Double($0) } }
        if let a = value as? [Any] { return a.flatMap { numbers($0) } }
        return []
    }

    static func close(_ a: [Double], _ b: [Double], tolerance: Double = 1e-6) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($1)) }
    }

    /// exiftool's `-validate -warning` verdict: "OK", or the warnings it printed.
    static func validate(_ path: String) throws -> String {
        let out = try ExternalTool.capture("exiftool", ["-validate", "-warning", "-a", "-s", "-s", path])
        let lines = out.text.split(separator: "\n").map(String.init)
        return lines.count == 1 && lines[0].hasPrefix("Validate") && lines[0].hasSuffix("OK") ? "OK" : out.text
    }
}
