import Foundation
import LuxCodecs
import LuxPixels
import LuxScene
import LuxTestSupport
import Testing

@testable import LuxCapture

@Suite struct PhotographSceneTests {
    /// A 64×48 sRGB PNG: mid-grey (code 128) on the left, white (255) on the right.
    static func greyAndWhite(in folder: URL) throws -> URL {
        var buffer = PixelBuffer(width: 64, height: 48, format: .rgba8, colorSpace: .sRGB)
        buffer.withUnsafeMutablePlane { plane in
            for y in 0..<48 {
                let row = plane.row(y, as: UInt8.self)
                for x in 0..<64 {
                    let v: UInt8 = x < 32 ? 128 : 255
                    for c in 0..<3 { row[4 * x + c] = v }
                    row[4 * x + 3] = 255
                }
            }
        }
        let url = folder.appendingPathComponent("grey-white.png")
        try ImageFile.write(buffer, to: url)
        return url
    }

    @Test(
        "A photograph's colours are its reflectances (sRGB code 128 is 21.6 % grey) and its white shines 2^stops above")
    func reflectanceAndHighlights() throws {
        let folder = try ExternalTool.temporaryFolder("lux-photo-scene")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try Self.greyAndWhite(in: folder)
        for stops in [0.0, 3] {
            let scene = try Scene.photograph(contentsOf: url, highlightStops: stops)
            #expect(scene.layers.count == 1 && scene.layers[0].distance == 2)
            let truth = try scene.groundTruth(width: 64, colorSpace: .extendedLinearSRGB)
            // IEC 61966-2-1: code 128 → ((128/255 + 0.055)/1.055)^2.4 = 0.2158.
            let grey = truth.pixel(x: 12, y: 24)
            let white = truth.pixel(x: 52, y: 24)
            for c in 0..<3 {
                #expect(abs(grey[c] - 0.2158) < 0.004, "grey channel \(c): \(grey)")
                #expect(abs(white[c] - Float(exp2(stops))) < 0.02 * Float(exp2(stops)), "white channel \(c): \(white)")
            }
        }
    }

    @Test(
        "An iPhone portrait HEIC, reduced to 2048 × 1536, has its disparity map slice the scene between 1/4.383 m and 1/1.498 m (heif-info's d-max, d-min)"
    )
    func depthFromHEIC() throws {
        let scene = try Scene.photograph(contentsOf: try TestData.url("heic/iphone13pro_portrait_depth.heic"))
        #expect(scene.layers.count == 8)
        // The 4032 × 3024 HEIC is reduced on load to 2048 pixels wide, its 768 × 576 depth map stretched to match.
        #expect(try Self.textureSize(scene) == (2048, 1536))
        let distances = scene.layers.map(\.distance)
        #expect(distances == distances.sorted(by: >), "back to front: \(distances)")
        for d in distances { #expect(d > 1 / 4.383 - 0.001 && d < 1 / 1.498 + 0.001, "\(distances)") }
        // A normalised-disparity PNG given as depth=: white (255) is 0.5 m, code 128 is 0.5 × 255/128 m; a map of two
        // distances makes two layers, each at its own distance.
        let folder = try ExternalTool.temporaryFolder("lux-photo-depth")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try Self.greyAndWhite(in: folder)
        let sliced = try Scene.photograph(contentsOf: url, depth: url)
        let layers = sliced.layers.map(\.distance)
        #expect(layers.count == 2, "\(layers)")
        #expect(abs((layers.first ?? 0) - 0.5 * 255 / 128) < 1e-4 && abs((layers.last ?? 0) - 0.5) < 1e-4, "\(layers)")
    }

    /// The size of the texture a photograph scene's first layer samples.
    static func textureSize(_ scene: Scene) throws -> (width: Int, height: Int) {
        guard case .image(let image, _, _, _) = try #require(scene.layers.first?.shapes.first).fill else {
            Issue.record("the scene's first layer is not an image")
            return (0, 0)
        }
        return (image.width, image.height)
    }

    @Test(
        "A 4032 × 3024 JPEG is reduced on load to 2048 × 1536 (both sides × 2048/4032), or 640 × 480 when asked"
    )
    func largePhotographsAreReduced() throws {
        let url = try TestData.url("livephoto/iphone6s_livephoto_train.jpg")
        #expect(try Self.textureSize(try Scene.photograph(contentsOf: url)) == (2048, 1536))
        #expect(try Self.textureSize(try Scene.photograph(contentsOf: url, maximumDimension: 640)) == (640, 480))
    }

    @Test("A file that is not an image is refused with an error naming it")
    func unreadable() throws {
        let folder = try ExternalTool.temporaryFolder("lux-photo-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("notes.jpg")
        try Data("not a picture".utf8).write(to: url)
        #expect {
            try Scene.photograph(contentsOf: url)
        } throws: { error in
            guard case .unreadableFile(let path, _) = error as? SceneError else { return false }
            return path == url.path
        }
    }
}
