import Foundation
import Lux
import LuxTestSupport
import Testing

/// The snippets of the module catalogues (Sources/<Module>/Documentation.docc), each run on real data.
@Suite struct ModuleCatalogueSnippets {
    // MARK: LuxCodecs

    @Test func luxCodecsOverview() throws {
        let folder = try temporaryFolder()
        try copy("livephoto/iphone6s_livephoto_train.jpg", into: folder, as: "IMG_0001.JPG")
        try copy("raw/canon_eos550d_magiclantern_14bit.dng", into: folder, as: "photo.dng")

        let photo = try ImageFile.read(url: folder.appending(path: "IMG_0001.JPG"))
        print(photo.pixels.width, photo.pixels.colorSpace?.name ?? "-", photo.metadata.exif.model ?? "")

        var options = EncodingOptions(quality: 0.85)
        options.optimizesColorForSharing = true  // Display P3 → sRGB for receivers without colour management
        try ImageFile.write(photo, to: folder.appending(path: "shared.jpg"), options: options)

        let info = try ImageFile.info(url: folder.appending(path: "photo.dng"))  // headers only, no pixel decode
        print(info.raw?.cfaPattern ?? "-", info.raw?.blackLevel ?? "-", info.raw?.whiteLevel ?? [])

        // exiftool: Camera Model Name "iPhone 6s", 4032x3024; the DNG: RGGB, black 2056, white 15000.
        #expect(photo.pixels.width == 4032 && photo.pixels.height == 3024)
        #expect(photo.metadata.exif.model == "iPhone 6s")
        #expect(try ImageFile.info(url: folder.appending(path: "shared.jpg")).width == 4032)
        #expect(info.raw?.whiteLevel == [15000])
    }

    @Test func workingWithRawFilesReading() throws {
        let url = testData("raw/canon_eos550d_magiclantern_14bit.dng")

        let raw = try ImageFile.read(url: url).rawImage!
        raw.pixels.format  // .bayer16(.rggb) — the pattern at stored pixel (0, 0)
        raw.properties.cfaPattern  // the pattern at the active area's origin, as DNG defines it
        raw.activeArea  // the part with real sensor data; raw.activePixels is a zero-copy view of it
        raw.blackLevel.value(row: 0, column: 0)
        raw.whiteLevel  // per sample plane
        raw.linearizationTable  // apply before black subtraction when present
        raw.color.colorMatrix2  // XYZ → camera under raw.color.calibrationIlluminant2
        raw.color.asShotNeutral
        raw.opcodeList3  // typed WarpRectilinear / FixVignetteRadial / GainMap, others opaque

        // LuxColor's DNG camera model, built from the colour tags:
        let calibration = raw.color.cameraColorCalibration!
        let cameraToXYZD50 = try calibration.cameraToXYZD50(neutral: raw.color.sceneNeutral!)

        // exiftool: CFA [Red,Green][Green,Blue], black 2056, white 15000, AsShotNeutral 1 2.477 1.462.
        #expect(raw.properties.cfaPattern == .rggb)
        #expect(raw.blackLevel.value(row: 0, column: 0) == 2056)
        #expect(raw.whiteLevel == [15000])
        #expect(abs((raw.color.asShotNeutral ?? [])[1] - 2.477) < 1e-3)
        // The camera neutral maps to the D50 white (Y = 1 after normalisation, x ≈ 0.3457).
        let white = cameraToXYZD50 * SIMD3(raw.color.sceneNeutral!)
        #expect(abs(white.x / white.y - 0.9642) < 0.01 && abs(white.z / white.y - 0.8249) < 0.01)
    }

    @Test(.needs("exiftool")) func workingWithRawFilesWriting() throws {
        let folder = try temporaryFolder()
        // The simulated sensor's matrices (measured from its spectral sensitivities) and a synthetic 14-bit mosaic.
        let sensor = smallCamera().calibration
        let xyzToCameraUnderA = sensor.colorMatrix1
        let xyzToCameraUnderD65 = sensor.colorMatrix2
        var bayerFrame = PixelBuffer(width: 4032, height: 3024, format: .bayer16(.rggb))
        bayerFrame.withUnsafeMutablePlane(0) { p in
            let rows = p.baseAddress
            for y in 0..<3024 {
                let row = (rows + y * p.bytesPerRow).assumingMemoryBound(to: UInt16.self)
                for x in 0..<4032 { row[x] = UInt16(512 + (x + y) % 4000) }
            }
        }
        let developedPicture = gradient(width: 256, height: 192, format: .rgba8)

        var props = RawProperties(width: 4032, height: 3024, cfa: .rggb, blackLevel: BlackLevel(512), whiteLevel: 16383)
        props.make = "Lux"
        props.model = "Simulated Camera"
        props.uniqueCameraModel = "Lux Simulated Camera"
        props.color = ColorCalibration(
            colorMatrix1: xyzToCameraUnderA, calibrationIlluminant1: .standardA,
            colorMatrix2: xyzToCameraUnderD65, calibrationIlluminant2: .d65, asShotNeutral: [0.52, 1, 0.71])
        props.noiseProfile = NoiseProfile(gain: 0.8, readNoise: 2.5, black: 512, white: 16383, planes: 3)
        props.exif.exposureTime = Rational(1, 120)
        props.exif.isoSpeed = 100
        let raw = RawImage(pixels: bayerFrame, properties: props, renderedPreview: developedPicture)
        try ImageFile.write(raw, to: folder.appending(path: "IMG_0001.DNG"))

        let back = try ImageFile.read(url: folder.appending(path: "IMG_0001.DNG")).rawImage!
        #expect(back.pixels.width == 4032 && back.properties.model == "Simulated Camera")
        #expect(back.pixels.pixel(x: 7, y: 3) == bayerFrame.pixel(x: 7, y: 3))
        let out = try ExternalTool.run(
            "exiftool", ["-s3", "-UniqueCameraModel", folder.appending(path: "IMG_0001.DNG").path])
        #expect(String(decoding: out.output, as: UTF8.self).contains("Lux Simulated Camera"))
    }

    @Test(.needs("ffprobe")) func writingLivePhotoMovies() throws {
        let folder = try temporaryFolder()
        let identifier = UUID().uuidString
        let frames = (0..<6).map { _ in gradient(width: 1440, height: 1080, format: .rgba8) }
        let samples = [Int16](repeating: 0, count: 44_100 / 5)

        let writer = try QuickTimeWriter(
            writingTo: folder.appending(path: "IMG_0001.MOV"),
            settings: .init(
                video: .init(width: 1440, height: 1080),
                audio: .init(sampleRate: 44_100, channelCount: 1),
                metadata: [
                    MovieMetadataItem(key: .contentIdentifier, value: .string(identifier)),
                    MovieMetadataItem(key: .author, value: "Brad Ford"),
                ]))
        for (i, frame) in frames.enumerated() {
            try writer.appendVideoFrame(frame, at: MediaTime(value: Int64(i), timescale: 30))
        }
        try writer.appendAudio(samples)
        try writer.setStillImageTime(MediaTime(value: 3, timescale: 2))
        try writer.finish()

        let movie = try QuickTimeMovie(contentsOf: folder.appending(path: "IMG_0001.MOV"))
        #expect(movie.contentIdentifier == identifier)
        let out = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                folder.appending(path: "IMG_0001.MOV").path,
            ])
        #expect(String(decoding: out.output, as: UTF8.self).split(separator: "\n").prefix(2) == ["h264", "aac"])
    }

    // MARK: LuxColor

    @Test func iccProfiles() throws {
        let bytes = try ColorSpace.displayP3.iccProfile().data

        let profile = try ICCProfile(data: bytes)
        profile.profileDescription  // "Display P3"
        profile.version  // .v4 (profile.majorVersion 4, profile.minorVersion 0)
        profile.deviceClass  // .display ('mntr')
        profile.dataColorSpace  // .rgb

        #expect(profile.profileDescription == "Display P3")
        #expect(profile.majorVersion == 4 && profile.deviceClass == .display && profile.dataColorSpace == .rgb)
    }

    @Test func luxColorOverview() throws {
        let embeddedBytes = try ColorSpace.displayP3.iccProfile().data
        let width = 2
        let row: [UInt8] = [255, 0, 0, 255, 255, 255, 255, 255]
        var output = [UInt8](repeating: 0, count: 8)
        let canon = try #require(try ImageFile.read(url: testData("raw/canon_eos550d_magiclantern_14bit.dng")).rawImage)
        let camera = try #require(canon.color.cameraColorCalibration)

        let profile = try ICCProfile(data: embeddedBytes)
        let source = try profile.colorSpace()  // e.g. .displayP3
        let toSRGB = try ColorConverter(from: source, to: .sRGB)
        toSRGB.convert(rgba8: row, into: &output, count: width)

        let white = TemperatureAndTint(temperature: 5600, tint: 4)
        let gains = try camera.whiteBalanceGains(for: white)  // R, G, B ≥ 1

        // P3 red is outside sRGB: red clips at 255, green and blue at 0; white stays white.
        #expect(output == [255, 0, 0, 255, 255, 255, 255, 255])
        #expect(min(gains.red, gains.green, gains.blue) >= 1 - 1e-9)
    }

    @Test func whiteBalanceTemperature() {
        let d65 = TemperatureAndTint(chromaticity: WhitePoint.d65)  // 6504.3 K, tint +9.6
        let tungsten = TemperatureAndTint(temperature: 3200).chromaticity

        #expect(abs(d65.temperature - 6504) < 2)
        // The Planckian locus at 3200 K (CIE 1960 uv ≈ (0.2236, 0.3283) → xy ≈ (0.4234, 0.3990)).
        #expect(abs(tungsten.x - 0.4234) < 0.002 && abs(tungsten.y - 0.3990) < 0.002)
    }

    @Test func whiteBalanceCamera() throws {
        let sensor = smallCamera().calibration  // measured from the simulated sensor's spectral sensitivities
        let colorMatrixA = sensor.colorMatrix1
        let colorMatrixD65 = sensor.colorMatrix2

        let camera = CameraColorCalibration(
            .init(temperature: 2856, colorMatrix: colorMatrixA),
            .init(temperature: 6504, colorMatrix: colorMatrixD65))
        let gains = try camera.whiteBalanceGains(for: TemperatureAndTint(temperature: 5000))
        let white = try camera.temperatureAndTint(for: gains)  // back to 5000 K
        let cameraToXYZ = try camera.cameraToXYZD50(neutral: gains.neutral)

        #expect(abs(white.temperature - 5000) < 5 && abs(white.tint) < 0.5)
        let xyz = cameraToXYZ * gains.neutral
        #expect(abs(xyz.x / xyz.y - 0.9642) < 0.01)
    }

    // MARK: LuxFilters, LuxRender, LuxScene, LuxFusion

    @Test func luxFiltersOverview() throws {
        let photo = Image(buffer: gradient())
        func load(_ path: String) throws -> Image { try Image(contentsOf: URL(fileURLWithPath: path)) }

        let a = photo.sepiaTone(intensity: 0.8).gaussianBlur(radius: 4)
        let b = try photo.applyingFilter("SepiaTone", parameters: ["intensity": 0.8])
            .applyingFilter("GaussianBlur", parameters: ["radius": 4])
        let c = try FilterChain(parsing: "SepiaTone intensity=0.8 | GaussianBlur radius=4")
            .apply(to: photo, registry: .builtIn) { path in try load(path) }

        // Three spellings of one recipe render the same pixels.
        let context = RenderContext()
        let pa = try context.createBuffer(a, from: photo.extent, format: .rgbaFloat)
        #expect(
            try context.createBuffer(b, from: photo.extent, format: .rgbaFloat).pixel(x: 40, y: 30)
                == pa.pixel(x: 40, y: 30))
        #expect(
            try context.createBuffer(c, from: photo.extent, format: .rgbaFloat).pixel(x: 40, y: 30)
                == pa.pixel(x: 40, y: 30))
    }

    @Test func luxRenderOverview() throws {
        let decoded = gradient(width: 1600, height: 1000, format: .rgba8)
        let myKernel = ColorKernel(name: "darken", preservesAlpha: true) { row in
            let p = row.pixels
            for i in 0..<row.count {
                p.red[i] *= 0.6
                p.green[i] *= 0.6
                p.blue[i] *= 0.6
            }
        }

        let context = RenderContext()
        let photo = Image(buffer: decoded)  // sRGB → working space
        let look = photo.applying(myKernel, arguments: "strength=0.4")
            .transformed(by: AffineTransform(rotationAngle: 0.1))
            .cropped(to: Rect(x: 0, y: 0, width: 1200, height: 800))
        let out = try context.createBuffer(look, format: .rgba8, colorSpace: .displayP3)

        #expect(out.width == 1200 && out.height == 800 && out.colorSpace == .displayP3)
    }

    @Test func luxSceneOverview() throws {
        let scene = Scene.stillLife(light: Light(.planckian(kelvin: 3000), lux: 200))
        let truth = try scene.groundTruth(width: 1024)  // sRGB, white-balanced to D65
        let lens = ThinLens.phoneWide
        lens.depthOfField(focusDistance: 1)  // near…far in metres

        #expect(truth.width == 1024 && truth.colorSpace?.name == ColorSpace.sRGB.name)
        let dof = lens.depthOfField(focusDistance: 1)
        #expect(dof.lowerBound < 1 && dof.upperBound > 1)
    }

    @Test func luxFusionBurst() throws {
        // Eight noisy captures of a flat grey field (Poisson + read noise), 14-bit levels.
        var rng = SplitMix(seed: 7)
        let frames = (0..<8).map { _ -> PixelBuffer in
            var b = PixelBuffer(width: 256, height: 192, format: .bayer16(.rggb))
            b.withUnsafeMutablePlane(0) { p in
                for y in 0..<192 {
                    let row = (p.baseAddress + y * p.bytesPerRow).assumingMemoryBound(to: UInt16.self)
                    for x in 0..<256 { row[x] = UInt16(1024 + 4000 + Int((rng.unit() - 0.5) * 200)) }
                }
            }
            return b
        }

        // The quality level: 8 Bayer frames from the capture pool, their levels and noise.
        let model = RawNoiseModel(
            blackLevel: 1024, whiteLevel: 16383,
            noise: NoiseProfile(scale: 5.2e-3, offset: 1.1e-3))
        let merged = try BurstMerge(settings: .quality).merge(frames, rawModel: model)
        // merged.output: Bayer16, black 4096, white 65535 (merged.rawModel), ≈ 1/8 of the noise variance.

        #expect(merged.output.width == 256 && merged.rawModel?.whiteLevel == 65535)
    }

    @Test func luxFusionExposure() throws {
        let base = gradient(width: 320, height: 240)
        func scaled(_ k: Float) -> PixelBuffer {
            var b = base
            for y in 0..<240 {
                for x in 0..<320 {
                    var p = b.pixel(x: x, y: y)
                    p.x *= k
                    p.y *= k
                    p.z *= k
                    b.setPixel(p, x: x, y: y)
                }
            }
            return b
        }
        let under = scaled(0.25)
        let normal = base
        let over = scaled(1)
        let faceRect = Rect(x: 100, y: 80, width: 64, height: 64)

        let brackets = [under, normal, over].map { Image(buffer: $0) }
        let fused = try ExposureFusion().fuse(brackets)  // nothing computed yet
        let face = try RenderContext().createBuffer(fused.cropped(to: faceRect), format: .rgba8)

        #expect(face.width == 64 && face.height == 64)
    }

    // MARK: LuxCapture, LuxRAW, LuxLive

    @Test func luxCaptureOverview() async throws {
        let camera = SimulatedCamera(scene: .stillLife())
        try await camera.startStreaming()
        let sync = try await camera.setFocusModeLocked(lensPosition: 0.3)  // time of the first frame at 0.3
        try await camera.setExposureTargetBias(-1)
        for try await frame in camera.frames() where frame.presentationTime >= sync { break }
        let still = try await camera.captureStill(StillRequest(exposure: .auto(bias: 1)))
        still.metadata.raw.calibration.colorMatrix2  // honest DNG ColorMatrix2

        #expect(still.raw.width == 4032 && still.raw.height == 3024)
        #expect(still.metadata.lensPosition == 0.3)
        #expect(still.metadata.raw.calibration.illuminant2 == camera.calibration.illuminant2)
    }

    @Test func luxRAWOverview() throws {
        let folder = try temporaryFolder()
        try copy("raw/canon_eos550d_magiclantern_14bit.dng", into: folder, as: "IMG_0001.dng")

        var developer = try RAWDeveloper(url: folder.appending(path: "IMG_0001.dng"))
        developer.exposure = 0.3  // EV on top of the file's BaselineExposure
        developer.neutralTemperature = 5200  // white balance; the as-shot value is the default
        let image = try developer.outputImage  // oriented, cropped, extended-range; nothing rendered yet

        let context = RenderContext()
        let p3 = try context.createBuffer(image, format: .rgba16, colorSpace: .displayP3)

        #expect(p3.width == Int(image.extent.width) && p3.colorSpace == .displayP3)
    }

    @Test func luxLiveOverview() throws {
        let folder = try temporaryFolder()
        try copy("livephoto/iphone6s_livephoto_train.jpg", into: folder, as: "IMG_0001.JPG")
        try copy("livephoto/iphone6s_livephoto_train.mov", into: folder, as: "IMG_0001.MOV")

        let live = try LivePhoto(pairing: folder.appending(path: "IMG_0001.JPG"))  // IMG_0001.MOV beside it
        print(live.contentIdentifier, live.photoTime.seconds, live.duration.seconds)

        // exiftool: the movie lasts 1.23 s.
        #expect(abs(live.duration.seconds - 1.23) < 0.01 && live.contentIdentifier.count >= 32)
    }
}
