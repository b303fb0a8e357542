import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Uncompressed DNG samples read from a file are lent from the file's memory map instead of copied; the values
/// must be the stored ones (LibRaw's `unprocessed_raw` dump), writes must copy first, and layouts that cannot
/// be lent must still decode.
@Suite struct DNGBorrowedPixelsTests {
    /// Writes the synthetic raw as an uncompressed DNG without a thumbnail (one StripOffsets entry in the file).
    func writeUncompressed(in dir: URL) throws -> (url: URL, raw: RawImage) {
        let raw = SyntheticRaw.image()
        let url = dir.appendingPathComponent("uncompressed.dng")
        let options = EncodingOptions(dng: DNGEncodingOptions(compression: .uncompressed, generatesThumbnail: false))
        try ImageFile.write(raw, to: url, options: options)
        return (url, raw)
    }

    /// The stored samples as LibRaw dumps them, or `nil` without the tool.
    func libRawSamples(_ url: URL, in dir: URL) throws -> [UInt16]? {
        guard Fixtures.hasTool("unprocessed_raw") else { return nil }
        let copy = dir.appendingPathComponent("libraw-\(url.lastPathComponent)")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: url, to: copy)
        _ = try ExternalTool.capture("unprocessed_raw", ["-q", copy.path])
        return try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: copy.path + ".pgm"))).samples
    }

    /// Decodes `url` and hands back only the pixels, so nothing else keeps the file's map alive.
    func pixels(of url: URL) throws -> PixelBuffer {
        try #require(try ImageFile.read(url: url).rawImage).pixels
    }

    @Test("uncompressed samples are lent from the file and equal LibRaw's dump")
    func lentSamplesMatchLibRaw() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, raw) = try writeUncompressed(in: dir)
        var lent = try pixels(of: url)
        // A value that owns its memory alone reports unique; a lent one never does (a write would copy).
        let lentUnique = lent.isUniquelyReferenced
        #expect(!lentUnique)
        let values = lent.components(as: UInt16.self)
        #expect(values == raw.pixels.components(as: UInt16.self))
        if let dump = try libRawSamples(url, in: dir) {
            #expect(values == dump)
        } else {
            print("DNGBorrowedPixelsTests: unprocessed_raw (libraw-bin) not installed; LibRaw comparison skipped")
        }
        var copied = try #require(try ImageFile.read(data: Array(Data(contentsOf: url))).rawImage).pixels
        let copiedUnique = copied.isUniquelyReferenced
        #expect(copiedUnique)
    }

    @Test("the 12 MP uncompressed fixture is lent and equals the copying decode")
    func fixtureIsLent() throws {
        let url = Fixtures.url("raw/derived/synthetic12mp_canon550d_tiled_uncompressed.dng")
        var lent = try pixels(of: url)
        let lentUnique = lent.isUniquelyReferenced
        #expect(!lentUnique)
        let copied = try #require(try ImageFile.read(data: Array(Data(contentsOf: url))).rawImage).pixels
        #expect(lent.width == 4032 && lent.height == 3024)
        let same = lent.components(as: UInt16.self) == copied.components(as: UInt16.self)
        #expect(same)
    }

    @Test("writing to lent pixels copies them and leaves the file untouched")
    func writeCopies() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, raw) = try writeUncompressed(in: dir)
        let before = try Data(contentsOf: url)
        var lent = try pixels(of: url)
        let original = lent.components(as: UInt16.self)
        lent.withUnsafeMutablePlane { plane in
            plane.row(3, as: UInt16.self)[5] = 4242
        }
        let lentUnique = lent.isUniquelyReferenced
        #expect(lentUnique)
        var expected = original
        expected[3 * lent.width + 5] = 4242
        #expect(lent.components(as: UInt16.self) == expected)
        #expect(try Data(contentsOf: url) == before)
        #expect(try pixels(of: url).components(as: UInt16.self) == raw.pixels.components(as: UInt16.self))
    }

    @Test("samples at an odd file offset are copied, not lent, and decode the same")
    func oddOffsetIsCopied() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, raw) = try writeUncompressed(in: dir)
        var bytes = [UInt8](try Data(contentsOf: url))
        // The StripOffsets entry: tag 273, LONG, count 1 (little-endian file).
        let entry: [UInt8] = [0x11, 0x01, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00]
        let at = try #require((0..<(bytes.count - 12)).first { Array(bytes[$0..<$0 + 8]) == entry })
        let offset = Int(bytes[at + 8]) | Int(bytes[at + 9]) << 8 | Int(bytes[at + 10]) << 16 | Int(bytes[at + 11]) << 24
        let length = raw.pixels.width * raw.pixels.height * 2
        if bytes.count % 2 == 0 { bytes.append(0) }
        let moved = bytes.count
        #expect(moved % 2 == 1)
        bytes += bytes[offset..<offset + length]
        for k in 0..<4 { bytes[at + 8 + k] = UInt8(truncatingIfNeeded: moved >> (8 * k)) }
        let odd = dir.appendingPathComponent("odd.dng")
        try Data(bytes).write(to: odd)
        var decoded = try pixels(of: odd)
        let decodedUnique = decoded.isUniquelyReferenced
        #expect(decodedUnique)
        #expect(decoded.components(as: UInt16.self) == raw.pixels.components(as: UInt16.self))
        if let dump = try libRawSamples(odd, in: dir) {
            #expect(decoded.components(as: UInt16.self) == dump)
        }
    }
}
