import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// The encoder converts RGB to Y′CbCr and downsamples itself (on another thread) and hands libjpeg raw samples; with
/// cjpeg as the oracle, the file from the quantisation tables on must be the same bytes as cjpeg's from the same pixels.
@Suite struct JPEGEncodingIdentityTests {
    /// The bytes from the first DQT marker to the end: tables, frame, Huffman tables and scans, without the APP
    /// segments (JFIF, ICC) that differ by design.
    static func body(_ jpeg: [UInt8]) -> ArraySlice<UInt8> {
        let dqt = (2..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDB } ?? 0
        return jpeg[dqt...]
    }

    static let settings: [(ChromaSubsampling, String, progressive: Bool)] = [
        (.both, "2x2", false), (.horizontal, "2x1", false), (.none, "1x1", false), (.both, "2x2", true),
    ]

    @Test(
        "photos of odd and even sizes encode to cjpeg's bytes, in one piece or in bands, on one thread or two",
        .needs("djpeg", "cjpeg", "convert"), arguments: settings.indices, [(1001, 777), (1000, 750)])
    func sameBytesAsCjpeg(_ index: Int, _ size: (Int, Int)) throws {
        let (subsampling, sample, progressive) = Self.settings[index]
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = try TestImages.photoCrop(in: dir, width: size.0, height: size.1)
        let ppm = try NetpbmImage(Data(contentsOf: src))
        var rgba = [UInt8](repeating: 255, count: ppm.width * ppm.height * 4)
        for i in 0..<(ppm.width * ppm.height) {
            for c in 0..<3 { rgba[4 * i + c] = UInt8(ppm.samples[3 * i + c]) }
        }
        let image = PixelBuffer(
            width: ppm.width, height: ppm.height, format: .rgba8, components: rgba, colorSpace: .sRGB)
        let theirs = dir.appendingPathComponent("cjpeg.jpg")
        let made = try ExternalTool.capture(
            "cjpeg",
            ["-quality", "90", "-optimize", "-sample", sample] + (progressive ? ["-progressive"] : [])
                + ["-outfile", theirs.path, src.path])
        try #require(made.status == 0, "cjpeg: \(made.errorText)")
        let reference = Self.body([UInt8](try Data(contentsOf: theirs)))
        for threads in [1, 2] {
            let options = EncodingOptions(
                quality: 0.9, chromaSubsampling: subsampling, isProgressive: progressive, threads: threads)
            let whole = try JPEG.encode(image, options: options)
            let same = Self.body(whole) == reference  // (a Bool: a failing comparison of two arrays prints both)
            #expect(same, "one piece, \(threads) threads")
            let encoder = try JPEGStreamEncoder(
                width: image.width, height: image.height, pixelFormat: .rgba8, colorSpace: .sRGB,
                metadata: ImageMetadata(), options: options)
            var y = 0
            for h in [37, 200, 5, 64, 100, 1].cycled(until: image.height) {
                try encoder.append(try image.view(x: 0, y: y, width: image.width, height: h))
                y += h
            }
            let streamed = try encoder.finish() == whole
            #expect(streamed, "bands, \(threads) threads")
        }
    }
}

extension Array where Element == Int {
    /// The heights repeated until they add up to `total` (the last one cut short).
    fileprivate func cycled(until total: Int) -> [Int] {
        var out: [Int] = []
        var sum = 0
        while sum < total {
            let h = Swift.min(self[out.count % count], total - sum)
            out.append(h)
            sum += h
        }
        return out
    }
}
