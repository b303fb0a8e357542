import Foundation
import LuxTestSupport
import Testing

@testable import LuxStudio

@Suite struct FrontEndTests {
    @Test("the embedded front end is byte for byte the FrontEnd folder (run Scripts/embed-studio.py after editing it)")
    func embeddedCopyIsCurrent() throws {
        let folder = URL(fileURLWithPath: TestData.packageRoot + "/Sources/LuxStudio/FrontEnd")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(Set(FrontEnd.files.keys) == Set(names), "run Scripts/embed-studio.py")
        for name in names {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(FrontEnd.files[name] == Array(bytes), "\(name) changed: run Scripts/embed-studio.py")
        }
    }

    @Test("the page loads only its own modules: no address outside the studio")
    func nothingFromTheNetwork() throws {
        for (name, bytes) in FrontEnd.files {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("http://") && !text.contains("https://"), "\(name) names a network address")
        }
    }
}
