import Foundation
import LuxTestSupport
import Testing

@testable import LuxCapture

/// The real Video4Linux2 driver on a camera attached to this machine, with `v4l2-ctl` (v4l-utils) as the oracle.
@Suite(.tags(.hardware), .cameraAttached) struct V4L2HardwareTests {
    @Test(
        "the camera at /dev/video0 opens with the names v4l2-ctl reports, and offers at least one format",
        .needs("v4l2-ctl"))
    func attachedCamera() throws {
        let camera = try V4L2Camera(path: "/dev/video0")
        let info = try ExternalTool.capture("v4l2-ctl", ["--device", "/dev/video0", "--info"])
        #expect(info.status == 0, "\(info.errorText)")
        let fields = info.text.split(separator: "\n").map { $0.split(separator: ":", maxSplits: 1) }
        func field(_ name: String) -> String? {
            fields.first { $0.count == 2 && $0[0].trimmingCharacters(in: .whitespaces) == name }
                .map { $0[1].trimmingCharacters(in: .whitespaces) }
        }
        #expect(field("Driver name") == camera.driverName)
        #expect(field("Card type") == camera.localizedName)
        #expect(!camera.formats.isEmpty)
    }
}

/// Streaming from the attached camera: frames arrive at the active format's size, with increasing times.
@Suite(.tags(.hardware), .cameraAttached) struct V4L2HardwareStreamingTests {
    @Test("the camera at /dev/video0 streams three frames of the active format's size and takes a still")
    func streams() async throws {
        let camera = try V4L2Camera(path: "/dev/video0")
        let format = camera.activeFormat
        try await camera.startStreaming()
        var times: [Double] = []
        for _ in 0..<3 {
            let frame = try await camera.nextFrame(
                StreamConfiguration(deliversProcessedFrames: true, deliversRAW: true))
            let pixels = try #require(frame.image ?? frame.raw)
            #expect(pixels.width == format.width && pixels.height == format.height)
            times.append(frame.presentationTime.seconds)
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let still = try await camera.captureStill(StillRequest())
        #expect(still.raw.width >= format.width)
        await camera.stopStreaming()
    }
}
