import LuxPixels
import LuxScene
import Testing

@testable import LuxCapture

@Suite struct SceneMonitoringTests {
    /// Waits until `property` has `value` (the stream starts with the current value).
    func wait(_ output: PhotoOutput, _ property: PhotoOutput.SceneMonitoringProperty, is value: Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        for await v in output.values(of: property) {
            if v == value { return true }
            if ContinuousClock.now > deadline { return false }
        }
        return false
    }

    @Test("No monitoring settings (the default): both flags stay false, even in the dark")
    func defaultOff() async throws {
        let rig = try await CaptureRig.make(scene: .lowLight())
        #expect(rig.photo.photoSettingsForSceneMonitoring == nil)
        _ = try await collect(try rig.photo.capturePhoto(PhotoSettings()))  // meters the dark scene
        #expect(!rig.photo.isFlashScene && !rig.photo.isStillImageStabilizationScene)
    }

    @Test("A dark scene is a flash and stabilisation scene; flash off makes isFlashScene false; light clears both")
    func followsTheScene() async throws {
        let rig = try await CaptureRig.make(scene: .lowLight())
        var monitor = PhotoSettings()
        monitor.flashMode = .auto
        monitor.isAutoStillImageStabilizationEnabled = true
        rig.photo.photoSettingsForSceneMonitoring = monitor
        #expect(await wait(rig.photo, .isFlashScene, is: true))
        #expect(await wait(rig.photo, .isStillImageStabilizationScene, is: true))
        var noFlash = monitor
        noFlash.flashMode = .off
        rig.photo.photoSettingsForSceneMonitoring = noFlash
        #expect(!rig.photo.isFlashScene)
        #expect(rig.photo.isStillImageStabilizationScene)
        rig.photo.photoSettingsForSceneMonitoring = monitor
        #expect(rig.photo.isFlashScene)
        // Turn the lights on: the live metering clears both flags.
        rig.camera.scene = .stillLife(light: Light(.d65, lux: 2000))
        #expect(await wait(rig.photo, .isFlashScene, is: false))
        #expect(await wait(rig.photo, .isStillImageStabilizationScene, is: false))
        rig.photo.photoSettingsForSceneMonitoring = nil
        #expect(!rig.photo.isFlashScene && !rig.photo.isStillImageStabilizationScene)
    }
}
