import Foundation
import Hummingbird
import HummingbirdTesting
import LuxStudio
import LuxTestSupport
import Testing

/// `POST /api/upload/<name>`: files saved into the capture folder, checked by size and content, never replacing one.
@Suite struct UploadRouteTests {
    /// A studio over a fresh capture folder holding `IMG_1.jpg`, with an upload limit of `limit` bytes.
    func makeStudio(limit: Int = 1 << 20) throws -> (studio: Studio, folder: URL, original: Data) {
        let folder = try ExternalTool.temporaryFolder("lux-studio-upload")
        let original = try TestImages.jpeg(width: 64, height: 48) { x, y in SIMD4(UInt8(x * 4), UInt8(y * 5), 9, 255) }
        try original.write(to: folder.appendingPathComponent("IMG_1.jpg"))
        let configuration = StudioConfiguration(captureFolder: folder, maxUploadBytes: limit)
        return (try Studio(configuration: configuration), folder, original)
    }

    /// A 32 × 32 JPEG different from the folder's one.
    static func photo() throws -> Data {
        try TestImages.jpeg(width: 32, height: 32) { x, y in SIMD4(UInt8(x * 8), 200, UInt8(y * 8), 255) }
    }

    /// POSTs `body` as `name` (percent-encoded as a browser's `encodeURIComponent` does) and returns the status and
    /// the answer's JSON object.
    static func upload(_ studio: Studio, _ name: String, _ body: Data) async throws -> (Int, [String: String]) {
        let encoded = name.addingPercentEncoding(
            withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-_.")))
        let (status, answer) = try await studio.application().test(.router) { client in
            try await client.execute(
                uri: "/api/upload/\(encoded ?? name)", method: .post, body: ByteBuffer(bytes: body)
            ) { response in
                (response.status.code, Data(response.body.readableBytesView))
            }
        }
        return (status, (try? JSONSerialization.jsonObject(with: answer) as? [String: String]) ?? [:])
    }

    /// The folder's files, hidden ones included.
    static func listing(_ folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    @Test("a JPEG is saved byte for byte under its name, answered 201 with its gallery name, and listed")
    func good() async throws {
        let (studio, folder, _) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Self.photo()
        let (status, answer) = try await Self.upload(studio, "Holiday 2.jpg", photo)
        #expect(status == 201)
        #expect(answer["file"] == "0/Holiday 2.jpg")
        #expect(try Data(contentsOf: folder.appendingPathComponent("Holiday 2.jpg")) == photo)
        #expect(try Self.listing(folder) == ["IMG_1.jpg", "Holiday 2.jpg"])
        let names = try await studio.application().test(.router) { client in
            try await client.execute(uri: "/api/gallery", method: .get) { response in
                try JSONDecoder().decode([GalleryItem].self, from: Data(response.body.readableBytesView)).map(\.name)
            }
        }
        #expect(Set(names) == ["0/IMG_1.jpg", "0/Holiday 2.jpg"])
    }

    @Test("a taken name gets the first free name-N: nothing is replaced")
    func nameClash() async throws {
        let (studio, folder, original) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Self.photo()
        #expect(try await Self.upload(studio, "IMG_1.jpg", photo).1["file"] == "0/IMG_1-2.jpg")
        #expect(try await Self.upload(studio, "IMG_1.jpg", photo).1["file"] == "0/IMG_1-3.jpg")
        #expect(try Data(contentsOf: folder.appendingPathComponent("IMG_1.jpg")) == original)
        #expect(try Data(contentsOf: folder.appendingPathComponent("IMG_1-3.jpg")) == photo)
        #expect(try Self.listing(folder) == ["IMG_1.jpg", "IMG_1-2.jpg", "IMG_1-3.jpg"])
    }

    @Test("a file over the limit is refused with 413 and a JSON error; nothing is left in the folder")
    func tooBig() async throws {
        let (studio, folder, _) = try makeStudio(limit: 2048)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Noise compresses badly: far over 2 KiB.
        let big = try TestImages.jpeg(width: 128, height: 128) { x, y in
            let h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
            return SIMD4(
                UInt8(truncatingIfNeeded: h), UInt8(truncatingIfNeeded: h >> 8), UInt8(truncatingIfNeeded: h >> 16), 255
            )
        }
        #expect(big.count > 2048)
        let (status, answer) = try await Self.upload(studio, "big.jpg", big)
        #expect(status == 413)
        #expect(answer["error"] == "tooLarge")
        #expect(answer["message"]?.contains("big.jpg") == true && answer["message"]?.contains("2048") == true)
        #expect(try Self.listing(folder) == ["IMG_1.jpg"])
    }

    @Test(
        "a body streamed without Content-Length (chunked, as curl sends a file) is saved within the limit, refused over it",
        .needs("curl"))
    func chunked() async throws {
        let (studio, folder, _) = try makeStudio(limit: 4096)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = try Self.photo()
        let big = try TestImages.jpeg(width: 96, height: 96) { x, y in
            let h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
            return SIMD4(UInt8(truncatingIfNeeded: h), UInt8(truncatingIfNeeded: h >> 8), 40, 255)
        }
        #expect(small.count < 4096 && big.count > 4096, "\(small.count), \(big.count) bytes")
        let bodies = try ExternalTool.temporaryFolder("lux-studio-chunked")
        defer { try? FileManager.default.removeItem(at: bodies) }
        try small.write(to: bodies.appendingPathComponent("small.jpg"))
        try big.write(to: bodies.appendingPathComponent("big.jpg"))
        try await studio.application().test(.live) { client in
            let port = try #require(client.port)
            /// curl's answer to a chunked POST of `file` as `name`: the status and the JSON object.
            func post(_ file: String, as name: String) throws -> (Int, [String: String]) {
                let (_, output) = try ExternalTool.run(
                    "curl",
                    [
                        "-sS", "-H", "Transfer-Encoding: chunked", "-H", "Expect:", "--data-binary",
                        "@" + bodies.appendingPathComponent(file).path, "-w", "\n%{http_code}",
                        "http://localhost:\(port)/api/upload/\(name)",
                    ])
                let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
                let answer = lines.dropLast().joined(separator: "\n")
                let object = (try? JSONSerialization.jsonObject(with: Data(answer.utf8))) as? [String: String]
                return (Int(lines.last ?? "") ?? 0, object ?? [:])
            }
            let (saved, savedAnswer) = try post("small.jpg", as: "streamed.jpg")
            #expect(saved == 201 && savedAnswer["file"] == "0/streamed.jpg", "\(saved) \(savedAnswer)")
            let (refused, refusedAnswer) = try post("big.jpg", as: "too-big.jpg")
            #expect(refused == 413 && refusedAnswer["error"] == "tooLarge", "\(refused) \(refusedAnswer)")
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("streamed.jpg")) == small)
        #expect(try Self.listing(folder) == ["IMG_1.jpg", "streamed.jpg"])
    }

    @Test(
        "content that is not what the name says is refused with 415, naming the file; nothing is left",
        arguments: [
            ("notes.jpg", Data("just some text, not a photo\n".utf8)),
            ("clip.mov", Data("not a movie either".utf8)),
            ("photo.png", nil),  // a real JPEG named .png
        ])
    func notAnImage(name: String, body: Data?) async throws {
        let (studio, folder, _) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, answer) = try await Self.upload(studio, name, try body ?? Self.photo())
        #expect(status == 415)
        #expect(answer["error"] == "unsupportedType")
        #expect(answer["message"]?.hasPrefix(name + ":") == true, "\(answer)")
        #expect(try Self.listing(folder) == ["IMG_1.jpg"])
    }

    @Test(
        "names that are not one visible image file name are refused with 400",
        arguments: ["../escape.jpg", "sub/dir.jpg", ".hidden.jpg", "notes.txt", "no-extension"])
    func badName(name: String) async throws {
        let (studio, folder, _) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, answer) = try await Self.upload(studio, name, try Self.photo())
        #expect(status == 400)
        #expect(answer["error"] == "invalidName")
        #expect(try Self.listing(folder) == ["IMG_1.jpg"])
        #expect(!FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().path + "/escape.jpg"))
    }
}
