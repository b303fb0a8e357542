import Foundation
import Hummingbird
import HummingbirdTesting
import LuxCodecs
import LuxTestSupport
import Testing

@testable import LuxStudio

/// Stopping the server ends the camera session and leaves no partial file, however the application is run.
@Suite(.serialized) struct ShutdownTests {
    @Test(
        "a graceful shutdown in the middle of a RAW + JPEG capture waits for it: the session stops, both files are whole"
    )
    func gracefulMidCapture() async throws {
        let (studio, folder) = try CameraSocketTests().makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (events, reporter) = AsyncStream.makeStream(of: String.self)
        let capture = Task {
            try await studio.camera.perform(.capture(kind: "rawPlusJPEG", prioritization: "speed", bracket: nil)) {
                reporter.yield($0)
            }
        }
        try await studio.application().test(.router) { _ in
            for await event in events where event.contains(#""name":"willCapturePhoto""#) { break }
            #expect(studio.camera.session.isRunning)
            // The test framework shuts the application down gracefully when this closure returns.
        }
        #expect(!studio.camera.session.isRunning)
        // The capture under way finished before the session stopped: its two files, nothing hidden beside them.
        try await capture.value
        let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(Set(listed.map { ($0 as NSString).pathExtension }) == ["dng", "jpg"], "\(listed)")
        #expect(listed.count == 2 && !listed.contains { $0.hasPrefix(".") }, "\(listed)")
        for name in listed {
            let info = try ImageFile.info(url: folder.appendingPathComponent(name))
            #expect(info.width > 0, "\(name)")
        }
        // Once stopped, the camera takes no more commands.
        await #expect(throws: StudioError.camera("the studio is stopping")) {
            try await studio.camera.perform(.bias(0)) { _ in }
        }
    }

    @Test("cancelling the task that runs the application (no graceful shutdown) also stops the session")
    func cancelled() async throws {
        let (studio, folder) = try CameraSocketTests().makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (ready, readiness) = AsyncStream.makeStream(of: URL.self)
        let server = Task { try await studio.application { readiness.yield($0) }.run() }
        for await _ in ready { break }
        try await studio.camera.prepare()
        #expect(studio.camera.session.isRunning)
        server.cancel()
        _ = await server.result
        #expect(!studio.camera.session.isRunning)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
