import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// An uncompressed 8-bit RGB TIFF written as an 8-bit RGB TIFF goes from its stored rows to the output's strips.
///
/// ``ImageStreamEncoder/appendRowsDirectly(from:)`` converts the rows by table where the colour spaces differ. Judged
/// by tificc's conversion (Little CMS), the input's samples as vips reads them, and tiffinfo.
@Suite struct TIFFStoredRowsTests {
    /// A photo crop of `width` × `height` written by vips (strips of a few rows) and rewritten by tiffcp as one strip
    /// of the whole image (as Pillow writes it).
    static func inputs(in dir: URL, width: Int, height: Int) throws -> [URL] {
        let crop = try TestImages.photoCrop(in: dir, width: width, height: height)
        let strips = dir.appendingPathComponent("vips-\(width).tif")
        let single = dir.appendingPathComponent("one-strip-\(width).tif")
        try CMYKJPEGTests.run("vips", ["tiffsave", crop.path, strips.path])
        try CMYKJPEGTests.run("tiffcp", ["-r", "\(height)", strips.path, single.path])
        return [strips, single]
    }

    /// Writes `input` as a TIFF of `space` through the stored rows (which must be taken) on `threads` threads.
    static func write(_ input: URL, space: ColorSpace, threads: Int, to url: URL) throws {
        let reader = try ImageRegionReader(url: input)
        #expect(reader.hasStoredRGB8Rows)
        let encoder = try ImageStreamEncoder(
            writingTo: url, width: reader.width, height: reader.height, pixelFormat: .rgba8, colorSpace: space,
            metadata: reader.metadata, options: EncodingOptions(alpha: .discard, threads: threads))
        try #require(try encoder.appendRowsDirectly(from: reader), "the stored rows were not taken")
        try encoder.finish()
    }

    /// vips's RGB samples of a TIFF.
    static func samples(_ url: URL) throws -> NetpbmImage {
        let ppm = url.path + ".ppm"
        try CMYKJPEGTests.run("vips", ["copy", url.path, ppm])
        return try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: ppm)))
    }

    @Test(
        "sRGB → Display P3 from the stored rows: within 1 level of tificc -t1 (mean ≤ 0.05), the same on 1 and 2 threads, P3 profile embedded, tiffinfo accepts it; odd widths pad the strips",
        .needs("vips", "tiffcp", "tificc", "tiffinfo", "djpeg", "convert"), arguments: [(1001, 777), (1000, 750)])
    func displayP3(_ size: (Int, Int)) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let profile = dir.appendingPathComponent("p3.icc")
        try Data(try ColorSpace.displayP3.iccProfile().data).write(to: profile)
        for input in try Self.inputs(in: dir, width: size.0, height: size.1) {
            let name = input.lastPathComponent
            let reference = dir.appendingPathComponent(name + ".tificc.tif")
            try CMYKJPEGTests.run("tificc", ["-t1", "-w8", "-o", profile.path, input.path, reference.path])
            let theirs = try Self.samples(reference)
            var outputs: [[UInt16]] = []
            for threads in [1, 2] {
                let out = dir.appendingPathComponent(name + ".\(threads).p3.tif")
                try Self.write(input, space: .displayP3, threads: threads, to: out)
                let info = try ExternalTool.capture("tiffinfo", ["-D", out.path])
                #expect(info.status == 0 && !info.errorText.contains("Error"), "\(name): \(info.errorText)")
                #expect(try ImageFile.info(url: out).iccProfileDescription == ColorSpace.displayP3.name, "\(name)")
                let ours = try Self.samples(out)
                try #require(
                    ours.width == size.0 && ours.height == size.1 && theirs.samples.count == ours.samples.count)
                let (most, mean) = absoluteDifferences(ours.samples, theirs.samples)
                #expect(most <= 1 && mean <= 0.05, "\(name), \(threads) threads: max \(most), mean \(mean)")
                outputs.append(ours.samples)
            }
            #expect(outputs[0] == outputs[1], "\(name): 1 and 2 threads differ")
        }
    }

    @Test(
        "an sRGB TIFF written as sRGB keeps its samples exactly, in a file and in memory",
        .needs("vips", "tiffcp", "djpeg", "convert"))
    func sameSpace() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for input in try Self.inputs(in: dir, width: 1001, height: 777) {
            let out = dir.appendingPathComponent(input.lastPathComponent + ".copy.tif")
            try Self.write(input, space: .sRGB, threads: 2, to: out)
            #expect(try Self.samples(out).samples == Self.samples(input).samples, "\(input.lastPathComponent)")

            let reader = try ImageRegionReader(url: input)
            let encoder = try ImageStreamEncoder(
                format: .tiff, width: reader.width, height: reader.height, pixelFormat: .rgba8, colorSpace: .sRGB,
                metadata: reader.metadata, options: EncodingOptions(alpha: .discard, threads: 2))
            try #require(try encoder.appendRowsDirectly(from: reader))
            let memory = dir.appendingPathComponent(input.lastPathComponent + ".memory.tif")
            try Data(try encoder.finish()).write(to: memory)
            #expect(try Self.samples(memory).samples == Self.samples(input).samples, "\(input.lastPathComponent)")
        }
    }

    @Test(
        "not taken for compressed inputs or outputs, alpha or 16-bit outputs, or after a band",
        .needs("vips", "tiffcp", "djpeg", "convert"))
    func declined() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.inputs(in: dir, width: 101, height: 77)[0]
        let lzw = dir.appendingPathComponent("lzw.tif")
        try CMYKJPEGTests.run("tiffcp", ["-c", "lzw", input.path, lzw.path])
        #expect(try !ImageRegionReader(url: lzw).hasStoredRGB8Rows)
        let reader = try ImageRegionReader(url: input)
        let cases: [(String, PixelFormat, EncodingOptions)] = [
            ("deflate", .rgba8, EncodingOptions(alpha: .discard, tiffCompression: .deflate)),
            ("alpha", .rgba8, EncodingOptions(alpha: .keep)), ("16-bit", .rgba16, EncodingOptions(alpha: .discard)),
        ]
        for (name, format, options) in cases {
            let encoder = try ImageStreamEncoder(
                format: .tiff, width: 101, height: 77, pixelFormat: format, colorSpace: .displayP3, options: options)
            #expect(try !encoder.appendRowsDirectly(from: reader), "\(name)")
        }
        let encoder = try ImageStreamEncoder(
            format: .tiff, width: 101, height: 77, pixelFormat: .rgba8, colorSpace: .displayP3,
            options: EncodingOptions(alpha: .discard))
        try encoder.append(try reader.read(x: 0, y: 0, width: 101, height: 7))
        #expect(try !encoder.appendRowsDirectly(from: reader), "after a band")
        #expect(try !encoder.appendRowsDirectly(from: ImageRegionReader(url: lzw)), "LZW input")
    }
}
