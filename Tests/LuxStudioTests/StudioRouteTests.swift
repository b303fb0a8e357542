import Foundation
import Hummingbird
import HummingbirdTesting
import LuxCodecs
import LuxPixels
import LuxStudio
import LuxTestSupport
import Testing

@Suite struct StudioRouteTests {
    /// A studio over a fresh capture folder holding a 400 × 300 JPEG, with a secret file beside the folder.
    func makeStudio(token: String? = nil) throws -> (studio: Studio, base: URL) {
        let base = try ExternalTool.temporaryFolder("lux-studio-routes")
        let captures = base.appendingPathComponent("captures")
        try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true)
        let gradient = try TestImages.jpeg(width: 400, height: 300) { x, y in
            SIMD4(UInt8(x * 255 / 400), UInt8(y * 255 / 300), 128, 255)
        }
        try gradient.write(to: captures.appendingPathComponent("IMG_1.jpg"))
        try Data("secret".utf8).write(to: base.appendingPathComponent("secret.txt"))
        let studio = try Studio(configuration: StudioConfiguration(token: token, captureFolder: captures))
        return (studio, base)
    }

    static func text(_ body: ByteBuffer) -> String { String(decoding: body.readableBytesView, as: UTF8.self) }

    @Test("the page and its modules are served with their types; an unknown file is 404")
    func frontEnd() async throws {
        let (studio, base) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: base) }
        try await studio.application().test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(Self.text(response.body).contains("<title>Lux Studio</title>"))
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            }
            try await client.execute(uri: "/static/camera.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
            }
            try await client.execute(uri: "/static/nothing.js", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test(
        "gallery files outside the folders are refused",
        arguments: [
            "/api/file/0/../secret.txt", "/api/file/0/%2e%2e/secret.txt", "/api/file/0/..%2fsecret.txt",
            "/api/file/0/%2E%2E%2Fsecret.txt", "/api/file/1/IMG_1.jpg", "/api/thumbnail/0/%2e%2e/secret.txt",
            "/api/info/0/../../etc/passwd", "/static/..%2f..%2fPackage.swift",
        ])
    func traversal(uri: String) async throws {
        let (studio, base) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: base) }
        try await studio.application().test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .notFound)
                #expect(!Self.text(response.body).contains("secret\n") && Self.text(response.body) != "secret")
            }
        }
    }

    @Test("the gallery lists the capture; its file, thumbnail (fitting the box) and metadata are served")
    func gallery() async throws {
        let (studio, base) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: base) }
        try await studio.application().test(.router) { client in
            try await client.execute(uri: "/api/gallery", method: .get) { response in
                let items = try JSONDecoder().decode([GalleryItem].self, from: Data(response.body.readableBytesView))
                #expect(items.map(\.name) == ["0/IMG_1.jpg"])
                #expect(items.first?.kind == .photo)
            }
            try await client.execute(uri: "/api/file/0/IMG_1.jpg", method: .get) { response in
                #expect(response.headers[.contentType] == "image/jpeg")
                let onDisk = try Data(contentsOf: base.appendingPathComponent("captures/IMG_1.jpg"))
                #expect(Data(response.body.readableBytesView) == onDisk)
            }
            // 400 × 300 inside 100 × 100: the scale is 1/4, so 100 × 75.
            try await client.execute(uri: "/api/thumbnail/0/IMG_1.jpg?size=100", method: .get) { response in
                #expect(response.status == .ok)
                let file = try JPEG.decode(Array(response.body.readableBytesView))
                #expect(file.pixels.width == 100 && file.pixels.height == 75)
            }
            try await client.execute(uri: "/api/info/0/IMG_1.jpg", method: .get) { response in
                let info = try #require(
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
                #expect(info["width"] as? Int == 400)
                #expect(info["height"] as? Int == 300)
            }
        }
    }

    @Test("gallery files are served by byte range (a movie can be seeked): 206 with Content-Range, 416 past the end")
    func byteRanges() async throws {
        let (studio, base) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: base) }
        let onDisk = try Data(contentsOf: base.appendingPathComponent("captures/IMG_1.jpg"))
        let n = onDisk.count
        try await studio.application().test(.router) { client in
            for (range, expected) in [
                ("bytes=0-9", 0..<10), ("bytes=10-", 10..<n), ("bytes=-5", (n - 5)..<n), ("bytes=5-99999999", 5..<n),
            ] {
                try await client.execute(uri: "/api/file/0/IMG_1.jpg", method: .get, headers: [.range: range]) {
                    response in
                    #expect(response.status == .partialContent, "\(range)")
                    #expect(
                        response.headers[.contentRange]
                            == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(n)")
                    #expect(Data(response.body.readableBytesView) == onDisk[expected], "\(range)")
                }
            }
            try await client.execute(uri: "/api/file/0/IMG_1.jpg", method: .get, headers: [.range: "bytes=\(n)-"]) {
                response in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */\(n)")
            }
            // No range, or several (which the server may ignore): the whole file, saying ranges are accepted.
            for headers: HTTPFields in [[:], [.range: "bytes=0-1,4-5"]] {
                try await client.execute(uri: "/api/file/0/IMG_1.jpg", method: .get, headers: headers) { response in
                    #expect(response.status == .ok && response.headers[.acceptRanges] == "bytes")
                    #expect(Data(response.body.readableBytesView) == onDisk)
                }
            }
        }
    }

    @Test("with a token, requests without it are refused; the query parameter, a bearer header and the cookie pass")
    func token() async throws {
        let (studio, base) = try makeStudio(token: "0123456789abcdef")
        defer { try? FileManager.default.removeItem(at: base) }
        try await studio.application().test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/?token=0123456789abcdeX", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/api/gallery?token=0123456789abcdef", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.setCookie]?.contains("lux_studio_token=0123456789abcdef") == true)
            }
            try await client.execute(
                uri: "/api/gallery", method: .get, headers: [.authorization: "Bearer 0123456789abcdef"]
            ) {
                response in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/api/gallery", method: .get, headers: [.cookie: "lux_studio_token=0123456789abcdef"]
            ) {
                response in
                #expect(response.status == .ok)
            }
        }
    }
}
