import Foundation
import Testing
import LuxTestSupport
@testable import LuxCodecs

@Suite struct SmokeTests {
    @Test func rationalApproximation() {
        #expect(Rational(approximating: 2.8) == Rational(28, 10))
        #expect(Rational(approximating: 0.6461) == Rational(6461, 10000))
    }

    @Test func readDNGs() throws {
        for name in ["raw/canon_eos550d_magiclantern_14bit.dng", "raw/derived/synthetic12mp_canon550d_tiled_lj92.dng", "raw/derived/synthetic12mp_canon550d_tiled_uncompressed.dng"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestData.root + "/" + name)))
            let t0 = Date()
            let file = try DNG.decode(bytes)
            print(name, Date().timeIntervalSince(t0), file.pixels.format, file.raw!.storage, file.raw!.activeArea)
            let px = file.pixels.components(as: UInt16.self)
            print(px[0..<8], px[file.pixels.width * 30 + 160..<file.pixels.width * 30 + 168])
        }
    }
}
