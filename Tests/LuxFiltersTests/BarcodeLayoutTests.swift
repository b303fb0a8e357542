import Foundation
import LuxCodecs
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// The Aztec generator's layers and compact style and the PDF417 generator's layout change the symbol as the
/// standards say (ISO/IEC 24778's size table, ISO/IEC 15438's row and column widths), as zint draws the same layout,
/// and zxing-cpp reads each symbol back.
@Suite struct BarcodeLayoutTests {
    /// The rows of a zint `--dump` (one line per module row).
    static func zintRows(_ arguments: [String]) throws -> [Substring] {
        let dump = try ExternalTool.run("zint", arguments + ["--dump"])
        try #require(dump.status == 0, "zint failed")
        return String(decoding: dump.output, as: UTF8.self).split(separator: "\n")
    }

    /// The width in modules of a zint PDF417 dump row (hex, 4 modules a digit): the position of its last dark module
    /// (the stop pattern ends dark).
    static func zintWidth(_ row: Substring) -> Int {
        let bits = row.filter { $0 != " " }.flatMap { digit -> [Bool] in
            let v = UInt8(String(digit), radix: 16) ?? 0
            return (0..<4).map { v & (0x8 >> $0) != 0 }
        }
        return (bits.lastIndex(of: true) ?? -1) + 1
    }

    static func read(_ image: Image, _ symbology: Symbology) throws -> [String] {
        try CodeReader(symbologies: [symbology]).codes(in: BarcodeGeneratorTests.pixels(image, scale: 3)).map(
            \.stringValue)
    }

    /// ISO/IEC 24778 symbol sizes in modules: compact by layers 1…4, full by layers 1…32.
    static let compactSizes = [15, 19, 23, 27]
    static let fullSizes = [
        19, 23, 27, 31, 37, 41, 45, 49, 53, 57, 61, 67, 71, 75, 79, 83, 87, 91, 95, 101, 105, 109, 113, 117, 121, 125,
        131, 135, 139, 143, 147, 151,
    ]

    @Test(
        "Aztec: compact layers 1…4 and full layers give the standard's sizes (and zint's), and read back",
        .needs("zint"), arguments: [(1, true), (2, true), (3, true), (4, true), (1, false), (5, false), (12, false)])
    func aztecLayers(layers: Int, compact: Bool) throws {
        let text = "Lux layers"
        let image = try Image.aztecCode(message: Array(text.utf8), layers: layers, compactStyle: compact)
        let size = (compact ? Self.compactSizes : Self.fullSizes)[layers - 1]
        #expect(image.extent.width == Double(size + 2) && image.extent.height == Double(size + 2))
        let zint = try Self.zintRows(["-b", "92", "--vers=\(compact ? layers : layers + 4)", "-d", text])
        #expect(zint.count == size)
        #expect(try Self.read(image, .aztec) == [text])
        // The same through the filter by name.
        let named = try FilterRegistry.builtIn.apply(
            "CIAztecCodeGenerator", to: nil,
            parameters: [
                "inputMessage": .string(text), "inputLayers": .number(Double(layers)),
                "inputCompactStyle": .boolean(compact),
            ])
        #expect(named.extent == image.extent)
    }

    @Test("Aztec: the compact style alone takes the fewest compact layers; too few layers is a typed error")
    func aztecCompactStyle() throws {
        // 40 characters need more than one compact layer at 23 % correction; two compact layers hold 40 digits only.
        let text = String(repeating: "Lux ", count: 10)
        let compact = try Image.aztecCode(message: Array(text.utf8), compactStyle: true)
        #expect(Self.compactSizes.map { Double($0 + 2) }.contains(compact.extent.width))
        #expect(try Self.read(compact, .aztec) == [text])
        let automatic = try Image.aztecCode(message: Array(text.utf8))
        #expect(automatic.extent.width <= compact.extent.width)
        #expect(throws: CodeError.self) {
            try Image.aztecCode(message: Array(String(repeating: "x", count: 200).utf8), layers: 2, compactStyle: true)
        }
        #expect(throws: CodeError.self) { try Image.aztecCode(message: [1], layers: 5, compactStyle: true) }
    }

    @Test(
        "PDF417: c data columns are 17c + 69 modules wide (17c + 35 compact), r rows 4r modules tall, as zint draws them",
        .needs("zint"), arguments: [(3, 10, false), (5, 6, false), (2, 20, false), (3, 10, true), (6, 4, true)])
    func pdf417Layout(columns: Int, rows: Int, compact: Bool) throws {
        let text = "PDF417 in Lux"
        let image = try Image.pdf417Code(
            message: Array(text.utf8), layout: CodeWriter.PDF417Layout(columns: columns, rows: rows, isCompact: compact)
        )
        let width = compact ? 17 * columns + 35 : 17 * columns + 69
        #expect(image.extent.width == Double(width + 2))
        #expect(image.extent.height == Double(4 * rows + 2))
        let zint = try Self.zintRows(["-b", compact ? "56" : "55", "--cols=\(columns)", "--rows=\(rows)", "-d", text])
        #expect(zint.count == rows)
        #expect(zint.first.map(Self.zintWidth) == width)
        #expect(try Self.read(image, .pdf417) == [text])
    }

    @Test("PDF417: numeric compaction packs digits in fewer rows than byte compaction; both read back")
    func pdf417Compaction() throws {
        // 60 digits: numeric compaction takes about 21 codewords (44 digits in 15), byte compaction 50 (6 in 5).
        let digits = String((0..<60).map { Character(String($0 % 10)) })
        var heights: [Double] = []
        for mode in [CodeWriter.PDF417Layout.Compaction.numeric, .byte] {
            let image = try Image.pdf417Code(
                message: Array(digits.utf8), layout: CodeWriter.PDF417Layout(columns: 2, compaction: mode))
            #expect(try Self.read(image, .pdf417) == [digits], "\(mode)")
            heights.append(image.extent.height)
        }
        #expect(heights[0] < heights[1])
        let byName = try FilterRegistry.builtIn.apply(
            "CIPDF417BarcodeGenerator", to: nil,
            parameters: ["inputMessage": .string(digits), "inputDataColumns": 2, "inputCompactionMode": 1])
        #expect(byName.extent.height == heights[0])
        #expect(throws: CodeError.self) {
            try Image.pdf417Code(message: [1, 2, 3], layout: CodeWriter.PDF417Layout(rows: 2))
        }
    }

    static let shapeText = "Lux shapes a PDF417 symbol by its column count: 0123456789 abcdefghij"

    /// The symbol of every column count 1…30 the message fits, each laid out by hand.
    static func everyLayout() -> [Image] {
        (1...30).compactMap {
            try? Image.pdf417Code(message: Array(shapeText.utf8), layout: CodeWriter.PDF417Layout(columns: $0))
        }
    }

    @Test(
        "PDF417: the preferred aspect ratio picks the column count whose symbol's width ÷ height is nearest",
        arguments: [1.0, 3.0, 8.0])
    func pdf417PreferredAspectRatio(ratio: Double) throws {
        let image = try Image.pdf417Code(
            message: Array(Self.shapeText.utf8), shape: .init(preferredAspectRatio: ratio))
        #expect(try Self.read(image, .pdf417) == [Self.shapeText])
        // Every column count the encoder accepts, drawn by hand-chosen layouts: none is nearer the ratio.
        let chosen = abs(log(image.extent.width / image.extent.height / ratio))
        for other in Self.everyLayout() {
            #expect(chosen <= abs(log(other.extent.width / other.extent.height / ratio)) + 1e-12, "\(other.extent)")
        }
        // 17c + 69 modules and a quiet module each side.
        #expect((Int(image.extent.width) - 2 - 69) % 17 == 0)
    }

    @Test("PDF417: minimum and maximum sizes bound the symbol; bounds nothing fits are a typed error")
    func pdf417SizeBounds() throws {
        let message = Array(Self.shapeText.utf8)
        let narrow = try Image.pdf417Code(message: message, shape: .init(preferredAspectRatio: 20, maxWidth: 200))
        #expect(narrow.extent.width <= 200)
        let wide = try Image.pdf417Code(message: message, shape: .init(minWidth: 400))
        #expect(wide.extent.width >= 400)
        let short = try Image.pdf417Code(message: message, shape: .init(maxHeight: 40))
        #expect(short.extent.height <= 40)
        let tall = try Image.pdf417Code(message: message, shape: .init(minHeight: 150))
        #expect(tall.extent.height >= 150)
        for image in [narrow, wide, short, tall] { #expect(try Self.read(image, .pdf417) == [Self.shapeText]) }
        // Without a preferred ratio the smallest symbol within the bounds: no smaller one is admitted.
        for other in Self.everyLayout() where other.extent.width >= 400 {
            #expect(wide.extent.width * wide.extent.height <= other.extent.width * other.extent.height)
        }
        #expect(throws: CodeError.self) {
            try Image.pdf417Code(message: message, shape: .init(maxWidth: 120, maxHeight: 30))
        }
        // Core Image's keys reach the same filter.
        let byName = try FilterRegistry.builtIn.apply(
            "CIPDF417BarcodeGenerator", to: nil,
            parameters: ["inputMessage": .string(Self.shapeText), "inputMaxHeight": 40])
        #expect(byName.extent == short.extent)
    }

    @Test("PDF417: always specifying the compaction states byte compaction for an automatic message; text is refused")
    func pdf417AlwaysSpecifyCompaction() throws {
        let message = Array(Self.shapeText.utf8)
        let implicit = try Image.pdf417Code(message: message, layout: CodeWriter.PDF417Layout(columns: 4))
        let stated = try Image.pdf417Code(
            message: message, layout: CodeWriter.PDF417Layout(columns: 4), alwaysSpecifyCompaction: true)
        let bytes = try Image.pdf417Code(
            message: message, layout: CodeWriter.PDF417Layout(columns: 4, compaction: .byte))
        #expect(try Self.read(stated, .pdf417) == [Self.shapeText])
        // Byte compaction packs 6 bytes in 5 codewords, text about 2 characters a codeword: a taller symbol.
        #expect(stated.extent.height > implicit.extent.height)
        #expect(
            try BarcodeGeneratorTests.pixels(stated, scale: 1).components(as: UInt8.self)
                == BarcodeGeneratorTests.pixels(bytes, scale: 1).components(as: UInt8.self))
        #expect(throws: CodeError.self) {
            try Image.pdf417Code(
                message: message, layout: CodeWriter.PDF417Layout(compaction: .text), alwaysSpecifyCompaction: true)
        }
    }
}
