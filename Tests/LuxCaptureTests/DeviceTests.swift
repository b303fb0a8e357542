import LuxPixels
import LuxScene
import Testing

@testable import LuxCapture

@Suite struct DeviceTests {
    @Test("Formats follow seeds 000 and 003")
    func formatCatalogue() {
        let formats = DeviceFormat.simulatedCameraFormats()
        let photo = formats.filter(\.isPhotoFormat)
        #expect(
            !photo.isEmpty
                && photo.allSatisfy { $0.width == 4032 && $0.height == 3024 && $0.frameRateRange.upperBound == 30 })
        #expect(photo.allSatisfy { !$0.supportsHighPhotoQuality && $0.supportsRAW && $0.supportsLivePhoto })
        let video = Set(
            formats.filter { !$0.isPhotoFormat }.map { "\($0.width)x\($0.height)@\(Int($0.frameRateRange.upperBound))" }
        )
        #expect(
            video == ["1280x720@30", "1280x720@60", "1920x1080@30", "1920x1080@60", "1920x1440@30", "3840x2160@30"])
        #expect(formats.filter { !$0.isPhotoFormat }.allSatisfy { $0.supportsHighPhotoQuality })
        for f in formats {
            if f.pixelFormat == .yCbCr420VideoRange {
                #expect(f.supportedColorSpaces == [.sRGB])
            } else {
                #expect(f.supportedColorSpaces == [.sRGB, .displayP3])
            }
            #expect(f.maxWhiteBalanceGain == 4 && f.exposureTargetBiasRange == -8...8)
        }
        #expect(formats.contains { $0.pixelFormat == .yCbCr444VideoRange && $0.width == 1920 && $0.height == 1080 })
    }

    @Test("Out-of-range settings throw errors that name the range")
    func ranges() async throws {
        let camera = SimulatedCamera(scene: .grayCard())
        await #expect(throws: CaptureError.outOfRange(name: "ISO", value: 5000, range: 32...2048)) {
            try await camera.setExposureModeCustom(duration: .current, iso: .value(5000))
        }
        await #expect(throws: CaptureError.self) {
            try await camera.setExposureModeCustom(duration: .value(MediaTime(value: 2, timescale: 1)), iso: .current)
        }
        await #expect(throws: CaptureError.outOfRange(name: "exposureTargetBias", value: 9, range: -8...8)) {
            try await camera.setExposureTargetBias(9)
        }
        #expect(throws: CaptureError.self) { try camera.setActiveFrameRate(60) }
        #expect(throws: CaptureError.self) { try camera.setFocusPointOfInterest(Point(x: 1.5, y: 0.5)) }
        let v420 = try #require(camera.formats.first { $0.isPhotoFormat && $0.pixelFormat == .yCbCr420VideoRange })
        try camera.setActiveFormat(v420)
        #expect(throws: CaptureError.self) { try camera.setActiveColorSpace(.displayP3) }
        #expect(CaptureError.outOfRange(name: "ISO", value: 5000, range: 32...2048).description.contains("32.0…2048.0"))
    }

    @Test("Frames are bit-identical for the same seed, on any thread count, and differ from frame to frame")
    func determinism() async throws {
        func rawFrames(threads: Int, seed: UInt64) async throws -> [[UInt16]] {
            var config = SimulatedCamera.Configuration(seed: seed, threads: threads)
            config.poolCapacity = 4
            let camera = SimulatedCamera(scene: .stillLife(), configuration: config)
            camera.setFocusMode(.locked)
            var out: [[UInt16]] = []
            try await camera.startStreaming()
            for _ in 0..<2 {
                let f = try await camera.nextFrame(
                    StreamConfiguration(deliversProcessedFrames: false, deliversRAW: true))
                out.append(f.raw!.components(as: UInt16.self))
            }
            return out
        }
        let a = try await rawFrames(threads: 1, seed: 5)
        let b = try await rawFrames(threads: 2, seed: 5)
        let c = try await rawFrames(threads: 2, seed: 6)
        #expect(a == b)
        #expect(a[0] != a[1])
        #expect(a[0] != c[0])
    }

    @Test(
        "Processed frames come in the format's pixel format and colour space; stills at full resolution carry RAW metadata"
    )
    func framesAndStills() async throws {
        let camera = SimulatedCamera(scene: .chart())
        camera.setFocusMode(.locked)
        let video = try #require(
            camera.formats.first { $0.width == 1280 && $0.frameRateRange.upperBound == 30 && $0.pixelFormat == .bgra8 })
        try camera.setActiveFormat(video)
        try camera.setActiveColorSpace(.displayP3)
        try await camera.startStreaming()
        let f = try await camera.nextFrame(StreamConfiguration())
        #expect(f.image?.format == .bgra8 && f.image?.width == 1280 && f.image?.height == 720)
        #expect(f.image?.colorSpace == .displayP3)
        #expect(f.duration == MediaTime(value: 1, timescale: 30))
        let still = try await camera.captureStill(
            StillRequest(exposure: .manual(duration: MediaTime(value: 1, timescale: 100), iso: 64)))
        #expect(still.raw.format == .bayer14(.rggb) && still.raw.width == 1280)
        #expect(still.metadata.iso == 64 && still.metadata.exposureDuration == MediaTime(value: 1, timescale: 100))
        #expect(still.presentationTime == f.presentationTime + f.duration)
        let np = still.metadata.raw.noiseProfile
        #expect(np.x > 0 && np.y > 0)
        #expect(abs(still.metadata.raw.asShotNeutral.max() - 1) < 1e-12)
    }

    @Test("A frame asked for in RGBA at a scaled size has the pixels of the same frame in the format's BGRA")
    func framesInAnotherPixelFormat() async throws {
        func firstFrame(_ pixelFormat: PixelFormat?) async throws -> PixelBuffer {
            let camera = SimulatedCamera(scene: .chart(), configuration: SimulatedCamera.Configuration(seed: 3))
            camera.setFocusMode(.locked)
            let video = try #require(
                camera.formats.first {
                    $0.width == 1280 && $0.frameRateRange.upperBound == 30 && $0.pixelFormat == .bgra8
                })
            try camera.setActiveFormat(video)
            try await camera.startStreaming()
            var config = StreamConfiguration(outputDimensions: .init(width: 640, height: 360))
            config.pixelFormat = pixelFormat
            return try #require(try await camera.nextFrame(config).image)
        }
        let bgra = try await firstFrame(nil)
        let rgba = try await firstFrame(.rgba8)
        #expect(bgra.format == .bgra8 && rgba.format == .rgba8 && rgba.width == 640 && rgba.height == 360)
        #expect(rgba.colorSpace == bgra.colorSpace)
        let b = bgra.components(as: UInt8.self)
        // BGRA → RGBA: blue and red trade places in every pixel.
        var swapped = b
        for i in stride(from: 0, to: b.count, by: 4) {
            swapped[i] = b[i + 2]
            swapped[i + 2] = b[i]
        }
        #expect(rgba.components(as: UInt8.self) == swapped)
    }

    @Test("Observers see the current value and then each change")
    func observation() async throws {
        let camera = SimulatedCamera(scene: .stillLife())
        camera.setFocusMode(.locked)
        let stream = camera.values(of: .lensPosition)
        var it = stream.makeAsyncIterator()
        #expect(await it.next() == 0.8)
        try await camera.setFocusModeLocked(lensPosition: 0.25)
        #expect(await it.next() == 0.25)
    }

    @Test("The microphone's PCM is deterministic, continuous across buffers and on the device clock")
    func microphone() {
        let mic = SimulatedMicrophone(
            source: SoundSource(toneFrequency: 1000, toneAmplitude: 0.5, noiseAmplitude: 0, seed: 1))
        let a = mic.nextBuffer(frameCount: 480)
        let b = mic.nextBuffer(frameCount: 480)
        #expect(a.presentationTime == .zero && b.presentationTime == MediaTime(value: 1, timescale: 100))
        #expect(mic.buffer(at: MediaTime(value: 1, timescale: 100), frameCount: 480) == b)
        // 1 kHz at 48 kHz: sample 12 is the peak of the first cycle (0.5 × 32767).
        #expect(a.samples[12] == 16384 || a.samples[12] == 16383)
    }
}
