import LuxCodecs
import LuxPixels
import LuxScene
import LuxTestSupport
import Testing

@testable import LuxCapture

/// A MetadataOutput finds the codes printed in a simulated scene while the hand-held camera shakes.
@Suite struct MetadataOutputTests {
    static func scene() throws -> Scene {
        Scene.printedCodes([
            try Scene.Print.code(.qr, "Lux capture QR", origin: SIMD2(0.06, 0.18), size: 0.38),
            try Scene.Print.code(.dataMatrix, "DM-42", origin: SIMD2(0.58, 0.22), size: 0.3),
        ])
    }

    /// A 320 × 240 video format of the small sensor (large enough for the codes' modules).
    static func format() -> DeviceFormat {
        var f = DeviceFormat.smallTestFormats().first { !$0.isPhotoFormat && $0.pixelFormat == .yCbCr420FullRange }!
        f.width = 320
        f.height = 240
        f.streamWidth = 320
        f.streamHeight = 240
        return f
    }

    /// A session of the small simulated camera with the 320 × 240 video format, `metadata` added, running.
    static func session(_ metadata: MetadataOutput) async throws -> CaptureSession {
        var configuration = SimulatedCamera.Configuration(sensor: .small(), seed: 3)
        configuration.formats = DeviceFormat.smallTestFormats() + [format()]
        let camera = SimulatedCamera(scene: try scene(), configuration: configuration)
        camera.setFocusMode(.locked)
        let session = CaptureSession()
        session.beginConfiguration()
        try session.addInput(DeviceInput(camera: camera))
        try session.setSessionPreset(.inputPriority)
        try camera.setActiveFormat(format())
        try session.addOutput(metadata)
        try session.commitConfiguration()
        try await session.startRunning()
        return session
    }

    @Test("codes are found frame after frame with the camera shaking, their bounds where they were printed")
    func detectsWhileMoving() async throws {
        let metadata = MetadataOutput()
        #expect(metadata.availableMetadataObjectTypes.isEmpty)  // not connected yet
        let session = try await Self.session(metadata)
        #expect(metadata.availableMetadataObjectTypes.contains(.qr))
        metadata.metadataObjectTypes = [.qr, .dataMatrix]
        var frames: [MetadataFrame] = []
        for try await f in metadata.frames {
            frames.append(f)
            if frames.count == 6 { break }
        }
        let qr = frames.compactMap { $0.objects.first { $0.symbology == .qr } }
        let dm = frames.compactMap { $0.objects.first { $0.symbology == .dataMatrix } }
        #expect(qr.count >= 5 && dm.count >= 5, "QR in \(qr.count), Data Matrix in \(dm.count) of 6 frames")
        #expect(qr.allSatisfy { $0.stringValue == "Lux capture QR" } && dm.allSatisfy { $0.stringValue == "DM-42" })
        // The QR symbol proper (inside its 2-module margin) starts 2/27 of the print in: x ≈ 0.06 + 0.38·2/27.
        for o in qr {
            #expect(abs(o.bounds.minX - 0.088) < 0.03 && abs(o.bounds.minY - 0.25) < 0.05, "\(o.bounds)")
            #expect(o.corners.count == 4)
        }
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.presentationTime > $0.presentationTime })
        await session.stopRunning()
    }

    @Test("only the types asked for, within the rectangle of interest, are reported")
    func typesAndRectOfInterest() async throws {
        let metadata = MetadataOutput()
        let session = try await Self.session(metadata)
        var iterator = metadata.frames.makeAsyncIterator()
        #expect(try await iterator.next()?.objects.isEmpty == true)  // no types by default
        metadata.metadataObjectTypes = [.qr, .dataMatrix]
        metadata.rectOfInterest = Rect(x: 0.5, y: 0, width: 0.5, height: 1)
        let right = try #require(try await iterator.next())
        #expect(right.objects.map(\.symbology) == [.dataMatrix])
        metadata.metadataObjectTypes = [.aztec]
        metadata.rectOfInterest = Rect(x: 0, y: 0, width: 1, height: 1)
        #expect(try await iterator.next()?.objects.isEmpty == true)
        await session.stopRunning()
    }

    @Test(
        "photo-codes' off-centre Aztec code is found by the window search within the first frames and then in every frame; without the window search it is not"
    )
    func offCentreAztecOnPhotoCodes() async throws {
        var configuration = SimulatedCamera.Configuration(sensor: .small(width: 640, height: 480), seed: 3)
        var format = Self.format()
        (format.width, format.height, format.streamWidth, format.streamHeight) = (640, 480, 640, 480)
        configuration.formats = DeviceFormat.smallTestFormats(sensor: .small(width: 640, height: 480)) + [format]
        let camera = SimulatedCamera(scene: try Scene.photographic(named: "photo-codes"), configuration: configuration)
        camera.setFocusMode(.locked)
        try await camera.setFocusModeLocked(
            lensPosition: .value(Float(ThinLens.phoneWide.lensPosition(focusDistance: 0.55))))
        let metadata = MetadataOutput()
        let session = CaptureSession()
        session.beginConfiguration()
        try session.addInput(DeviceInput(camera: camera))
        try session.setSessionPreset(.inputPriority)
        try camera.setActiveFormat(format)
        try session.addOutput(metadata)
        try session.commitConfiguration()
        try await session.startRunning()
        metadata.metadataObjectTypes = [.qr, .aztec]
        var found: [Bool] = []
        for try await f in metadata.frames {
            found.append(
                f.objects.contains { $0.symbology == .aztec && $0.stringValue == Scene.photoCodesMessages.aztec })
            if found.count == MetadataOutput.aztecWindowInterval + 2 { break }
        }
        let first = try #require(found.firstIndex(of: true), "the Aztec code in none of \(found.count) frames")
        #expect(first < MetadataOutput.aztecWindowInterval, "first found in frame \(first): \(found)")
        #expect(found[first...].allSatisfy { $0 }, "once found, in every frame: \(found)")
        await session.stopRunning()
        // The window search is what finds it: the plain search alone misses it in the scene's sharp ground truth.
        let truth = try Scene.photographic(named: "photo-codes").groundTruth(width: 640)
        var reader = CodeReader(symbologies: [.aztec])
        #expect(try reader.codes(in: truth).contains { $0.stringValue == Scene.photoCodesMessages.aztec })
        reader.searchesOffCentreAztec = false
        #expect(try reader.codes(in: truth).isEmpty)
    }
}
