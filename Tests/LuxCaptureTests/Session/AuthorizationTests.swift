import Testing

@testable import LuxCapture

/// Device nodes that exist but answer `open` with a fixed errno (or succeed).
struct FakeNodes: DeviceNodeAccess {
    var video: [String: Int32]
    var audio: [String: Int32] = [:]
    func nodes(for mediaType: MediaType) -> [String] { (mediaType == .video ? video : audio).keys.sorted() }
    func open(_ path: String) -> Int32 { video[path] ?? audio[path] ?? -2 }
    func close(_ fd: Int32) {}
}

@Suite struct AuthorizationTests {
    let described = UsageDescriptions(
        camera: "to take photos and video", microphone: "to record Live Photos and movies")

    @Test("Not determined until access is requested; the simulated devices are authorized")
    func simulated() async throws {
        let access = CaptureAuthorization(usageDescriptions: described, nodes: FakeNodes(video: [:]))
        #expect(access.status(for: .video) == .notDetermined)
        #expect(try await access.requestAccess(for: .video))
        #expect(access.status(for: .video) == .authorized)
        #expect(access.status(for: .audio) == .notDetermined)
    }

    @Test("Requesting access without a usage description throws, naming the Info.plist key")
    func missingDescription() async throws {
        let access = CaptureAuthorization(
            usageDescriptions: UsageDescriptions(camera: "  "), nodes: FakeNodes(video: [:]))
        await #expect(throws: CaptureError.missingUsageDescription(mediaType: .video, key: "NSCameraUsageDescription"))
        {
            _ = try await access.requestAccess(for: .video)
        }
        await #expect(
            throws: CaptureError.missingUsageDescription(mediaType: .audio, key: "NSMicrophoneUsageDescription")
        ) {
            _ = try await access.requestAccess(for: .audio)
        }
        let plist = UsageDescriptions(infoDictionary: ["NSCameraUsageDescription": "to take photos"])
        #expect(plist.camera == "to take photos" && plist.microphone == nil)
    }

    @Test("A device the process cannot open is denied with the reason; one that opens is enough")
    func denied() async throws {
        let locked = CaptureAuthorization(usageDescriptions: described, nodes: FakeNodes(video: ["/dev/video0": -13]))
        #expect(try await !locked.requestAccess(for: .video))
        guard case .denied(let reason) = locked.status(for: .video) else {
            Issue.record("expected denied")
            return
        }
        #expect(
            reason.contains("/dev/video0") && reason.contains("permission denied") && reason.contains("'video' group"))
        let busy = CaptureAuthorization(
            usageDescriptions: described, nodes: FakeNodes(video: [:], audio: ["/dev/snd/pcmC0D0c": -16]))
        #expect(try await !busy.requestAccess(for: .audio))
        #expect("\(busy.status(for: .audio))".contains("busy"))
        let one = CaptureAuthorization(
            usageDescriptions: described, nodes: FakeNodes(video: ["/dev/video0": -13, "/dev/video1": 5]))
        #expect(try await one.requestAccess(for: .video))
    }
}

/// Seed 001's rule that a session on a device whose access is not granted does not run, on both devices.
@Suite struct AuthorizationEnforcementTests {
    func expectRefused(_ session: CaptureSession, reason: String) async {
        let events = session.events
        await #expect(throws: CaptureError.accessDenied(mediaType: .video, reason: reason)) {
            try await session.startRunning()
        }
        #expect(!session.isRunning)
        for await e in events {
            #expect(e == .runtimeError(.accessDenied(mediaType: .video, reason: reason)))
            break
        }
    }

    @Test("A denied simulated camera does not run and the session says why; granted by default")
    func simulatedCamera() async throws {
        let camera = SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small()))
        let denied = CaptureSession(authorization: FixedAuthorization(.denied(reason: "the user said no")))
        try denied.addInput(DeviceInput(camera: camera))
        await expectRefused(denied, reason: "the user said no")
        #expect(DeviceAccessAuthorization().authorizationStatus(for: camera) == .authorized)
    }

    @Test("A V4L2 camera is granted when its node opens read-write, refused with the reason when it does not")
    func v4l2Camera() async throws {
        let kernel = FakeV4L2Kernel()
        let camera = try V4L2Camera(path: "/dev/video0", driver: kernel)
        try camera.setActiveFormat(try #require(camera.formats.first { $0.width == 32 }))
        kernel.kernel.withLock { $0.openErrno = 13 }  // EACCES
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        try session.addInput(DeviceInput(camera: camera))
        await expectRefused(
            session,
            reason:
                "/dev/video0: permission denied (errno 13); add the user to the 'video' group or run with access to "
                + "the device")
        kernel.kernel.withLock { $0.openErrno = nil }
        try await session.startRunning()
        #expect(session.isRunning && kernel.kernel.withLock { $0.streaming })
        await session.stopRunning()
        #expect(!kernel.kernel.withLock { $0.streaming })
    }
}

/// A V4L2 camera unplugged while a session runs.
@Suite struct DeviceFaultSessionTests {
    @Test("Unplugging ends the session with one runtime error; the frame delivered before stays intact")
    func unplugEndsSession() async throws {
        let kernel = FakeV4L2Kernel()
        let camera = try V4L2Camera(path: "/dev/video0", driver: kernel)
        try camera.setActiveFormat(try #require(camera.formats.first { $0.width == 32 }))
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)  // keep the camera's 32 × 16 YUYV format
        try session.addInput(DeviceInput(camera: camera))
        try await session.startRunning()
        #expect(camera.activeFormat.width == 32)
        let events = session.events
        let pump = try #require(session.state.withLock { $0.pump })
        let kept = try #require(try await pump.produce(raw: false, processed: true).image)
        let copy = kept.withUnsafePlane { p in Array(UnsafeBufferPointer(start: p.row(0, as: UInt8.self), count: 128)) }
        kernel.kernel.withLock { $0.unplugged = true }
        await #expect(throws: CaptureError.deviceDisconnected("/dev/video0")) {
            try await pump.produce(raw: false, processed: true)
        }
        #expect(!session.isRunning)
        var seen: [SessionEvent] = []
        for await e in events {
            seen.append(e)
            if e == .didStopRunning { break }
        }
        #expect(seen == [.runtimeError(.deviceDisconnected("/dev/video0")), .didStopRunning])
        kept.withUnsafePlane { p in
            #expect(Array(UnsafeBufferPointer(start: p.row(0, as: UInt8.self), count: 128)) == copy)
            #expect(p.row(0, as: UInt8.self)[2] >= 254)  // red, as the fake camera sent it
        }
    }
}
