import Foundation
import Hummingbird
import HummingbirdTesting
import LuxCodecs
import LuxPixels
import LuxStudio
import LuxTestSupport
import Testing

/// The RAW developer's and the filter lab's routes.
@Suite struct EditorRouteTests {
    /// A capture folder holding the Canon 550D DNG and a uniform mid-grey (128) 400 × 300 JPEG.
    func makeStudio() throws -> (studio: Studio, folder: URL) {
        let folder = try ExternalTool.temporaryFolder("lux-studio-editors")
        try FileManager.default.copyItem(
            at: try TestData.url("raw/canon_eos550d_magiclantern_14bit.dng"),
            to: folder.appendingPathComponent("canon.dng"))
        let grey = try TestImages.jpeg(width: 400, height: 300) { _, _ in SIMD4(128, 128, 128, 255) }
        try grey.write(to: folder.appendingPathComponent("grey.jpg"))
        return (try Studio(configuration: StudioConfiguration(captureFolder: folder)), folder)
    }

    static func mean(_ jpeg: ByteBuffer) throws -> (mean: Double, width: Int, height: Int) {
        try TestImages.mean(ofJPEG: Array(jpeg.readableBytesView))
    }

    @Test("a RAW preview fits the asked size, +1 EV brightens it, and the export writes a full-size JPEG")
    func develop() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.router) { client in
            var means: [Double] = []
            for exposure in [0, 1] {
                try await client.execute(
                    uri: "/api/develop/0/canon.dng?size=256", method: .post,
                    body: ByteBuffer(string: #"{"exposure": \#(exposure)}"#)
                ) { response in
                    #expect(response.status == .ok)
                    let (mean, width, height) = try Self.mean(response.body)
                    #expect(max(width, height) <= 256 && max(width, height) >= 250)
                    means.append(mean)
                }
            }
            // Doubling the light raises every encoded value that is not clipped.
            #expect(means[1] > means[0] + 10, "means at 0 and +1 EV: \(means)")
            try await client.execute(uri: "/api/develop/0/canon.dng", method: .post, body: ByteBuffer(string: "[1,2")) {
                response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/develop/0/grey.jpg", method: .post, body: ByteBuffer(string: "{}")) {
                response in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(
                uri: "/api/export/0/canon.dng?format=jpeg", method: .post, body: ByteBuffer(string: "{}")
            ) {
                response in
                #expect(response.status == .ok)
            }
            let developed = try ImageFile.info(url: folder.appendingPathComponent("canon_developed.jpg"))
            #expect(developed.width > 1000)
        }
    }

    @Test(
        "the filter catalogue has generated controls; ColorInvert turns mid-grey 128 into 127 (255 − 128, as convert -negate)"
    )
    func filterLab() async throws {
        let (studio, folder) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.router) { client in
            try await client.execute(uri: "/api/filters", method: .get) { response in
                let filters = try #require(
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
                let sepia = try #require(filters.first { $0["name"] as? String == "SepiaTone" })
                let parameters = sepia["parameters"] as? [[String: Any]] ?? []
                #expect(
                    parameters.contains { $0["name"] as? String == "intensity" && $0["type"] as? String == "number" })
            }
            // ColorInvert inverts the encoded values (ColorEffectTests holds it to ImageMagick's -negate): 255 − 128.
            try await client.execute(
                uri: "/api/filter/0/grey.jpg?size=200", method: .post, body: ByteBuffer(string: "ColorInvert")
            ) { response in
                #expect(response.status == .ok)
                let (mean, width, height) = try Self.mean(response.body)
                #expect(width == 200 && height == 150)
                #expect(abs(mean - 127) < 3, "mean \(mean)")
            }
            try await client.execute(
                uri: "/api/filter/0/grey.jpg", method: .post, body: ByteBuffer(string: "NoSuchFilter")
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(decoding: response.body.readableBytesView, as: UTF8.self).contains("NoSuchFilter"))
            }
            try await client.execute(
                uri: "/api/filter-export/0/grey.jpg?format=png", method: .post, body: ByteBuffer(string: "ColorInvert")
            ) { response in
                #expect(response.status == .ok)
            }
            let exported = try ImageFile.read(url: folder.appendingPathComponent("grey_filtered.png"))
            #expect(exported.pixels.width == 400)
        }
    }
}
