import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Decoding JPEGs with restart markers in bands on several threads, with djpeg (one decode of the whole file) as
/// the oracle: the pixels must be the same bytes.
@Suite struct JPEGRestartBandsTests {
    /// The pixels of the band decode alone (no whole-file fallback), or nil when the file is not split or a band
    /// failed.
    static func bandDecode(_ bytes: [UInt8], threads: Int) -> PixelBuffer? {
        bytes.withUnsafeBytes { raw -> PixelBuffer? in
            guard let bands = JPEGRestartBands(raw) else { return nil }
            var pixels = PixelBuffer(width: bands.width, height: bands.height, format: bands.isGray ? .gray8 : .rgba8)
            let done = pixels.withUnsafeMutablePlane {
                bands.decode(into: $0, threads: threads, libraryBudget: 1 << 30)
            }
            return done ? pixels : nil
        }
    }

    static func decode(_ bytes: [UInt8], threads: Int) -> Result<PixelBuffer, CodecError> {
        Result { () throws(CodecError) in try JPEG.decode(bytes, options: DecodingOptions(threads: threads)).pixels }
    }

    @Test(
        "the iPhone JPEG (one restart interval per MCU row) is split into bands and decodes to exactly djpeg's pixels",
        .needs("djpeg"))
    func iPhoneBands() throws {
        let bytes = try Fixtures.bytes(JPEGTests.livePhoto)
        #expect(bytes.withUnsafeBytes { JPEGRestartBands($0)?.unitCount } == 189)
        let reference = try NetpbmImage(
            ExternalTool.capture("djpeg", ["-pnm", Fixtures.url(JPEGTests.livePhoto).path]).stdout)
        for threads in [2, 3] {
            let pixels = try #require(Self.bandDecode(bytes, threads: threads))
            let same = TestImages.rgbSamples(pixels) == reference.samples
            #expect(same, "\(threads) threads")
        }
    }

    /// cjpeg sampling options and restart intervals on a 1001 × 777 picture (63 MCUs per row at 4:2:0 and 4:2:2,
    /// 126 at 4:4:4 and in gray): whole rows, divisors and multiples of a row, and intervals that fit neither.
    static let samplings = ["2x2", "2x1", "1x1", "gray"]
    static let restarts: [(String, banded: Bool)] = [
        ("1", true), ("7B", true), ("126B", true), ("10B", true), ("1000B", false),
    ]

    @Test(
        "cjpeg files with restart markers decode in bands to exactly djpeg's pixels",
        .needs("djpeg", "cjpeg", "convert"), arguments: samplings)
    func cjpegRestarts(_ sampling: String) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = try TestImages.photoCrop(in: dir)
        for (restart, banded) in Self.restarts {
            let jpg = dir.appendingPathComponent("r\(restart).jpg")
            let sample = sampling == "gray" ? ["-grayscale"] : ["-sample", sampling]
            let made = try ExternalTool.capture(
                "cjpeg", sample + ["-quality", "92", "-restart", restart, "-outfile", jpg.path, src.path])
            try #require(made.status == 0, "cjpeg: \(made.errorText)")
            let bytes = [UInt8](try Data(contentsOf: jpg))
            let reference = try NetpbmImage(ExternalTool.capture("djpeg", ["-pnm", jpg.path]).stdout)
            for threads in [2, 5] {
                let split = Self.bandDecode(bytes, threads: threads)
                #expect((split != nil) == banded, "-restart \(restart)")
                let pixels = try split ?? JPEG.decode(bytes, options: DecodingOptions(threads: threads)).pixels
                #expect(pixels.format == (sampling == "gray" ? .gray8 : .rgba8))
                let same = TestImages.rgbSamples(pixels) == reference.samples
                #expect(same, "-sample \(sampling) -restart \(restart), \(threads) threads")
            }
        }
    }

    @Test(
        "damaged restart markers or entropy-coded data give the serial decode's pixels or error, never a crash",
        .needs("djpeg", "cjpeg", "convert"))
    func damagedMarkers() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = try TestImages.photoCrop(in: dir)
        let jpg = dir.appendingPathComponent("r1.jpg")
        try #require(try ExternalTool.capture("cjpeg", ["-restart", "1", "-outfile", jpg.path, src.path]).status == 0)
        let good = [UInt8](try Data(contentsOf: jpg))
        // The RST markers (FF D0…D7) in the entropy-coded data; the 25th is in the middle of the picture.
        let rst = (0..<(good.count - 1)).filter { good[$0] == 0xFF && (0xD0...0xD7).contains(good[$0 + 1]) }
        try #require(rst.count == 48)
        let middle = rst[24]
        var renumbered = good
        renumbered[middle + 1] = 0xD0 + (renumbered[middle + 1] - 0xD0 + 3) % 8
        var missing = good
        missing.removeSubrange(middle..<(middle + 2))
        var foreign = good
        foreign[middle + 1] = 0xC4  // a DHT marker where RST should be
        var garbled = good
        for i in (middle - 300)..<(middle - 200) where garbled[i] != 0xFF { garbled[i] ^= 0x5A }
        var truncated = Array(good[..<(rst[40] + 2)])
        truncated += [0xFF, 0xD9]
        let cases = [
            ("renumbered RST", renumbered), ("missing RST", missing), ("foreign marker", foreign),
            ("garbled data", garbled), ("truncated", truncated),
        ]
        for (name, bytes) in cases {
            if name != "garbled data" {
                // Markers out of order, or missing: the file is not split at all.
                #expect(bytes.withUnsafeBytes { JPEGRestartBands($0) } == nil, "\(name)")
            }
            let serial = Self.decode(bytes, threads: 1)
            let banded = Self.decode(bytes, threads: 2)
            switch (serial, banded) {
            case (.success(let a), .success(let b)):
                let same = a.components(as: UInt8.self) == b.components(as: UInt8.self)
                #expect(same, "\(name)")
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "\(name)")
            default: Issue.record("\(name): serial \(serial), banded \(banded)")
            }
        }
    }
}
