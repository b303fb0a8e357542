import Foundation
import LuxCodecs
import LuxPixels
import LuxTestSupport
import Testing

/// CodeWriter's symbols decode to their payload with zbarimg (QR, Code 128), and CodeReader reads codes made by
/// qrencode and zint.
@Suite struct CodeTests {
    /// A symbol drawn black on white, `scale` pixels per module, with `quiet` modules of white around it.
    static func render(_ m: CodeMatrix, scale: Int = 4, quiet: Int = 4) -> PixelBuffer {
        let w = (m.width + 2 * quiet) * scale
        let h = (m.height + 2 * quiet) * scale
        var gray = [UInt8](repeating: 255, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let mx = x / scale - quiet
                let my = y / scale - quiet
                if mx >= 0 && mx < m.width && my >= 0 && my < m.height && m[mx, my] { gray[y * w + x] = 0 }
            }
        }
        return PixelBuffer(width: w, height: h, format: .gray8, components: gray, colorSpace: .sRGB)
    }

    /// `pieces` pasted on a white canvas of `width × height` at their offsets (gray8).
    static func canvas(width: Int, height: Int, _ pieces: [(PixelBuffer, x: Int, y: Int)]) -> PixelBuffer {
        var gray = [UInt8](repeating: 255, count: width * height)
        for (piece, ox, oy) in pieces {
            let p = piece.converted(to: .gray8).components(as: UInt8.self)
            for y in 0..<piece.height {
                for x in 0..<piece.width { gray[(y + oy) * width + x + ox] = p[y * piece.width + x] }
            }
        }
        return PixelBuffer(width: width, height: height, format: .gray8, components: gray, colorSpace: .sRGB)
    }

    /// The bytes zbarimg reads from `buffer` (`-Sbinary`: the payload as it is, no character-set guessing).
    static func zbar(_ buffer: PixelBuffer) throws -> [UInt8] {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/code.ppm"
        try NetPBM.writePPM(buffer.converted(to: .rgba8), to: path)
        let r = try ExternalTool.run("zbarimg", ["--quiet", "--raw", "-Sbinary", path])
        try #require(r.status == 0, "zbarimg found no code")
        return Array(r.output)
    }

    /// A code made by a tool, decoded by LuxCodecs.
    static func toolImage(_ tool: String, _ arguments: [String]) throws -> PixelBuffer {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/code.png"
        let r = try ExternalTool.run(tool, arguments + ["-o", path])
        try #require(r.status == 0, "\(tool) failed")
        return try ImageFile.read(url: URL(fileURLWithPath: path)).pixels.converted(to: .rgba8)
    }

    /// Payloads by name: short text, a URL, UTF-8 beyond ASCII, every byte value, and long text (900 bytes).
    static let payloads: [String: [UInt8]] = [
        "short": Array("Lux".utf8),
        "url": Array("https://example.com/lux?capture=1&scene=codes".utf8),
        "utf8": Array("héllo wörld, ünïcode 🌍".utf8),
        "binary": Array(0...255),
        "long": Array(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 20).utf8),
    ]

    @Test(
        "QR symbols of every payload and level decode to the payload with zbarimg", .needs("zbarimg"),
        arguments: payloads.keys.sorted(), CodeWriter.QRCorrectionLevel.allCases)
    func qrZbar(payload name: String, level: CodeWriter.QRCorrectionLevel) throws {
        let payload = try #require(Self.payloads[name])
        let m = try CodeWriter(symbology: .qr, errorCorrection: .qr(level)).matrix(for: payload)
        #expect(m.width == m.height && (m.width - 17) % 4 == 0, "a QR symbol is 17 + 4·version modules")
        #expect(try Self.zbar(Self.render(m)) == payload)
    }

    @Test(
        "QR symbols have the size qrencode gives the same bytes and level", .needs("qrencode"),
        arguments: CodeWriter.QRCorrectionLevel.allCases)
    func qrSize(level: CodeWriter.QRCorrectionLevel) throws {
        for name in ["short", "url", "utf8"] {
            let payload = try #require(Self.payloads[name])
            let m = try CodeWriter(symbology: .qr, errorCorrection: .qr(level)).matrix(for: payload)
            let text = String(decoding: payload, as: UTF8.self)
            let reference = try Self.toolImage("qrencode", ["-8", "-l", level.rawValue, "-s", "1", "-m", "0", text])
            #expect(m.width == reference.width, "\(text) at \(level)")
        }
    }

    @Test(
        "Code 128 symbols decode to the payload with zbarimg", .needs("zbarimg"),
        arguments: ["Lux", "0123456789012345", "Lux-2025 / code 128 with (symbols) & digits 42", "a"])
    func code128Zbar(text: String) throws {
        let m = try CodeWriter(symbology: .code128).matrix(for: Array(text.utf8))
        #expect(m.height == 1)
        let tall = CodeMatrix(
            width: m.width, height: 20, modules: Array(repeating: m.modules, count: 20).flatMap { $0 })
        #expect(try Self.zbar(Self.render(tall, scale: 2, quiet: 10)) == Array(text.utf8))
    }

    @Test(
        "Aztec, Data Matrix and PDF417 symbols have the size zint gives, and read back", .needs("zint"),
        arguments: [(Symbology.aztec, "92"), (.dataMatrix, "71"), (.pdf417, "55")])
    func twoDimensional(symbology: Symbology, zintType: String) throws {
        let text = "Lux writes codes"
        let m = try CodeWriter(symbology: symbology).matrix(for: Array(text.utf8))
        let dump = try ExternalTool.run("zint", ["-b", zintType, "-d", text, "--dump"])
        let rows = String(decoding: dump.output, as: UTF8.self).split(separator: "\n")
        if symbology != .pdf417 {
            // zint dumps one hex row per module row; PDF417 rows differ in height between encoders.
            #expect(m.height == rows.count, "\(symbology)")
        }
        let read = try CodeReader(symbologies: [symbology]).codes(in: Self.render(m))
        #expect(read.map(\.stringValue) == [text])
    }

    @Test("messages that do not fit are typed errors naming the symbology")
    func errors() {
        #expect(throws: CodeError.self) { try CodeWriter(symbology: .ean13).matrix(for: Array("not digits".utf8)) }
        #expect(throws: CodeError.self) {
            try CodeWriter(symbology: .qr).matrix(for: Array(repeating: 65, count: 8000))
        }
        #expect(throws: CodeError.self) { try CodeWriter(symbology: .itf14).matrix(for: Array("12345678901231".utf8)) }
        #expect(throws: CodeError.self) {
            try CodeWriter(symbology: .qr, errorCorrection: .pdf417(3)).matrix(for: Array("x".utf8))
        }
        #expect(throws: CodeError.self) {
            try CodeWriter(symbology: .aztec, errorCorrection: .aztecPercent(99)).matrix(for: Array("x".utf8))
        }
    }

    @Test(
        "CodeReader reads qrencode's QR codes at every level, and reports the level", .needs("qrencode"),
        arguments: CodeWriter.QRCorrectionLevel.allCases)
    func readQR(level: CodeWriter.QRCorrectionLevel) throws {
        let image = try Self.toolImage("qrencode", ["-l", level.rawValue, "-s", "4", "https://example.com/Lux"])
        let codes = try CodeReader().codes(in: image)
        #expect(codes.count == 1)
        #expect(codes.first?.symbology == .qr && codes.first?.stringValue == "https://example.com/Lux")
        #expect(codes.first?.errorCorrectionLevel == level.rawValue)
        // The symbol fills the image but for qrencode's 4-module margin, 4 pixels a module.
        let b = try #require(codes.first?.bounds)
        #expect(abs(b.minX - 16) <= 2 && abs(b.maxX - Double(image.width - 16)) <= 4, "\(b)")
    }

    static let zintCodes: [(String, String, Symbology, String)] = [
        ("92", "Aztec from zint", .aztec, "Aztec from zint"),
        ("71", "Data Matrix from zint", .dataMatrix, "Data Matrix from zint"),
        ("55", "PDF417 from zint", .pdf417, "PDF417 from zint"),
        ("20", "Code128-zint", .code128, "Code128-zint"),
        ("89", "1234567890123", .itf14, "12345678901231"),
        ("3", "12345678", .interleaved2of5, "12345678"),
        ("13", "590123412345", .ean13, "5901234123457"),
        ("8", "LUX-39", .code39, "LUX-39"),
    ]

    @Test(
        "CodeReader reads zint's codes (ITF-14 with its check digit, EAN-13 too)", .needs("zint"), arguments: zintCodes)
    func readZint(type: String, data: String, symbology: Symbology, expected: String) throws {
        let image = try Self.toolImage("zint", ["-b", type, "-d", data, "--scale=2", "--whitesp=4", "--vwhitesp=4"])
        let codes = try CodeReader().codes(in: image)
        #expect(codes.map(\.symbology) == [symbology])
        #expect(codes.first?.stringValue == expected)
        // Read upside down too (tryHarder rotates).
        let gray = image.converted(to: .gray8)
        let turned = PixelBuffer(
            width: gray.width, height: gray.height, format: .gray8,
            components: Array(gray.components(as: UInt8.self).reversed()), colorSpace: .sRGB)
        #expect(try CodeReader().codes(in: turned).first?.stringValue == expected)
    }

    @Test(
        "ITF-14 reads as Interleaved 2 of 5 when only that is asked for; unasked symbologies are not reported",
        .needs("zint"))
    func symbologyFilter() throws {
        let image = try Self.toolImage("zint", ["-b", "89", "-d", "1234567890123", "--scale=2"])
        #expect(try CodeReader(symbologies: [.interleaved2of5]).codes(in: image).map(\.symbology) == [.interleaved2of5])
        #expect(try CodeReader(symbologies: [.qr]).codes(in: image).isEmpty)
    }

    @Test("several codes in one image are all found, with bounds where they were drawn")
    func several() throws {
        let a = try CodeWriter(symbology: .qr).matrix(for: Array("first".utf8))
        let b = try CodeWriter(symbology: .dataMatrix).matrix(for: Array("second".utf8))
        let ra = Self.render(a)
        let rb = Self.render(b)
        let canvas = Self.canvas(
            width: ra.width + rb.width + 40, height: max(ra.height, rb.height) + 20,
            [(ra, x: 10, y: 10), (rb, x: ra.width + 30, y: 10)])
        let codes = try CodeReader().codes(in: canvas).sorted { $0.bounds.minX < $1.bounds.minX }
        #expect(codes.map(\.stringValue) == ["first", "second"])
        #expect(codes.map(\.symbology) == [.qr, .dataMatrix])
        // The QR symbol starts after 10 pixels of offset and 4 modules (16 pixels) of quiet zone.
        #expect(abs((codes.first?.bounds.minX ?? 0) - 26) <= 2)
    }

    @Test(
        "Aztec codes away from the centre are found (zint's symbols in two corners and beside a QR code)",
        .needs("zint"))
    func aztecOffCentre() throws {
        let left = try Self.toolImage("zint", ["-b", "92", "-d", "Aztec top left", "--scale=3", "--whitesp=2"])
        let right = try Self.toolImage("zint", ["-b", "92", "-d", "Aztec bottom right", "--scale=3", "--whitesp=2"])
        let qr = Self.render(try CodeWriter(symbology: .qr).matrix(for: Array("centre".utf8)))
        let w = 960
        let h = 720
        let image = Self.canvas(
            width: w, height: h,
            [
                (left, x: 40, y: 30), (right, x: w - right.width - 50, y: h - right.height - 40),
                (qr, x: (w - qr.width) / 2, y: (h - qr.height) / 2),
            ])
        let codes = try CodeReader().codes(in: image)
        let aztec = codes.filter { $0.symbology == .aztec }.sorted { $0.bounds.minX < $1.bounds.minX }
        #expect(aztec.map(\.stringValue) == ["Aztec top left", "Aztec bottom right"], "\(codes)")
        #expect(codes.contains { $0.symbology == .qr && $0.stringValue == "centre" })
        // Each inside the image it was pasted from.
        if aztec.count == 2 {
            let pasted = [
                (x: 40, y: 30, piece: left), (x: w - right.width - 50, y: h - right.height - 40, piece: right),
            ]
            for (code, p) in zip(aztec, pasted) {
                let b = code.bounds
                #expect(
                    b.minX >= Double(p.x) && b.minY >= Double(p.y) && b.maxX <= Double(p.x + p.piece.width)
                        && b.maxY <= Double(p.y + p.piece.height) && b.width > Double(p.piece.width) / 2,
                    "\(b) from \(p.x), \(p.y), \(p.piece.width) × \(p.piece.height)")
            }
        }
        // Found once each, however many windows hold them.
        #expect(codes.count == 3)
    }

    @Test("an image without codes gives none")
    func empty() throws {
        let blank = PixelBuffer(
            width: 64, height: 64, format: .gray8, components: [UInt8](repeating: 204, count: 64 * 64))
        #expect(try CodeReader().codes(in: blank).isEmpty)
    }
}
