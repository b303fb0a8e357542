import ArgumentParser
import Foundation
import Lux

struct CodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codes",
        abstract: "Detect or generate machine-readable codes (QR, Aztec, PDF417, Code 128, Data Matrix, ...).",
        subcommands: [CodesDetectCommand.self, CodesGenerateCommand.self])
}

struct CodesDetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find and decode the codes in images.",
        discussion: """
            Prints one line per code: the file, the symbology, the bounds (x,y,width,height in pixels, y down) \
            and the decoded text. --json prints, for each file, its codes with their symbology, text, payload \
            bytes, corners and error-correction level. Symbologies: \
            \(Symbology.allCases.map(\.rawValue).joined(separator: ", ")).
            Exits with status 1 when an image cannot be read; an image without codes is not an error.

            Examples:
              lux codes detect ticket.png
              lux codes detect *.jpg --types qr,aztec --json
            """)

    @Argument(help: "The images.", completion: .file())
    var files: [String]

    @Option(help: "The symbologies to look for, comma-separated (default: all).")
    var types: String?

    @Flag(help: "Print a JSON report on standard output.")
    var json = false

    struct Report: Encodable {
        var file: String
        var codes: [DetectedCode]
    }

    func symbologies() throws -> Set<Symbology> {
        guard let types else { return Set(Symbology.allCases) }
        var out: Set<Symbology> = []
        for name in types.split(separator: ",") {
            guard let s = Symbology(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError(
                    "unknown symbology '\(name)'; use \(Symbology.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            out.insert(s)
        }
        return out
    }

    func run() throws {
        let reader = CodeReader(symbologies: try symbologies())
        var reports: [Report] = []
        for file in files {
            let codes: [DetectedCode]
            do {
                codes = try reader.codes(in: ImageFile.read(url: URL(fileURLWithPath: file)).pixels)
            } catch {
                throw CLIError(error, file: file)
            }
            reports.append(Report(file: file, codes: codes))
            guard !json else { continue }
            for c in codes {
                let b = c.bounds
                print(
                    "\(file): \(c.symbology) \(Int(b.minX)),\(Int(b.minY)),\(Int(b.width)),\(Int(b.height)) "
                        + c.stringValue)
            }
        }
        if json { try JSONOutput.print(reports) }
    }
}

struct CodesGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a code symbol as an image, as Core Image's barcode generators draw it.",
        discussion: """
            The symbol is black on white with the generator's quiet zone (see `lux filters QRCodeGenerator`), \
            --scale pixels per module. Types: qr, aztec, pdf417, code128.

            Examples:
              lux codes generate qr 'https://example.com' -o code.png --scale 8
              lux codes generate code128 'LUX-0042' -o label.png --correction-level 0
              lux codes generate pdf417 'Lux' -o wide.png --preferred-aspect-ratio 4 --max-height 60
            """)

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case qr, aztec, pdf417, code128
    }

    @Argument(help: "The symbology: qr, aztec, pdf417 or code128.")
    var type: Kind

    @Argument(help: "The message (its UTF-8 bytes are encoded).")
    var message: String

    @Option(
        help: """
            The error correction: L, M, Q or H for QR (default M), a percentage 5...95 for Aztec (default 23), \
            0...8 for PDF417 (default 2).
            """)
    var correctionLevel: String?

    @Option(
        parsing: .unconditional,
        help: "Aztec: the number of data layers (1...4 compact, 1...32 full; default: the fewest that fit).")
    var layers: Int?

    @Flag(help: "Aztec: a compact symbol (1...4 layers). PDF417: compact PDF417 (no right row indicator).")
    var compact = false

    @Option(
        parsing: .unconditional, help: "PDF417: the number of data columns (1...30; default: the encoder's choice).")
    var columns: Int?

    @Option(parsing: .unconditional, help: "PDF417: the number of rows (3...90; default: the encoder's choice).")
    var rows: Int?

    @Option(help: "PDF417: the compaction mode: auto, numeric, text or byte (default auto).")
    var compaction: Compaction = .auto

    @Flag(
        help: """
            PDF417: state the compaction mode in the symbol (a latch codeword first; auto then packs bytes, and text \
            cannot be stated).
            """)
    var alwaysSpecifyCompaction = false

    @Option(
        parsing: .unconditional,
        help: """
            PDF417: the width/height ratio to come nearest to, choosing the column count (default: the encoder's choice, \
            or the smallest symbol within the size bounds).
            """)
    var preferredAspectRatio: Double?

    @Option(parsing: .unconditional, help: "PDF417: the least width of the symbol in modules, quiet zone included.")
    var minWidth: Double?

    @Option(parsing: .unconditional, help: "PDF417: the greatest width in modules, quiet zone included.")
    var maxWidth: Double?

    @Option(parsing: .unconditional, help: "PDF417: the least height in modules (4 a row), quiet zone included.")
    var minHeight: Double?

    @Option(parsing: .unconditional, help: "PDF417: the greatest height in modules, quiet zone included.")
    var maxHeight: Double?

    @Option(parsing: .unconditional, help: "Pixels per module (1...100).")
    var scale: Int = 1

    @Option(name: [.customShort("o"), .customLong("out")], help: "The output image (.png, .tif).", completion: .file())
    var out: String

    @OptionGroup var overwriteOptions: OverwriteOptions

    /// PDF417 compaction modes as the command line spells them.
    enum Compaction: String, ExpressibleByArgument, CaseIterable {
        case auto, numeric, text, byte

        var mode: CodeWriter.PDF417Layout.Compaction {
            switch self {
            case .auto: .automatic
            case .numeric: .numeric
            case .text: .text
            case .byte: .byte
            }
        }
    }

    func validate() throws {
        guard (1...100).contains(scale) else { throw ValidationError("--scale is 1...100, not \(scale)") }
        if type != .aztec, layers != nil { throw ValidationError("--layers applies to Aztec codes") }
        let shape = [preferredAspectRatio, minWidth, maxWidth, minHeight, maxHeight]
        if type != .pdf417,
            columns != nil || rows != nil || compaction != .auto || alwaysSpecifyCompaction
                || shape.contains(where: { $0 != nil })
        {
            throw ValidationError(
                "--columns, --rows, --compaction, --always-specify-compaction, --preferred-aspect-ratio and the "
                    + "--min/--max sizes apply to PDF417 codes")
        }
        for case let value? in shape where !(value.isFinite && value > 0) {
            throw ValidationError("a PDF417 aspect ratio or size is a positive number, not \(value)")
        }
        if compact, type != .aztec, type != .pdf417 { throw ValidationError("--compact applies to Aztec and PDF417") }
    }

    func symbol() throws -> Image {
        let bytes = Array(message.utf8)
        let level = correctionLevel
        switch type {
        case .qr:
            let l = level.map { CodeWriter.QRCorrectionLevel(rawValue: $0.uppercased()) } ?? .medium
            guard let l else { throw ValidationError("a QR correction level is L, M, Q or H") }
            return try Image.qrCode(message: bytes, correctionLevel: l)
        case .aztec:
            let p = level.map { Double($0) } ?? 23
            guard let p else { throw ValidationError("an Aztec correction level is a percentage 5...95") }
            return try Image.aztecCode(message: bytes, correctionLevel: p, layers: layers ?? 0, compactStyle: compact)
        case .pdf417:
            let l = level.map { Int($0) } ?? 2
            guard let l else { throw ValidationError("a PDF417 correction level is 0...8") }
            return try Image.pdf417Code(
                message: bytes, correctionLevel: l,
                layout: CodeWriter.PDF417Layout(
                    columns: columns ?? 0, rows: rows ?? 0, compaction: compaction.mode, isCompact: compact),
                shape: Filters.PDF417BarcodeGenerator.Shape(
                    preferredAspectRatio: preferredAspectRatio ?? 0, minWidth: minWidth ?? 0, maxWidth: maxWidth ?? 0,
                    minHeight: minHeight ?? 0, maxHeight: maxHeight ?? 0),
                alwaysSpecifyCompaction: alwaysSpecifyCompaction)
        case .code128:
            guard level == nil else { throw ValidationError("Code 128 has no correction level") }
            return try Image.code128Barcode(message: message)
        }
    }

    func run() throws {
        let image: Image
        do {
            image = try symbol()
        } catch let error as CodeError {
            throw CLIError("\(out): \(error)")
        }
        let scaled =
            scale == 1
            ? image
            : image.transformed(by: AffineTransform(scaleX: Double(scale), y: Double(scale)), sampling: .nearest)
        try overwriteOptions.check(out)
        do {
            try RenderContext().write(scaled, to: URL(fileURLWithPath: out), pixelFormat: .gray8)
        } catch {
            throw CLIError(error, file: out)
        }
    }
}
