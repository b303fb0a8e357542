import Foundation
import LuxTestSupport
import Testing

/// `lux codes generate` writes symbols zbarimg decodes; `lux codes detect` reads codes qrencode and zint made.
@Suite struct CodesCommandTests {
    @Test("generate writes a QR code zbarimg reads, scaled; refuses to overwrite", .needsLux, .needs("zbarimg"))
    func generate() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/qr.png"
        let r = try LuxExecutable.run(
            lux, ["codes", "generate", "qr", "https://example.com/lux", "-o", out, "--scale", "4"])
        #expect(r.status == 0, "\(r.errorText)")
        let z = try ExternalTool.run("zbarimg", ["--quiet", "--raw", out])
        #expect(String(decoding: z.output, as: UTF8.self) == "https://example.com/lux\n")
        let again = try LuxExecutable.run(lux, ["codes", "generate", "qr", "x", "-o", out])
        #expect(again.status != 0)
        let bad = try LuxExecutable.run(lux, ["codes", "generate", "code128", "é", "-o", dir + "/c.png"])
        #expect(bad.status != 0 && bad.errorText.contains("Code 128"))
    }

    @Test(
        "detect prints each code of qrencode's and zint's images; --json has symbology, text and corners",
        .needsLux, .needs("qrencode"), .needs("zint"))
    func detect() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let qr = dir + "/qr.png"
        let dm = dir + "/dm.png"
        #expect(try ExternalTool.run("qrencode", ["-s", "4", "-o", qr, "hello from qrencode"]).status == 0)
        #expect(
            try ExternalTool.run(
                "zint", ["-b", "71", "-d", "Data Matrix", "--scale=3", "--whitesp=2", "--vwhitesp=2", "-o", dm]
            ).status == 0)
        let r = try LuxExecutable.run(lux, ["codes", "detect", qr, dm])
        #expect(r.status == 0, "\(r.errorText)")
        let lines = r.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("\(qr): qr ") == true && lines.first?.hasSuffix(" hello from qrencode") == true)
        #expect(lines.last?.hasPrefix("\(dm): dataMatrix ") == true && lines.last?.hasSuffix(" Data Matrix") == true)

        let j = try LuxExecutable.run(lux, ["codes", "detect", qr, "--json", "--types", "qr"])
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(j.text.utf8)) as? [[String: Any]])
        let code = try #require((reports.first?["codes"] as? [[String: Any]])?.first)
        #expect(code["symbology"] as? String == "qr" && code["stringValue"] as? String == "hello from qrencode")
        #expect((code["corners"] as? [Any])?.count == 4)
        #expect(try LuxExecutable.run(lux, ["codes", "detect", dm, "--types", "qr"]).text.isEmpty)
        #expect(try LuxExecutable.run(lux, ["codes", "detect", dir + "/missing.png"]).status != 0)
    }

    @Test(
        "generate takes Aztec's layers and compact style and PDF417's layout; the symbols have the standards' sizes",
        .needsLux, .needs("vipsheader"))
    func generateLayouts() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Size in pixels at scale 1, quiet zone included: a compact 3-layer Aztec symbol is 11 + 4·3 modules square;
        // a full 2-layer one 23; PDF417 of 4 data columns 17·4 + 69 modules wide (17·4 + 35 compact), 8 rows 4·8 tall.
        let cases: [([String], Int, Int)] = [
            (["aztec", "Lux", "--layers", "3", "--compact"], 25, 25),
            (["aztec", "Lux", "--layers", "2"], 25, 25),
            (["pdf417", "Lux", "--columns", "4", "--rows", "8"], 139, 34),
            (["pdf417", "Lux", "--columns", "4", "--rows", "8", "--compact", "--compaction", "byte"], 105, 34),
        ]
        for (i, (arguments, width, height)) in cases.enumerated() {
            let out = dir + "/\(i).png"
            let r = try LuxExecutable.run(lux, ["codes", "generate"] + arguments + ["-o", out])
            #expect(r.status == 0, "\(arguments): \(r.errorText)")
            let w = try ExternalTool.run("vipsheader", ["-f", "width", out])
            let h = try ExternalTool.run("vipsheader", ["-f", "height", out])
            #expect(String(decoding: w.output, as: UTF8.self) == "\(width)\n", "\(arguments)")
            #expect(String(decoding: h.output, as: UTF8.self) == "\(height)\n", "\(arguments)")
        }
        let wrong = try LuxExecutable.run(lux, ["codes", "generate", "qr", "x", "--layers", "2", "-o", dir + "/q.png"])
        #expect(wrong.status != 0 && wrong.errorText.contains("--layers"))
        let tooMany = try LuxExecutable.run(
            lux, ["codes", "generate", "aztec", "x", "--layers", "5", "--compact", "-o", dir + "/a.png"])
        #expect(tooMany.status != 0 && tooMany.errorText.contains("layers"))
    }

    @Test(
        "generate shapes PDF417 by --preferred-aspect-ratio and the size bounds; each symbol reads back",
        .needsLux, .needs("vipsheader"))
    func generatePDF417Shape() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = "Lux shapes a PDF417 symbol"
        let cases: [([String], (Double, Double) -> Bool)] = [
            (["--preferred-aspect-ratio", "1"], { w, h in w / h < 1.5 }),
            (["--preferred-aspect-ratio", "8"], { w, h in w / h > 5 }),
            (["--min-width", "300"], { w, _ in w >= 300 }),
            (["--max-height", "30", "--always-specify-compaction"], { _, h in h <= 30 }),
        ]
        for (i, (options, fits)) in cases.enumerated() {
            let out = dir + "/\(i).png"
            let r = try LuxExecutable.run(lux, ["codes", "generate", "pdf417", text, "-o", out] + options)
            #expect(r.status == 0, "\(options): \(r.errorText)")
            let w = try ExternalTool.run("vipsheader", ["-f", "width", out])
            let h = try ExternalTool.run("vipsheader", ["-f", "height", out])
            let size = [w, h].map {
                Double(String(decoding: $0.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            }
            #expect(fits(size[0], size[1]), "\(options): \(size)")
            let read = try LuxExecutable.run(lux, ["codes", "detect", out])
            #expect(read.text.hasSuffix(" \(text)\n"), "\(options): \(read.text)")
        }
        let none = try LuxExecutable.run(
            lux,
            ["codes", "generate", "pdf417", text, "--max-width", "100", "--max-height", "20", "-o", dir + "/n.png"])
        #expect(none.status != 0 && none.errorText.contains("fits"))
        let qr = try LuxExecutable.run(
            lux, ["codes", "generate", "qr", "x", "--min-width", "50", "-o", dir + "/q.png"])
        #expect(qr.status != 0 && qr.errorText.contains("PDF417"))
    }
}
