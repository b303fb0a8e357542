import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// `DecodingLimits` on HEIC grids whose header claims a huge picture: refused with a typed error before anything of
/// that size is allocated.
@Suite struct HEIFLimitsTests {
    /// The process's peak resident memory (VmHWM), in bytes.
    static func peakResident() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes * 1024
    }

    /// `bytes` with every occurrence of `pattern` replaced by `replacement` (same length); the count replaced.
    static func patch(_ bytes: inout [UInt8], _ pattern: [UInt8], _ replacement: [UInt8]) -> Int {
        var count = 0
        var i = 0
        while i + pattern.count <= bytes.count {
            if Array(bytes[i..<(i + pattern.count)]) == pattern {
                bytes.replaceSubrange(i..<(i + pattern.count), with: replacement)
                count += 1
                i += pattern.count
            } else {
                i += 1
            }
        }
        return count
    }

    static func u32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((v >> $0) & 0xFF) } }
    static func u16(_ v: Int) -> [UInt8] { [8, 0].map { UInt8((v >> $0) & 0xFF) } }

    /// A 1024 × 1024 HEIC written by Lux (a 2 × 2 grid of 512-pixel tiles, no thumbnail) whose grid claims
    /// `side` × `side`: its `ispe` property and, when the size fits the descriptor's 16-bit fields, its `grid` item.
    static func claimingGrid(side: Int) throws -> [UInt8] {
        var bytes = try HEIF.encode(
            TestImages.gradient(width: 1024, height: 1024), options: EncodingOptions(embedsThumbnail: false))
        let ispe = Array("ispe".utf8) + [0, 0, 0, 0]
        let patched = patch(&bytes, ispe + u32(1024) + u32(1024), ispe + u32(side) + u32(side))
        #expect(patched == 1, "the grid's ispe")
        if side <= 0xFFFF {
            // version 0, flags 0 (16-bit sizes), 2 rows, 2 columns, 1024 × 1024.
            let descriptor: [UInt8] = [0, 0, 1, 1]
            #expect(patch(&bytes, descriptor + u16(1024) + u16(1024), descriptor + u16(side) + u16(side)) == 1)
        }
        return bytes
    }

    @Test(
        "a grid claiming 100 000 × 100 000 is refused while libheif parses it (maxDimension), and one claiming 60 000 × 60 000 by the pixel-count limit, before any allocation of that size",
        arguments: [100_000, 60_000])
    func hugeGrid(side: Int) throws {
        let bytes = try Self.claimingGrid(side: side)
        let before = try Self.peakResident()
        var refusal: CodecError?
        do {
            _ = try HEIF.decode(bytes)
        } catch {
            refusal = error
        }
        guard case .limitExceeded(let what, let value, let limit) = try #require(refusal) else {
            Issue.record("expected limitExceeded, got \(String(describing: refusal))")
            return
        }
        if side > DecodingLimits().maxDimension {
            #expect(value > limit && limit == DecodingLimits().maxDimension, "\(what)")
        } else {
            #expect(value == side * side && limit == DecodingLimits().maxPixelCount, "\(what)")
        }
        // The picture would need side² × 4 bytes (14 GB and more); the process grew by less than 64 MB.
        #expect(try Self.peakResident() - before < 64 << 20)
        // The region reader refuses the file the same way.
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let url = URL(fileURLWithPath: dir + "/huge.heic")
        try Data(bytes).write(to: url)
        #expect(throws: CodecError.self) { _ = try ImageRegionReader(url: url) }
    }
}
