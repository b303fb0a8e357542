import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// JPEGs read by the region reader are decoded top to bottom as regions ask for rows; the rows equal djpeg's.
@Suite struct JPEGRowWindowTests {
    /// A JPEG vips writes from the Live Photo still (no restart markers, so it is decoded by rows).
    static func makeJPEG(_ variant: String, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("\(variant).jpg")
        let still = try TestData.path("livephoto/iphone6s_livephoto_train.jpg")
        let small = dir.appendingPathComponent("small.v")
        let resize = try ExternalTool.capture("vips", ["resize", still, small.path, "0.25"])
        #expect(resize.status == 0, "\(resize.errorText)")
        var source = small.path
        if variant == "gray" {
            let gray = dir.appendingPathComponent("gray.v")
            _ = try ExternalTool.capture("vips", ["colourspace", small.path, gray.path, "b-w"])
            source = gray.path
        }
        let options = ["--Q", "85"] + (variant == "progressive" ? ["--interlace"] : [])
        let save = try ExternalTool.capture("vips", ["jpegsave", source, url.path] + options)
        #expect(save.status == 0, "\(save.errorText)")
        return url
    }

    /// djpeg's decode as (width, height, channels, samples).
    static func djpeg(_ url: URL) throws -> (Int, Int, Int, [UInt8]) {
        let out = url.deletingPathExtension().appendingPathExtension("pnm")
        let run = try ExternalTool.capture("djpeg", ["-pnm", "-outfile", out.path, url.path])
        #expect(run.status == 0, "\(run.errorText)")
        let bytes = [UInt8](try Data(contentsOf: out))
        // "P6\nW H\n255\n" (or P5 for gray), then the samples.
        var fields: [String] = []
        var i = 0
        while fields.count < 4 {
            while bytes[i] == 0x20 || bytes[i] == 0x0A { i += 1 }
            var field = ""
            while bytes[i] != 0x20 && bytes[i] != 0x0A {
                field.append(Character(UnicodeScalar(bytes[i])))
                i += 1
            }
            fields.append(field)
        }
        return (Int(fields[1])!, Int(fields[2])!, fields[0] == "P5" ? 1 : 3, Array(bytes[(i + 1)...]))
    }

    @Test(
        "regions read in strip order, backwards and at random equal djpeg's decode", .needs("vips"), .needs("djpeg"),
        arguments: ["baseline", "progressive", "gray"])
    func matchesDjpeg(_ variant: String) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makeJPEG(variant, in: dir)
        let (width, height, channels, samples) = try Self.djpeg(url)
        let reader = try ImageRegionReader(url: url)
        #expect(reader.width == width && reader.height == height)
        #expect(reader.pixelFormat == (channels == 1 ? .gray8 : .rgba8))
        try Self.expectRegions(of: reader, equal: samples.map { UInt16($0) * 257 }, channels: channels)
    }

    /// Reads strips of 100 rows overlapping by 20 (as a streaming blur asks), then back from the top (a restart),
    /// then regions anywhere, and expects each to hold `samples` (`channels` per pixel, row by row, 16-bit; an
    /// 8-bit region's values count × 257).
    static func expectRegions(of reader: ImageRegionReader, equal samples: [UInt16], channels: Int) throws {
        let (width, height) = (reader.width, reader.height)
        var regions: [(Int, Int, Int, Int)] = []
        for y in stride(from: 0, to: height, by: 100) {
            let top = max(0, y - 20)
            regions.append((0, top, width, min(height, y + 120) - top))
        }
        regions += ImageRegionReaderTests.regions(width: width, height: height)
        let step = reader.pixelFormat.channelCount
        for (x, y, w, h) in regions {
            let region = try reader.read(x: x, y: y, width: w, height: h)
            let ours =
                region.format.componentType == .uint16
                ? region.components(as: UInt16.self) : region.components(as: UInt8.self).map { UInt16($0) * 257 }
            var mismatches = 0
            for r in 0..<h {
                for c in 0..<w {
                    for k in 0..<channels
                    where ours[(r * w + c) * step + k] != samples[((y + r) * width + x + c) * channels + k] {
                        mismatches += 1
                    }
                }
            }
            #expect(mismatches == 0, "region \(x),\(y) \(w)×\(h): \(mismatches) samples differ")
        }
    }

    @Test("a JPEG cut short opens and fails with a typed error when the missing rows are read", .needs("vips"))
    func truncated() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makeJPEG("baseline", in: dir)
        var bytes = [UInt8](try Data(contentsOf: url))
        bytes.removeLast(bytes.count / 2)
        let cut = dir.appendingPathComponent("cut.jpg")
        try Data(bytes).write(to: cut)
        let reader = try ImageRegionReader(url: cut)
        _ = try reader.read(x: 0, y: 0, width: reader.width, height: 8)
        #expect(throws: CodecError.self) {
            _ = try reader.read(x: 0, y: reader.height - 8, width: reader.width, height: 8)
        }
    }
}
