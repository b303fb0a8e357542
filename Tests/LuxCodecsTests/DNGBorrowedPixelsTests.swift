import Foundation
import LuxTestSupport
import Testing

@testable import LuxCodecs
@testable import LuxPixels

/// With ``DecodingOptions/allowsMappedPixels``, uncompressed DNG samples read from a file are lent from the file's
/// memory map instead of copied.
///
/// The values must be the stored ones (LibRaw's `unprocessed_raw` dump or the values the test stored), writes must copy
/// first, and layouts that cannot be lent must still decode.
@Suite struct DNGBorrowedPixelsTests {
    static let mapped = DecodingOptions(allowsMappedPixels: true)

    /// Writes the synthetic raw as an uncompressed DNG without a thumbnail (one StripOffsets entry in the file).
    func writeUncompressed(in dir: URL) throws -> (url: URL, raw: RawImage) {
        let raw = SyntheticRaw.image()
        let url = dir.appendingPathComponent("uncompressed.dng")
        let options = EncodingOptions(dng: DNGEncodingOptions(compression: .uncompressed, generatesThumbnail: false))
        try ImageFile.write(raw, to: url, options: options)
        return (url, raw)
    }

    /// The stored samples as LibRaw dumps them (tests that call it need `unprocessed_raw`).
    func libRawSamples(_ url: URL, in dir: URL) throws -> [UInt16] {
        let copy = dir.appendingPathComponent("libraw-\(url.lastPathComponent)")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: url, to: copy)
        _ = try ExternalTool.capture("unprocessed_raw", ["-q", copy.path])
        return try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: copy.path + ".pgm"))).samples
    }

    /// Decodes `url` and hands back only the pixels, so nothing else keeps the file's map alive.
    func pixels(of url: URL, options: DecodingOptions = mapped) throws -> PixelBuffer {
        try #require(try ImageFile.read(url: url, options: options).rawImage).pixels
    }

    @Test("uncompressed samples are lent from the file and equal LibRaw's dump", .needs("unprocessed_raw"))
    func lentSamplesMatchLibRaw() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, raw) = try writeUncompressed(in: dir)
        let lent = try pixels(of: url)
        #expect(lent.storage.isReadOnly)
        let values = lent.components(as: UInt16.self)
        #expect(values == raw.pixels.components(as: UInt16.self))
        #expect(try values == libRawSamples(url, in: dir))
        // Without the option, and from memory, the samples are copied.
        #expect(try !pixels(of: url, options: .default).storage.isReadOnly)
        #expect(
            try !#require(try ImageFile.read(data: Array(Data(contentsOf: url))).rawImage).pixels.storage.isReadOnly)
    }

    @Test("the 12 MP uncompressed fixture is lent and equals the copying decode")
    func fixtureIsLent() throws {
        let url = URL(fileURLWithPath: try SyntheticDNG.uncompressed.path)
        let lent = try pixels(of: url)
        #expect(lent.storage.isReadOnly)
        let copied = try pixels(of: url, options: .default)
        #expect(lent.width == SyntheticDNG.width && lent.height == SyntheticDNG.height)
        let same = lent.components(as: UInt16.self) == copied.components(as: UInt16.self)
        #expect(same)
    }

    @Test("writing to one copy of lent pixels copies it and leaves the other copy as stored")
    func writeCopies() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, raw) = try writeUncompressed(in: dir)
        var written = try pixels(of: url)
        let other = written
        written.withUnsafeMutablePlane { plane in
            plane.row(3, as: UInt16.self)[5] = 4242
        }
        #expect(!written.storage.isReadOnly && other.storage.isReadOnly)
        var expected = raw.pixels.components(as: UInt16.self)
        #expect(other.components(as: UInt16.self) == expected)
        expected[3 * written.width + 5] = 4242
        #expect(written.components(as: UInt16.self) == expected)
    }

    /// Samples that identify their position (hand-computed, 14-bit).
    static func values(width: Int, height: Int) -> [UInt16] {
        (0..<(width * height)).map { UInt16((($0 % width) * 37 + ($0 / width) * 1009) % 16384) }
    }

    /// Little-endian bytes of the rows `y0..<y1`, columns `0..<chunkWidth` (zero past the image), padded with
    /// zero rows to `rows`.
    static func chunk(_ v: [UInt16], width: Int, chunkWidth: Int, x0: Int = 0, rows y: Range<Int>, padTo rows: Int)
        -> [UInt8]
    {
        var out: [UInt8] = []
        for r in 0..<rows {
            for c in 0..<chunkWidth {
                let x = x0 + c
                let s = r < y.count && x < width ? v[(y.lowerBound + r) * width + x] : 0
                out += [UInt8(s & 255), UInt8(s >> 8)]
            }
        }
        return out
    }

    struct Layout: CustomTestStringConvertible, Sendable {
        let name: String
        let width: Int
        let height: Int
        let lent: Bool
        let rowsPerStrip: Int?
        let tile: (width: Int, height: Int)?
        /// Extra bytes at the end of the first chunk (a gap before the next one).
        let gap: Int
        var testDescription: String { name }
    }

    static let layouts: [Layout] = [
        Layout(
            name: "strips of 7 rows, short last strip", width: 30, height: 23, lent: true, rowsPerStrip: 7, tile: nil,
            gap: 0),
        Layout(
            name: "one column of tiles wider than the image", width: 30, height: 20, lent: true, rowsPerStrip: nil,
            tile: (32, 16), gap: 0),
        Layout(
            name: "strips with a gap between them", width: 30, height: 23, lent: false, rowsPerStrip: 7, tile: nil,
            gap: 2),
        Layout(name: "two tiles across", width: 40, height: 16, lent: false, rowsPerStrip: nil, tile: (32, 16), gap: 0),
    ]

    @Test("strip and tile layouts: lent when row after row, copied otherwise, same samples", arguments: layouts)
    func lentOrCopied(_ l: Layout) throws {
        let v = Self.values(width: l.width, height: l.height)
        var chunks: [[UInt8]] = []
        if let tile = l.tile {
            for ty in stride(from: 0, to: l.height, by: tile.height) {
                for tx in stride(from: 0, to: l.width, by: tile.width) {
                    chunks.append(
                        Self.chunk(
                            v, width: l.width, chunkWidth: tile.width, x0: tx,
                            rows: ty..<min(ty + tile.height, l.height), padTo: tile.height))
                }
            }
        } else if let rps = l.rowsPerStrip {
            for y in stride(from: 0, to: l.height, by: rps) {
                let rows = y..<min(y + rps, l.height)
                chunks.append(Self.chunk(v, width: l.width, chunkWidth: l.width, rows: rows, padTo: rows.count))
            }
        }
        chunks[0] += [UInt8](repeating: 0xEE, count: l.gap)
        let bytes = DNGStorageTests.dng(
            width: l.width, height: l.height, bits: 16, compression: 1, chunks: chunks, rowsPerStrip: l.rowsPerStrip,
            tile: l.tile)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("layout.dng")
        try Data(bytes).write(to: url)
        let decoded = try pixels(of: url)
        #expect(decoded.storage.isReadOnly == l.lent)
        #expect(decoded.width == l.width && decoded.height == l.height)
        #expect(decoded.components(as: UInt16.self) == v)
    }

    @Test("samples at an odd file offset are copied, not lent, and decode the same", .needs("unprocessed_raw"))
    func oddOffsetIsCopied() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, raw) = try writeUncompressed(in: dir)
        var bytes = [UInt8](try Data(contentsOf: url))
        // The StripOffsets entry: tag 273, LONG, count 1 (little-endian file).
        let entry: [UInt8] = [0x11, 0x01, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00]
        let at = try #require((0..<(bytes.count - 12)).first { Array(bytes[$0..<$0 + 8]) == entry })
        let offset =
            Int(bytes[at + 8]) | Int(bytes[at + 9]) << 8 | Int(bytes[at + 10]) << 16 | Int(bytes[at + 11]) << 24
        let length = raw.pixels.width * raw.pixels.height * 2
        if bytes.count % 2 == 0 { bytes.append(0) }
        let moved = bytes.count
        #expect(moved % 2 == 1)
        bytes += bytes[offset..<offset + length]
        for k in 0..<4 { bytes[at + 8 + k] = UInt8(truncatingIfNeeded: moved >> (8 * k)) }
        let odd = dir.appendingPathComponent("odd.dng")
        try Data(bytes).write(to: odd)
        let decoded = try pixels(of: odd)
        #expect(!decoded.storage.isReadOnly)
        #expect(decoded.components(as: UInt16.self) == raw.pixels.components(as: UInt16.self))
        #expect(try decoded.components(as: UInt16.self) == libRawSamples(odd, in: dir))
    }

    @Test("a lent image still counts against the decoding memory budget, as a decoded one does")
    func lentImageIsBudgeted() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, raw) = try writeUncompressed(in: dir)
        let imageBytes = raw.pixels.width * raw.pixels.height * 2
        let lentOptions = Self.mapped.budgeted()
        let lent = try #require(try ImageFile.read(url: url, options: lentOptions).rawImage).pixels
        #expect(lent.storage.isReadOnly)
        #expect(try #require(lentOptions.budget).reserved >= imageBytes)
        // The copying decode reserves at least the image too.
        let copiedOptions = DecodingOptions.default.budgeted()
        _ = try ImageFile.read(url: url, options: copiedOptions)
        #expect(try #require(copiedOptions.budget).reserved >= imageBytes)
    }
}
