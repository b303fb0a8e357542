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
}
