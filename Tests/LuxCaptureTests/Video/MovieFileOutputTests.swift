import Foundation
import LuxCodecs
import LuxPixels
import LuxScene
import LuxTestSupport
import Testing

@testable import LuxCapture

@Suite struct MovieFileOutputTests {
    @Test(
        "A recording writes a QuickTime movie with every frame slot and the microphone's audio (ffprobe)",
        .needs("ffprobe"), .serialized, arguments: [VideoCodec.h264, .hevc, .motionJPEG])
    func recording(codec: VideoCodec) async throws {
        let movie = MovieFileOutput()
        #expect(movie.videoCodec == .h264 && movie.audioCodec == .aac)
        movie.videoCodec = codec
        let clock = ManualClock()
        let rig = try await CaptureRig.make(
            scene: .stillLife(), start: false, format: CaptureRig.videoFormat(highQuality: true), clock: clock)
        try rig.session.addInput(DeviceInput(microphone: SimulatedMicrophone(source: rig.camera.scene.sound)))
        try rig.session.addOutput(movie)
        #expect(rig.camera.activeColorSpace == .sRGB)  // a movie file output makes the automatic choice sRGB
        #expect(!rig.photo.isLivePhotoCaptureSupported)
        try await rig.session.startRunning()
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("clip.mov")
        let frame = MediaTime(value: 1, timescale: 30)
        movie.maxRecordedDuration = frame * 10
        let start = clock.now
        try movie.startRecording(to: url)
        #expect(throws: CaptureError.self) { try movie.startRecording(to: url) }
        // The recording keeps pace with the session's clock: it records a frame slot, then sleeps until the clock
        // reaches the slot's end (beside the scene monitor, which also sleeps on the clock).
        for k in 1...10 {
            try #require(await clock.sleepers(atLeast: 2))
            #expect(movie.recordedDuration == frame * k, "slot \(k)")
            clock.advance(to: start.advanced(by: Duration(frame * k)))
        }
        let r = try await movie.stopRecording()
        #expect(!movie.isRecording)
        #expect(r.videoFrameCount == 10 && r.droppedFrameCount == 0)
        #expect(r.duration == MediaTime(value: 10, timescale: 30))
        #expect(r.audioFrameCount == 16_000)  // 1/3 s at 48 kHz
        let run = try ExternalTool.capture(
            "ffprobe",
            [
                "-v", "error", "-count_frames", "-show_entries",
                "stream=codec_name,width,height,nb_read_frames,sample_rate", "-of", "csv=p=0", url.path,
            ])
        let lines = run.text.split(separator: "\n").map(String.init).sorted()
        let name = ["h264": "h264", "hevc": "hevc", "motionJPEG": "mjpeg"][codec.rawValue]!
        #expect(lines.contains { $0.hasPrefix("\(name),120,90") && $0.hasSuffix(",10") }, "\(run.text)")
        #expect(lines.contains { $0.hasPrefix("aac") && $0.contains("48000") }, "\(run.text)")
    }

    @Test("Recording needs a running session")
    func notRunning() async throws {
        let movie = MovieFileOutput()
        _ = try await CaptureRig.make(scene: .grayCard(), extraOutputs: [movie], start: false)
        #expect(throws: CaptureError.self) { try movie.startRecording(to: URL(fileURLWithPath: "/tmp/never.mov")) }
        await #expect(throws: CaptureError.self) { _ = try await movie.stopRecording() }
    }
}
