import Foundation
import Lux
import Testing

/// The snippet of Sources/LuxIO/Documentation.docc/LuxIO.md, on a gradient whose values are known by construction.
@Suite struct LuxIOSnippets {
    @Test func overview() throws {
        let folder = try temporaryFolder()
        let picture = gradient()  // 96 × 64: red = x / 95, green = y / 63, blue 0.4
        try ImageFile.write(
            picture, to: folder.appending(path: "gradient.tif"), options: EncodingOptions(sampleType: .uint16))

        // Read lazily, edit, and write strip by strip.
        let scan = try Image(contentsOf: folder.appending(path: "gradient.tif"))
        let context = RenderContext()
        try context.write(
            scan.cropped(to: Rect(x: 0, y: 0, width: 48, height: 32)), to: folder.appending(path: "crop.png"))

        // Any producer of bands streams into a file the same way.
        try ImageStreamEncoder.write(
            to: folder.appending(path: "bands.tif"), width: 96, height: 64, pixelFormat: .rgbaFloat, colorSpace: .sRGB
        ) { append in
            for y in stride(from: 0, to: 64, by: 16) {
                try append(try picture.view(x: 0, y: y, width: 96, height: 16))
            }
        }

        // The values are the gradient's by construction: red x / 95, green y / 63 (8-bit PNG: within one step).
        let crop = try ImageFile.read(url: folder.appending(path: "crop.png")).pixels.converted(to: .rgbaFloat)
        #expect(crop.width == 48 && crop.height == 32)
        for (x, y) in [(0, 0), (47, 0), (20, 31), (47, 31)] {
            let p = crop.pixel(x: x, y: y)
            #expect(abs(Double(p.x) - Double(x) / 95) <= 1.0 / 255 && abs(Double(p.y) - Double(y) / 63) <= 1.0 / 255)
        }
        let bands = try ImageFile.read(url: folder.appending(path: "bands.tif")).pixels
        #expect(bands.width == 96 && bands.height == 64)
        for (x, y) in [(0, 0), (95, 15), (31, 16), (95, 63)] {
            let p = bands.converted(to: .rgbaFloat).pixel(x: x, y: y)
            #expect(p.x == Float(x) / 95 && p.y == Float(y) / 63 && p.z == 0.4)
        }
    }
}
