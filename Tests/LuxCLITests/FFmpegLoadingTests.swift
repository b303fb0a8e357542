import Foundation
import LuxTestSupport
import Testing

/// FFmpeg's libraries are loaded on first use, not at start-up: glibc's loader (`LD_DEBUG=libs`) lists every library
/// a process maps, so it is the oracle for which commands pay for FFmpeg.
@Suite struct FFmpegLoadingTests {
    static let pair = TestData.root + "/livephoto/iphone6s_livephoto_train"

    /// The libraries glibc's loader looked for while `lux arguments` ran.
    static func librariesLoaded(by arguments: [String]) throws -> (status: Int32, libraries: Set<String>, text: String)
    {
        let lux = try #require(LuxExecutable.path)
        let run = try LuxExecutable.run(lux, arguments, environment: ["LD_DEBUG": "libs"])
        var libraries = Set<String>()
        for line in run.errorText.split(separator: "\n") {
            guard let range = line.range(of: "find library=") else { continue }
            libraries.insert(String(line[range.upperBound...].prefix { $0 != " " && $0 != ";" }))
        }
        return (run.status, libraries, run.text)
    }

    @Test("describing a JPEG maps libjpeg but none of FFmpeg's libraries", .needsLux)
    func photoCommandLeavesFFmpegUnloaded() throws {
        let run = try Self.librariesLoaded(by: ["info", Self.pair + ".jpg"])
        #expect(run.status == 0)
        #expect(run.libraries.contains { $0.hasPrefix("libjpeg.so") }, "LD_DEBUG listed \(run.libraries.sorted())")
        let ffmpeg = run.libraries.filter { $0.hasPrefix("libav") || $0.hasPrefix("libswscale") }
        #expect(ffmpeg.isEmpty, "a photo command mapped \(ffmpeg.sorted())")
    }

    @Test("a command that decodes the Live Photo's H.264 movie loads libavcodec and libavformat", .needsLux)
    func movieCommandLoadsFFmpeg() throws {
        let run = try Self.librariesLoaded(by: ["live", "info", Self.pair + ".jpg", "--json"])
        #expect(run.status == 0)
        #expect(run.libraries.contains { $0.hasPrefix("libavcodec.so.") })
        #expect(run.libraries.contains { $0.hasPrefix("libavformat.so.") })
        #expect(run.text.contains("\"movieEditable\" : true"), "\(run.text)")
    }
}
