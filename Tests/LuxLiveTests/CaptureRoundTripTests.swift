import Foundation
import LuxCapture
import LuxCodecs
import LuxLive
import LuxPixels
import LuxRender
import LuxScene
import LuxTestSupport
import Testing

/// The whole path: a Live Photo captured by the simulated camera, edited, saved, and read back.
@Suite struct CaptureRoundTripTests {
    @Test(
        "capture → edit (square crop, sepia, half volume) → save → read back; FFmpeg decodes the edited movie",
        .needs("ffmpeg"))
    func captureEditSaveRead() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var sensor = SensorModel.phone12MP
        sensor.pixelPitch = sensor.sensorWidth / 320
        sensor.width = 320
        sensor.height = 240
        let camera = SimulatedCamera(scene: .stillLife(), configuration: .init(sensor: sensor))
        let session = CaptureSession(clock: ManualClock())  // it stands still: every frame is one the capture asks for
        let output = PhotoOutput()
        session.beginConfiguration()
        try session.setSessionPreset(.photo)
        try session.addInput(DeviceInput(camera: camera))
        try session.addInput(
            DeviceInput(microphone: SimulatedMicrophone(source: camera.scene.sound, sampleRate: 44_100)))
        try session.addOutput(output)
        try session.commitConfiguration()
        try await session.startRunning()
        try output.setLivePhotoCaptureEnabled(true)
        output.isLivePhotoStabilizationEnabled = false
        var settings = PhotoSettings()
        let movieURL = dir.appendingPathComponent("IMG_0001.MOV")
        settings.livePhotoMovieURL = movieURL
        var stillData: [UInt8] = []
        for try await event in try output.capturePhoto(settings) {
            if case .didFinishProcessingPhoto(let photo) = event { stillData = try photo.fileDataRepresentation() }
        }
        await session.stopRunning()
        let photoURL = dir.appendingPathComponent("IMG_0001.JPG")
        try Data(stillData).write(to: photoURL)

        let captured = try LivePhoto(photoURL: photoURL)
        #expect(captured.movieURL.standardizedFileURL == movieURL.standardizedFileURL)
        // 1.5 s of movie (45 frames at 30 fps) on each side of the still.
        #expect(
            captured.photoTime == MediaTime(value: 3, timescale: 2)
                && captured.duration == MediaTime(value: 3, timescale: 1))
        let recipe = LivePhotoAdjustments(filterChain: "SepiaTone intensity=0.7", aspectRatio: 1, audioVolume: 0.5)
        var out = LivePhotoEditingOutput(
            directory: dir, baseName: "IMG_E0001", adjustmentData: try recipe.adjustmentData())
        out.synchronizesFiles = false
        let edited = try await LivePhotoEditingContext(livePhoto: captured, adjustments: recipe).save(to: out)
        let read = try LivePhoto(photoURL: edited.photoURL)
        #expect(read == edited && read.contentIdentifier != captured.contentIdentifier)
        #expect(read.photoTime == captured.photoTime)
        let still = try ImageFile.read(url: read.photoURL).pixels
        #expect(still.width == still.height && still.width == 180)
        let movie = try QuickTimeMovie(contentsOf: read.movieURL)
        #expect(movie.videoTrack?.width == 240 && movie.videoTrack?.height == 240)
        // The captured and the edited movie are both H.264 with AAC sound: the edit halves its level.
        #expect(movie.videoTrack?.codec == "avc1" && movie.audioTrack?.codec == "mp4a")
        let before = try QuickTimeMovie(contentsOf: captured.movieURL).audioSamples().samples
        let after = try movie.audioSamples().samples
        #expect(after.count == before.count)
        #expect(abs(LiveFixtures.rms(after) / LiveFixtures.rms(before) - 0.5) < 0.02)
        let run = try ExternalTool.capture("ffmpeg", ["-v", "error", "-i", read.movieURL.path, "-f", "null", "-"])
        #expect(run.status == 0 && run.errorText.isEmpty, "\(run.errorText)")
    }
}
