import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// The grid layout `ImageFile.info` reports for HEIC grid images, judged by exiftool's and `heif-info`'s readings of
/// the same boxes, and the parse's behaviour on damaged `meta` boxes.
@Suite struct HEIFGridLayoutTests {
    /// What exiftool and `heif-info -d` say of the grids of `path`: per grid (in file order) the rows and columns and
    /// output size of its data, and the number of `dimg` references from each grid item.
    ///
    /// exiftool prints a grid item's data (ISO/IEC 23008-12 ImageGrid) as MetaImageSize, four 16-bit numbers with
    /// `-n`: version and flags, then (rows − 1) × 256 + (columns − 1), then the output width and height.
    static func oracle(_ path: String) throws -> (
        grids: [(rows: Int, columns: Int, width: Int, height: Int)], references: [Int: Int], tile: (Int, Int)
    ) {
        let exif = try ExternalTool.capture(
            "exiftool", ["-n", "-G", "-a", "-s", "-MetaImageSize", "-ImageSpatialExtent", path]
        )
        .succeeded().text
        var grids: [(rows: Int, columns: Int, width: Int, height: Int)] = []
        var extents: [(Int, Int)] = []
        for line in exif.split(separator: "\n") {
            let value =
                line.split(separator: ":", maxSplits: 1).last.map { $0.split(separator: " ").compactMap { Int($0) } }
                ?? []
            if line.contains("MetaImageSize") {
                for k in stride(from: 0, to: value.count - 3, by: 4) {
                    grids.append(((value[k + 1] >> 8) + 1, (value[k + 1] & 255) + 1, value[k + 2], value[k + 3]))
                }
            } else if line.contains("ImageSpatialExtent"), value.count == 2 {
                extents.append((value[0], value[1]))
            }
        }
        let dump = try ExternalTool.capture("heif-info", ["-d", path]).succeeded().text
        var references: [Int: Int] = [:]
        for match in dump.matches(of: #/reference with type 'dimg' from ID: (\d+) to IDs: ([\d ]+)/#) {
            references[Int(match.1)!] = match.2.split(separator: " ").count
        }
        // The tiles' `ispe` is the first property of these files' `ipco` (as `exiftool -v` lists the boxes).
        return (grids, references, try #require(extents.first))
    }

    @Test(
        "every real grid sample's rows, columns, tile size and output size agree with exiftool and heif-info -d",
        .needs("exiftool", "heif-info"),
        arguments: [
            "heic/iphone13pro_portrait_depth.heic", "heic/iphone8plus.heic", "heic/visionpro_spatial_stereo.heic",
            "heic/sony_a7s3.hif",
        ])
    func realGrids(sample: String) throws {
        let path = try TestData.path(sample)
        let images = try #require(try ImageFile.info(url: URL(fileURLWithPath: path)).heif?.images)
        let oracle = try Self.oracle(path)
        #expect(images.count == oracle.grids.count)
        for (image, expected) in zip(images, oracle.grids) {
            let grid = try #require(image.grid, "image \(image.index)")
            #expect(grid.rows == expected.rows && grid.columns == expected.columns)
            #expect(grid.width == expected.width && grid.height == expected.height)
            #expect(grid.width == image.storedWidth && grid.height == image.storedHeight)
            #expect(oracle.references[Int(image.itemID)] == grid.rows * grid.columns)
            #expect(grid.tileWidth == oracle.tile.0 && grid.tileHeight == oracle.tile.1)
            #expect(grid.tileCodec == "hvc1")
            // The tiles cover the output with no spare row or column.
            #expect(grid.columns == (grid.width + grid.tileWidth - 1) / grid.tileWidth)
            #expect(grid.rows == (grid.height + grid.tileHeight - 1) / grid.tileHeight)
        }
    }

    @Test("iPhone photos are 8 × 6 grids of 512 × 512 HEVC tiles; the Sony's a 2 × 2 grid of 2176 × 1472")
    func publishedLayouts() throws {
        let iPhone = try ImageFile.info(url: try TestData.url("heic/iphone8plus.heic"))
        #expect(
            iPhone.heif?.images.first?.grid
                == HEIFGridLayout(
                    rows: 6, columns: 8, tileWidth: 512, tileHeight: 512, tileCodec: "hvc1", width: 4032, height: 3024))
        #expect(iPhone.storage.contains("grid of 8×6 512×512 tiles"))
        let sony = try ImageFile.info(url: try TestData.url("heic/sony_a7s3.hif"))
        #expect(
            sony.heif?.images.first?.grid
                == HEIFGridLayout(
                    rows: 2, columns: 2, tileWidth: 2176, tileHeight: 1472, tileCodec: "hvc1", width: 4240, height: 2832
                ))
    }

    @Test(
        "a grid whose data is in mdat (iloc construction method 0) and Lux's own grid in idat are described",
        .needs("heif-enc", "exiftool", "heif-info", "vips"))
    func syntheticGrids() throws {
        let dir = try ExternalTool.temporaryFolder("lux-heif-grid")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("tile.png").path
        let tile = dir.appendingPathComponent("tile.heic").path
        let sample = try TestData.path("heic/iphone8plus.heic")
        try ExternalTool.capture("vips", ["crop", sample, png + "[strip]", "1000", "1000", "320", "192"]).succeeded()
        try ExternalTool.capture("heif-enc", ["-q", "50", png, "-o", tile]).succeeded()
        let grid = try HEIFGridFile(tile: try Data(contentsOf: URL(fileURLWithPath: tile)))
        let big = dir.appendingPathComponent("grid.heic").path
        try grid.file(columns: 5, rows: 3).write(to: URL(fileURLWithPath: big))
        let layout = try #require(try ImageFile.info(url: URL(fileURLWithPath: big)).heif?.images.first?.grid)
        // exiftool reads grid data from idat only; libheif's dump gives the references and its decode the size.
        let oracle = try Self.oracle(big)
        #expect(oracle.grids.isEmpty && oracle.references[1] == 15)
        let listed = try ExternalTool.capture("heif-info", [big]).succeeded().text
        #expect(listed.contains("image: \(5 * grid.tileWidth)x\(3 * grid.tileHeight)"))
        #expect(
            layout
                == HEIFGridLayout(
                    rows: 3, columns: 5, tileWidth: 320, tileHeight: 192, tileCodec: "hvc1", width: 5 * 320,
                    height: 3 * 192))
        // heif-enc's single picture is no grid.
        #expect(try ImageFile.info(url: URL(fileURLWithPath: tile)).heif?.images.first?.grid == nil)

        // Lux writes 512 × 512 tiles into idat: 1100 × 600 is 3 columns × 2 rows, cropped.
        let image = TestImages.gradient(width: 1100, height: 600)
        let own = dir.appendingPathComponent("own.heic")
        try Data(try HEIF.encode(image)).write(to: own)
        let written = try #require(try ImageFile.info(url: own).heif?.images.first?.grid)
        let expected = try #require(try Self.oracle(own.path).grids.first)
        #expect(written.rows == expected.rows && written.columns == expected.columns)
        #expect(
            written
                == HEIFGridLayout(
                    rows: 2, columns: 3, tileWidth: 512, tileHeight: 512, tileCodec: "hvc1", width: 1100, height: 600))
    }

    /// The iPhone 13 Pro sample, and the offsets of its `meta` box and of the grid's data in `idat`.
    static func iPhone() throws -> (bytes: [UInt8], meta: Range<Int>, idat: Int) {
        let bytes = [UInt8](try Data(contentsOf: try TestData.url("heic/iphone13pro_portrait_depth.heic")))
        let metaStart = try #require(find("meta", in: bytes)) - 4
        let metaSize =
            Int(bytes[metaStart]) << 24 | Int(bytes[metaStart + 1]) << 16 | Int(bytes[metaStart + 2]) << 8
            | Int(bytes[metaStart + 3])
        let idat = try #require(find("idat", in: bytes)) + 4
        return (bytes, metaStart..<metaStart + metaSize, idat)
    }

    static func find(_ type: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(type.utf8)
        return bytes.indices.dropLast(3).first { Array(bytes[$0..<$0 + 4]) == pattern }
    }

    @Test("a meta box cut anywhere gives a typed error or no layout, never a crash")
    func truncatedMeta() throws {
        let (bytes, meta, _) = try Self.iPhone()
        for end in stride(from: meta.lowerBound, to: meta.upperBound, by: 97) {
            let cut = Array(bytes[..<end])
            #expect(throws: CodecError.self) { try cut.withUnsafeBytes { try HEIFGridParser($0).layouts() } }
            if let info = try? ImageFile.info(data: cut) { #expect(info.heif?.images.first?.grid == nil) }
        }
    }

    @Test("garbled grid boxes throw .malformed or a limit, and the file is still described without the layout")
    func garbledMeta() throws {
        let (bytes, _, idat) = try Self.iPhone()
        func parse(_ b: [UInt8]) throws(CodecError) -> [UInt32: HEIFGridLayout] {
            try b.withUnsafeBytes { raw in Result { () throws(CodecError) in try HEIFGridParser(raw).layouts() } }.get()
        }
        #expect(try parse(bytes)[49]?.rows == 6)
        var mutations: [(String, [UInt8])] = []
        var rows = bytes
        rows[idat + 2] = 6  // 7 rows × 8 columns, but 48 tiles
        mutations.append(("rows", rows))
        var version = bytes
        version[idat] = 1
        mutations.append(("grid version", version))
        var small = bytes
        small[idat + 4...idat + 7] = [0x20, 0, 0x20, 0]  // 8192 × 8192 from 8 × 6 tiles of 512
        mutations.append(("output beyond the tiles", small))
        var dimg = bytes
        let reference = try #require(Self.find("dimg", in: bytes))
        dimg[reference + 7] = 47  // 47 references; the box keeps its size
        mutations.append(("dimg count", dimg))
        var ipma = bytes
        let association = try #require(Self.find("ipma", in: bytes)) + 8
        ipma[association...association + 3] = [0x7F, 0xFF, 0xFF, 0xFF]
        mutations.append(("ipma count", ipma))
        var iloc = bytes
        let location = try #require(Self.find("iloc", in: bytes)) + 8
        iloc[location] = 0x33  // 3-byte offsets and lengths
        mutations.append(("iloc field sizes", iloc))
        for (name, garbled) in mutations {
            do {
                let layouts = try parse(garbled)
                Issue.record("\(name): parsed \(layouts)")
            } catch {
                switch error {
                case .malformed, .limitExceeded, .truncated: break
                default: Issue.record("\(name): \(error)")
                }
            }
            if let info = try? ImageFile.info(data: garbled) {
                #expect(info.heif?.images.first?.grid == nil, "\(name)")
            }
        }
    }

    @Test("the fuzzers' self-referencing grid and huge-picture samples give an error or no layout")
    func fuzzSamples() throws {
        for name in ["heic/fuzz_self_grid.heic", "heic/fuzz_huge_coded_picture.heic", "heic/truncated.heic"] {
            let bytes = [UInt8](try Data(contentsOf: try TestData.url(name)))
            let layouts = try? bytes.withUnsafeBytes { try HEIFGridParser($0).layouts() }
            for layout in (layouts ?? [:]).values {
                #expect(layout.columns * layout.tileWidth >= layout.width, "\(name)")
            }
        }
    }
}
