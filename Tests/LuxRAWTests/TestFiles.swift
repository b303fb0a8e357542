import Foundation
import LuxTestSupport

enum TestFiles {
    static var raw: String { TestData.root + "/raw" }
    static var canon550D: String { raw + "/canon_eos550d_magiclantern_14bit.dng" }
    static func data(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
}
