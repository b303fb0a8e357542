import Foundation
import Testing

@testable import LuxCodecs

/// Inputs the fuzzers in `Fuzz/` found crashing, hanging or over-allocating, minimised, each with the typed
/// error the fixed parser now reports. The files are named `HARNESS-what.ext` and run through the same calls
/// as the harness (`Fuzz/Harnesses/HARNESS`); `Fuzz/run.sh HARNESS repro FILE` replays one under the fuzzer.
@Suite struct FuzzRegressionTests {
    /// The limits the harnesses decode with (Fuzz/Sources/FuzzSupport).
    static let options = DecodingOptions(
        limits: DecodingLimits(maxPixelCount: 4_000_000, maxByteCount: 64 << 20, maxChunkCount: 1 << 16), threads: 1)

    /// Each regression input and a phrase the error must contain (what the parser now says about it).
    static let expectations: [String: String] = [
        // DHT counts of 3 one-bit codes: the lookahead table was indexed past its end.
        "tiff-huffman-oversubscribed.dng": "over-subscribe the code space",
    ]

    static func bytes(_ name: String) throws -> [UInt8] {
        let folder = try #require(Bundle.module.url(forResource: "FuzzRegressions", withExtension: nil))
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test("every committed regression input has an expectation")
    func everyFileIsListed() throws {
        let folder = try #require(Bundle.module.url(forResource: "FuzzRegressions", withExtension: nil))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == Self.expectations.keys.sorted())
    }

    @Test("fuzzer findings now throw a typed error naming the problem", arguments: expectations.keys.sorted())
    func regression(_ name: String) throws {
        let bytes = try Self.bytes(name)
        let harness = name.prefix { $0 != "-" }
        var message: String?
        do {
            switch harness {
            case "tiff", "jpeg", "png":
                _ = try? ImageFile.info(data: bytes, limits: Self.options.limits)
                _ = try ImageFile.read(data: bytes, options: Self.options)
            case "exif":
                _ = try EXIF(tiffBytes: bytes)
            case "dngopcode":
                _ = try DNGOpcode.parseList(bytes)
            case "ljpeg":
                try withBytes(of: bytes) { raw throws(CodecError) in
                    let header = try LosslessJPEGHeader(raw, what: "fuzz")
                    try LosslessJPEGDecoder.decode(raw, header: header, what: "fuzz") { _, _ in }
                }
            default:
                Issue.record("unknown harness \(harness)")
            }
        } catch {
            message = "\(error)"
        }
        let expected = try #require(Self.expectations[name])
        #expect(message?.contains(expected) == true, "\(name): \(message ?? "decoded without an error")")
    }
}
