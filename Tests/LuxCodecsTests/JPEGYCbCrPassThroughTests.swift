import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// A JPEG re-encoded as a JPEG of its own colour space goes from libjpeg's raw Y′CbCr planes to the encoder's.
///
/// ``ImageStreamEncoder/appendRowsDirectly(from:)`` skips the conversion to RGB and back. Judged by djpeg's
/// decodes against the same file written through RGB rows (the normal path) and against the input, and by exiftool.
@Suite struct JPEGYCbCrPassThroughTests {
    /// The input's sampling (cjpeg's -sample), the output's, and the size: odd (partial blocks and MCUs at both
    /// edges) or whole MCUs.
    static let cases: [(String, ChromaSubsampling, (Int, Int))] = [
        ("2x2", .both, (1001, 777)), ("2x2", .both, (992, 752)), ("2x1", .horizontal, (1001, 777)),
        ("1x1", .none, (1001, 777)), ("1x1", .both, (1001, 777)), ("1x1", .horizontal, (1001, 777)),
    ]

    /// Writes a photo crop of `size` as a JPEG by cjpeg.
    static func input(in dir: URL, size: (Int, Int), _ arguments: [String]) throws -> URL {
        let crop = try TestImages.photoCrop(in: dir, width: size.0, height: size.1)
        let url = dir.appendingPathComponent("in-\(size.0)-\(arguments.joined()).jpg")
        let made = try ExternalTool.capture(
            "cjpeg", ["-quality", "92"] + arguments + ["-outfile", url.path, crop.path])
        try #require(made.status == 0, "cjpeg: \(made.errorText)")
        return url
    }

    /// Re-encodes `url` at quality 90, through the pass-through when `direct` (which must then be taken), else
    /// through the reader's RGB rows; returns the file's bytes.
    static func reencode(
        _ url: URL, direct: Bool, options: EncodingOptions, metadata: ImageMetadata? = nil
    ) throws -> [UInt8] {
        let reader = try ImageRegionReader(url: url)
        let encoder = try ImageStreamEncoder(
            format: .jpeg, width: reader.width, height: reader.height, pixelFormat: .rgba8,
            colorSpace: reader.colorSpace, metadata: metadata ?? reader.metadata, options: options)
        if direct {
            try #require(try encoder.appendRowsDirectly(from: reader), "the pass-through was not taken")
        } else {
            try encoder.append(try reader.read(x: 0, y: 0, width: reader.width, height: reader.height))
        }
        return try encoder.finish()
    }

    /// djpeg's RGB samples of `bytes`.
    static func decoded(_ bytes: [UInt8], in dir: URL) throws -> NetpbmImage {
        let file = dir.appendingPathComponent(UUID().uuidString + ".jpg")
        try Data(bytes).write(to: file)
        let r = try ExternalTool.capture("djpeg", ["-pnm", file.path])
        try #require(r.status == 0, "djpeg: \(r.errorText)")
        return try NetpbmImage(r.stdout)
    }

    @Test(
        "the pass-through's pixels (djpeg): no further from the input than the normal path's (0.01 dB; they measure 41–43 dB), ≥ 55 dB to the normal path's (56.8–62.3 measured), the output's sampling",
        .needs("cjpeg", "djpeg", "convert"), arguments: cases.indices)
    func matchesTheNormalPath(_ index: Int) throws {
        let (sample, target, size) = Self.cases[index]
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.input(in: dir, size: size, ["-sample", sample])
        let original = try Self.decoded([UInt8](try Data(contentsOf: url)), in: dir)
        // Two threads (decoding a slot ahead of the compression) for the straight copy and the downsampling.
        for threads in [0, 4].contains(index) ? [1, 2] : [1] {
            let options = EncodingOptions(quality: 0.9, chromaSubsampling: target, threads: threads)
            let direct = try Self.reencode(url, direct: true, options: options)
            let normal = try Self.reencode(url, direct: false, options: options)
            #expect(try JPEGHeader(bytes: direct).chromaSubsampling == target)
            let ours = try Self.decoded(direct, in: dir)
            let theirs = try Self.decoded(normal, in: dir)
            try #require(ours.width == size.0 && ours.height == size.1)
            let toInput = psnr(ours.samples, original.samples, peak: 255)
            let normalToInput = psnr(theirs.samples, original.samples, peak: 255)
            #expect(toInput >= normalToInput - 0.01, "\(sample) → \(target), \(threads) threads")
            #expect(psnr(ours.samples, theirs.samples, peak: 255) >= 55, "\(sample) → \(target), \(threads) threads")
        }
    }

    @Test(
        "the pass-through keeps the metadata the normal path keeps: exiftool reads the same Exif, GPS, XMP and ICC tags",
        .needs("cjpeg", "convert", "exiftool"))
    func keepsMetadata() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.input(in: dir, size: (1001, 777), ["-sample", "2x2"])
        var metadata = ImageMetadata()
        metadata.exif = try ImageFile.info(url: Fixtures.url(JPEGTests.livePhoto)).metadata.exif
        metadata.xmp = Array(
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Train</dc:title></rdf:Description></rdf:RDF></x:xmpmeta>"#
                .utf8)
        var tags: [[String: String]] = []
        for direct in [true, false] {
            let bytes = try Self.reencode(
                url, direct: direct, options: EncodingOptions(quality: 0.9), metadata: metadata)
            let file = dir.appendingPathComponent("out-\(direct).jpg")
            try Data(bytes).write(to: file)
            let r = try ExternalTool.capture(
                "exiftool",
                ["-json", "-G1", "-n", "-x", "File:all", "-x", "System:all", "-x", "ExifTool:all", file.path])
            let list = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]]
            tags.append(try #require(list?.first).filter { $0.key != "SourceFile" }.mapValues { "\($0)" })
        }
        #expect(tags[0]["IFD0:Make"] == "Apple" && tags[0]["GPS:GPSLatitude"] != nil)
        #expect(tags[0]["XMP-dc:Title"] == "Train")
        #expect(tags[0]["ICC_Profile:ProfileDescription"] != nil)
        #expect(tags[0] == tags[1])
    }

    @Test(
        "no pass-through (nothing written, the normal path then works) for a progressive file, RGB components, 4:2:0 to 4:4:4, an Exif thumbnail to reduce, an orientation to apply",
        .needs("cjpeg", "convert", "exiftool"))
    func notTaken() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let subsampled = try Self.input(in: dir, size: (1001, 777), ["-sample", "2x2"])
        let rotated = dir.appendingPathComponent("rotated.jpg")
        try FileManager.default.copyItem(at: subsampled, to: rotated)
        try ExternalTool.capture("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", rotated.path]).succeeded()
        var thumbnail = EncodingOptions(quality: 0.9)
        thumbnail.embedsThumbnail = true
        let cases: [(String, URL, EncodingOptions, DecodingOptions)] = [
            (
                "progressive", try Self.input(in: dir, size: (1001, 777), ["-progressive"]), .init(quality: 0.9),
                .default
            ),
            ("RGB components", try Self.input(in: dir, size: (1001, 777), ["-rgb"]), .init(quality: 0.9), .default),
            ("4:2:0 to 4:4:4", subsampled, .init(quality: 0.9, chromaSubsampling: .none), .default),
            ("thumbnail", subsampled, thumbnail, .default),
            ("orientation", rotated, .init(quality: 0.9), DecodingOptions(appliesOrientation: true)),
        ]
        for (name, url, options, decoding) in cases {
            let reader = try ImageRegionReader(url: url, options: decoding)
            let encoder = try ImageStreamEncoder(
                format: .jpeg, width: reader.width, height: reader.height, pixelFormat: .rgba8,
                colorSpace: reader.colorSpace, metadata: reader.metadata, options: options)
            #expect(try !encoder.appendRowsDirectly(from: reader), "\(name)")
            #expect(encoder.rowsWritten == 0, "\(name)")
            try encoder.append(try reader.read(x: 0, y: 0, width: reader.width, height: reader.height))
            #expect(try !encoder.finish().isEmpty, "\(name)")
        }
    }

    @Test(
        "a truncated JPEG: the pass-through throws CodecError.truncated (at the end of the data, on one thread or two)",
        .needs("cjpeg", "convert"))
    func truncated() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.input(in: dir, size: (1001, 777), ["-sample", "2x2"])
        let bytes = [UInt8](try Data(contentsOf: url))
        let cut = dir.appendingPathComponent("cut.jpg")
        try Data(bytes[..<(bytes.count * 3 / 5)]).write(to: cut)
        for threads in [1, 2] {
            #expect {
                _ = try Self.reencode(cut, direct: true, options: EncodingOptions(quality: 0.9, threads: threads))
            } throws: { error in
                guard case CodecError.truncated = error else { return false }
                return true
            }
        }
    }
}
