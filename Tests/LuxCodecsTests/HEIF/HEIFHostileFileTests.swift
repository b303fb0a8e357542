import Foundation
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Files Lux's `heif` fuzzer found that libheif 1.15 itself mishandles: Lux refuses them with a typed error, where
/// libheif's own tool aborts or reaches for gigabytes.
@Suite struct HEIFHostileFileTests {
    /// A grid with no coded bit depth, which libheif recurses into a thread per level until the process aborts.
    ///
    /// `heif-convert` refuses it ("undefined bit-depth"), which is the oracle that it is not an image.
    @Test("a grid with no coded image behind it is refused before libheif recurses into it", .needs("heif-convert"))
    func selfReferencingGrid() throws {
        let path = try TestData.path("heic/fuzz_self_grid.heic")
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try ExternalTool.run("heif-convert", [path, dir + "/peer.png"]).status != 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(throws: CodecError.self) { _ = try HEIF.decode(bytes) }
        #expect(throws: CodecError.self) {
            _ = try ImageRegionReader(url: URL(fileURLWithPath: path)).read(x: 0, y: 0, width: 1, height: 1)
        }
    }

    /// An `ispe` of 40 × 24 whose HEVC parameter sets claim 57054 × 57054: libheif refuses the size (its security limit
    /// is 32768²), and Lux reports that as an error naming the image without holding 3.2 GB of planes.
    @Test("an HEVC picture far larger than its ispe is refused with little memory", .needs("heif-convert"))
    func codedPictureLargerThanItsImage() throws {
        let path = try TestData.path("heic/fuzz_huge_coded_picture.heic")
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try ExternalTool.run("heif-convert", [path, dir + "/peer.png"]).status != 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let before = try HEIFLimitsTests.peakResident()
        #expect(throws: CodecError.self) { _ = try HEIF.decode(bytes) }
        #expect(try HEIFLimitsTests.peakResident() - before < 256 << 20)
    }
}
