import Foundation
import LuxTestSupport
import Testing

@testable import LuxCapture

/// ``CaptureDeviceDiscoverySession`` on the fake kernel and on ALSA lists written as the kernel writes them.
@Suite struct CaptureDeviceDiscoveryTests {
    /// `/proc/asound/pcm` as sound/core/pcm.c prints it (`%02i-%02i: %s : %s`, then ` : playback %i`, ` : capture %i`):
    /// an onboard codec with both directions, an HDMI output, and a webcam's microphone.
    static let pcm = """
        00-00: ALC892 Analog : ALC892 Analog : playback 1 : capture 1
        00-03: HDMI 0 : HDMI 0 : playback 1
        01-00: USB Audio : USB Audio : capture 1

        """
    /// `/proc/asound/cards` as sound/core/init.c prints it (number, id, driver, " - " and the short name).
    static let cards = """
         0 [PCH            ]: HDA-Intel - HDA Intel PCH
                              HDA Intel PCH at 0xf7f10000 irq 32
         1 [C920           ]: USB-Audio - HD Pro Webcam C920
                              HD Pro Webcam C920 at usb-0000:00:14.0-1, high speed

        """

    func soundCards() throws -> (ALSACaptureDevices, URL) {
        let dir = try ExternalTool.temporaryFolder("lux-discovery")
        try Self.pcm.write(to: dir.appendingPathComponent("pcm"), atomically: true, encoding: .utf8)
        try Self.cards.write(to: dir.appendingPathComponent("cards"), atomically: true, encoding: .utf8)
        return (
            ALSACaptureDevices(
                pcmListPath: dir.appendingPathComponent("pcm").path,
                cardListPath: dir.appendingPathComponent("cards").path), dir
        )
    }

    @Test("Cameras with formats and controls, unusable nodes with their typed reason, ALSA capture devices by card")
    func lists() throws {
        let kernel = FakeV4L2Kernel()
        kernel.kernel.withLock { $0.otherNodes = ["/dev/video1": EACCES] }
        let (sound, dir) = try soundCards()
        defer { try? FileManager.default.removeItem(at: dir) }
        let found = CaptureDeviceDiscoverySession(videoDriver: kernel, soundCards: sound).devices()
        #expect(found.cameras.map(\.localizedName) == ["HD Pro Webcam C920", "Simulated Back Camera"])
        let webcam = found.cameras[0]
        #expect(webcam.path == "/dev/video0" && webcam.driverName == "uvcvideo")
        #expect(webcam.uniqueID == "v4l2:usb-0000:00:14.0-1")
        // 3 YUYV + 2 MJPEG + NV12 + 2 RG10 sizes; H.264 is not a format Lux reads.
        #expect(webcam.formats.count == 8 && webcam.formats.contains { $0.mediaSubType == "MJPG" && $0.width == 1920 })
        #expect(
            webcam.controlCapabilities.supportsLensPosition
                && webcam.controlCapabilities.supportsWhiteBalanceTemperature)
        // The fake's controls Lux maps, in identifier order (the control-class heading is not one).
        #expect(
            webcam.deviceControls.map(\.control) == [
                .blackLevel, .autoWhiteBalance, .gain, .whiteBalanceTemperature, .exposureAuto, .exposureAbsolute,
                .focusAbsolute, .focusAuto,
            ])
        let focus = webcam.deviceControls.first { $0.control == .focusAbsolute }
        #expect(focus?.minimum == 0 && focus?.maximum == 250 && focus?.step == 5)
        #expect(found.cameras[1].path == nil && found.cameras[1].controlCapabilities == .all)
        #expect(found.unusableNodes.map(\.path) == ["/dev/video1"])
        guard case .accessDenied(.video, let why) = found.unusableNodes.first?.reason else {
            Issue.record("\(found.unusableNodes)")
            return
        }
        #expect(why.contains("/dev/video1"))
        #expect(
            found.microphones.map(\.localizedName) == [
                "Simulated Microphone", "HDA Intel PCH: ALC892 Analog", "HD Pro Webcam C920: USB Audio",
            ])
        #expect(found.microphones.map(\.path) == [nil, "/dev/snd/pcmC0D0c", "/dev/snd/pcmC1D0c"])
        #expect(found.microphones.map(\.uniqueID).dropFirst() == ["alsa:hw:0,0", "alsa:hw:1,0"])
        #expect(found.microphones.map(\.isCaptureSupported) == [true, false, false])
    }

    @Test("Media types and the simulated devices can be left out; a machine without ALSA lists no sound cards")
    func filters() throws {
        let kernel = FakeV4L2Kernel()
        let audioOnly = CaptureDeviceDiscoverySession(
            mediaTypes: [.audio], includesSimulatedDevices: false, videoDriver: kernel,
            soundCards: ALSACaptureDevices(pcmListPath: "/nonexistent/asound/pcm")
        ).devices()
        #expect(audioOnly == DiscoveredDevices())
        let videoOnly = CaptureDeviceDiscoverySession(
            mediaTypes: [.video], includesSimulatedDevices: false, videoDriver: kernel
        ).devices()
        #expect(videoOnly.cameras.map(\.path) == ["/dev/video0"] && videoOnly.microphones.isEmpty)
    }
}
