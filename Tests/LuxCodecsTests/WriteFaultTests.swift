import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Injected write failures (disk full part-way, permission denied, the file deleted mid-write) through the
/// ``WriteFault`` seam of the atomic writer: every writer throws `.io` naming the file and the system's reason,
/// leaves no partial or temporary file, and keeps the original; with the fault gone the same write succeeds.
@Suite struct WriteFaultTests {
    static let faults: [(WriteFault, String)] = [
        (.diskFull(afterBytes: 100), "No space left on device"),
        (.permissionDenied, "Permission denied"),
        (.removedMidWrite(afterBytes: 1), "No such file or directory"),
    ]

    /// The writers under test: each writes `name` in `folder` and returns what it wrote.
    static let writers: [(name: String, write: @Sendable (URL) throws -> Void)] = [
        ("photo.jpg", { try ImageFile.write(TestImages.gradient(width: 64, height: 48), to: $0) }),
        ("photo.png", { try ImageFile.write(TestImages.gradient(width: 64, height: 48), to: $0) }),
        ("photo.tif", { try ImageFile.write(TestImages.gradient(width: 64, height: 48), to: $0) }),
        (
            "raw.dng",
            {
                let raw = try RawImage(linearRGB: TestImages.gradient(width: 32, height: 32).converted(to: .rgbaFloat))
                try ImageFile.write(raw, to: $0)
            }
        ),
        (
            "streamed.tif",
            { url in
                let band = TestImages.gradient(width: 64, height: 16)
                let encoder = try ImageStreamEncoder(
                    writingTo: url, width: 64, height: 48, pixelFormat: .rgba8, colorSpace: .sRGB)
                for _ in 0..<3 { try encoder.append(band) }
                try encoder.finish(writingTo: url)
            }
        ),
        (
            "sound.wav",
            {
                try AudioSamples(sampleRate: 8000, channelCount: 1, samples: [Int16](repeating: 7, count: 800))
                    .writeWAV(to: $0)
            }
        ),
        (
            "movie.mov",
            { url in
                let writer = try QuickTimeWriter(
                    writingTo: url,
                    settings: .init(video: .init(width: 16, height: 16), synchronizesFile: false))
                for i in 0..<3 {
                    try writer.appendVideoFrame(
                        TestImages.gradient(width: 16, height: 16), at: MediaTime(value: Int64(i), timescale: 30))
                }
                try writer.finish()
            }
        ),
    ]

    @Test("every writer × fault: .io with the reason, no partial file, the original kept", arguments: 0..<7)
    func writerFails(_ index: Int) throws {
        let (name, write) = Self.writers[index]
        let dir = try ExternalTool.temporaryFolder("lux-write-fault")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent(name)
        let original = Data("the original \(name)".utf8)
        try original.write(to: url)
        for (fault, reason) in Self.faults {
            WriteFault.inject(fault, folder: dir.path)
            defer { WriteFault.clear(folder: dir.path) }
            do {
                try write(url)
                Issue.record("\(name) with \(fault) was written")
            } catch let error as CodecError {
                guard case .io(let path, let why) = error else {
                    Issue.record("\(name) with \(fault): expected .io, got \(error)")
                    continue
                }
                #expect(path == url.path, "\(name) with \(fault)")
                #expect(why.contains(reason), "\(name) with \(fault): \(why)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [name], "\(name) with \(fault)")
            #expect(try Data(contentsOf: url) == original, "\(name) with \(fault)")
        }
        // The seam is per folder and the fault is gone: the same write now replaces the original.
        try write(url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [name])
        #expect(try Data(contentsOf: url) != original)
        if name.hasSuffix(".mov") {
            #expect(try QuickTimeMovie(contentsOf: url).videoTrack?.sampleCount == 3)
        } else if !name.hasSuffix(".wav") {
            #expect(try ImageFile.read(url: url).pixels.width > 0)
        }
    }
}
