import Foundation
import LuxCodecs
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// The barcode generators draw one pixel per module with their quiet zones; zbarimg decodes QR and Code 128 back to
/// the payload, and the symbols have the sizes qrencode and zint give the same messages.
@Suite struct BarcodeGeneratorTests {
    /// `image` scaled `scale` times (nearest), as 8-bit RGBA.
    static func pixels(_ image: Image, scale: Int = 4) throws -> PixelBuffer {
        let big = image.transformed(by: AffineTransform(scaleX: Double(scale), y: Double(scale)), sampling: .nearest)
        return try RenderContext().createBuffer(big, format: .rgba8, colorSpace: .sRGB)
    }

    /// The bytes zbarimg reads from `buffer`.
    static func zbar(_ buffer: PixelBuffer) throws -> [UInt8] {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try NetPBM.writePPM(buffer, to: dir + "/code.ppm")
        let r = try ExternalTool.run("zbarimg", ["--quiet", "--raw", "-Sbinary", dir + "/code.ppm"])
        try #require(r.status == 0, "zbarimg found no code")
        return Array(r.output)
    }

    @Test(
        "QR codes decode to their payload with zbarimg at every level, with a one-module quiet zone",
        .needs("zbarimg"), .needs("qrencode"), arguments: CodeWriter.QRCorrectionLevel.allCases)
    func qr(level: CodeWriter.QRCorrectionLevel) throws {
        for payload in [Array("Lux".utf8), Array(0...255), Array(String(repeating: "long text ", count: 60).utf8)] {
            let image = try Image.qrCode(message: payload, correctionLevel: level)
            #expect(try Self.zbar(Self.pixels(image)) == payload)
            // qrencode's symbol for the same bytes and level, without margin, is two modules narrower.
            if payload.count < 100 {
                let text = String(decoding: payload, as: UTF8.self)
                guard text.utf8.elementsEqual(payload) else { continue }
                let dir = try ExternalTool.temporaryDirectory()
                defer { try? FileManager.default.removeItem(atPath: dir) }
                let r = try ExternalTool.run(
                    "qrencode",
                    ["-8", "-l", level.rawValue, "-s", "1", "-m", "0", "-t", "PNG", "-o", dir + "/q.png", text])
                try #require(r.status == 0)
                let reference = try ImageFile.read(url: URL(fileURLWithPath: dir + "/q.png")).pixels
                #expect(image.extent == Rect(x: 0, y: 0, width: reference.width + 2, height: reference.height + 2))
            }
        }
    }

    @Test("the QR filter by name takes text; a message too long gives an empty image, the typed call an error")
    func qrByName() throws {
        let image = try FilterRegistry.builtIn.apply(
            "CIQRCodeGenerator", to: nil, parameters: ["inputMessage": "by name", "inputCorrectionLevel": "H"])
        #expect(try Self.zbar(Self.pixels(image)) == Array("by name".utf8))
        #expect(Filters.QRCodeGenerator { $0.message = Array(repeating: 65, count: 5000) }.outputImage.extent.isEmpty)
        #expect(throws: CodeError.self) { try Image.qrCode(message: Array(repeating: 65, count: 5000)) }
    }

    @Test(
        "Code 128 decodes with zbarimg; extent is modules + 2 × quietSpace by barcodeHeight", .needs("zbarimg"),
        arguments: ["LUX-0042", "Code 128 / Lux 2026", "1234567890"])
    func code128(text: String) throws {
        let image = try Image.code128Barcode(message: text, quietSpace: 10, barcodeHeight: 40)
        let modules = try CodeWriter(symbology: .code128).matrix(for: Array(text.utf8)).width
        #expect(image.extent == Rect(x: 0, y: 0, width: Double(modules + 20), height: 40))
        #expect(try Self.zbar(Self.pixels(image, scale: 2)) == Array(text.utf8))
        #expect(throws: CodeError.self) { try Image.code128Barcode(message: "é") }
    }

    @Test(
        "Aztec and PDF417 read back, Aztec as large as zint's symbol plus the margin", .needs("zint"),
        arguments: ["Lux writes Aztec", "https://example.com/a/longer/payload?x=1"])
    func aztecAndPDF417(text: String) throws {
        let aztec = try Image.aztecCode(message: Array(text.utf8))
        let dump = try ExternalTool.run("zint", ["-b", "92", "-d", text, "--dump"])
        let rows = String(decoding: dump.output, as: UTF8.self).split(separator: "\n").count
        #expect(aztec.extent.width == Double(rows + 2))
        let pdf = try Image.pdf417Code(message: Array(text.utf8), correctionLevel: 4)
        for (image, symbology) in [(aztec, Symbology.aztec), (pdf, .pdf417)] {
            let codes = try CodeReader(symbologies: [symbology]).codes(in: Self.pixels(image, scale: 3))
            #expect(codes.map(\.stringValue) == [text], "\(symbology)")
        }
        let pdfCodes = try CodeReader(symbologies: [.pdf417]).codes(in: Self.pixels(pdf, scale: 3))
        #expect(pdfCodes.first?.errorCorrectionLevel == "4")
    }
}
