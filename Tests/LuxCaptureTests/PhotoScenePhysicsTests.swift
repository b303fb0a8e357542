import Foundation
import LuxCodecs
import LuxPixels
import LuxScene
import LuxTestSupport
import RealModule
import Testing

@testable import LuxCapture

/// The camera physics (focus, depth of field, exposure, noise, quality prioritisation) on photographic scenes.
@Suite struct PhotoScenePhysicsTests {
    /// The dog's head in `photo-portrait` (pixel (450, 380) of the 800 × 600 photograph), normalised to the frame.
    static let head = Point(x: 450.0 / 800, y: 380.0 / 600)

    @Test(
        "On photo-portrait the focus score peaks within 0.02 lens position of the dog's head's distance in the depth map (vips: mean over the AF window)",
        .needs("vips"))
    func focusPeakOnPortrait() throws {
        // The AF window is 0.12 × 0.09 frame widths around the point of interest: 23 × 17 pixels of the 192 × 144 map,
        // from (97, 83).
        let folder = try ExternalTool.temporaryFolder("lux-photo-af")
        defer { try? FileManager.default.removeItem(at: folder) }
        let crop = folder.appendingPathComponent("window.v").path
        try ExternalTool.capture(
            "vips", ["crop", try Scene.photographURL("portrait-depth.tif").path, crop, "97", "83", "23", "17"]
        ).succeeded()
        let mean = try ExternalTool.capture("vips", ["avg", crop]).succeeded().text
        let subject = try #require(Double(mean.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(subject > 0.3 && subject < 0.45, "the head is \(subject) m away")
        // A 1600 × 1200 sensor (the photograph's texels are two photosites wide): a 192 × 144 AF window.
        var configuration = SimulatedCamera.Configuration(sensor: .small(width: 1600, height: 1200))
        configuration.formats = DeviceFormat.simulatedCameraFormats(sensor: configuration.sensor)
        let camera = SimulatedCamera(
            scene: try Scene.photographic(named: "photo-portrait"), configuration: configuration)
        try camera.setFocusPointOfInterest(Self.head)
        // Lens position is linear in dioptres: 0 at 0.1 m, 1 at 5 m (ThinLens.phoneWide).
        let truth = (1 / 0.1 - 1 / subject) / (1 / 0.1 - 1 / 5.0)
        var samples: [(position: Double, score: Double)] = []
        let plan0 = camera.state.withLock { $0.beginFrame(lensSpeed: 1) }
        for k in -3...3 {
            var plan = plan0
            plan.lensPosition = truth + Double(k) * 0.02
            samples.append((plan.lensPosition, try camera.measureFocus(plan)))
        }
        let best = try #require(samples.max { $0.score < $1.score })
        #expect(abs(best.position - truth) < 0.02, "truth \(truth): \(samples)")
        #expect(abs(AutoFocus.refinedPeak(samples) - truth) < 0.02, "truth \(truth): \(samples)")
    }

    /// The spread (pixels) of a vertical edge in rows `rows` of a rendering: the standard deviation of the derivative
    /// of the row-averaged luminance profile, less the pixel's own box (1/12).
    static func edgeSigma(_ image: RadianceImage, rows: Range<Int>) -> Double {
        var profile = [Double](repeating: 0, count: image.width)
        for y in rows { for x in 0..<image.width { profile[x] += Double(image.value(x: x, y: y).y) } }
        let d = (1..<image.width).map { abs(profile[$0] - profile[$0 - 1]) }
        let total = d.reduce(0, +)
        let mean = d.enumerated().reduce(0) { $0 + Double($1.offset) * $1.element } / total
        let variance =
            d.enumerated().reduce(0) { $0 + (Double($1.offset) - mean) * (Double($1.offset) - mean) * $1.element }
            / total
        return (variance - 1.0 / 12).squareRoot()
    }

    @Test(
        "A photograph with a depth map of two distances (0.5 m and 0.5 × 255/128 m) blurs each as the thin-lens formula says"
    )
    func depthOfFieldFollowsThinLens() throws {
        let folder = try ExternalTool.temporaryFolder("lux-photo-dof")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A 1024 × 768 photograph, dark (sRGB 30) left of column 512 and light (220) right of it; its disparity map
        // white (0.5 m) on the top half and code 128 (0.5 / (128/255) m) on the bottom half.
        let w = 1024
        let h = 768
        var photo = PixelBuffer(width: w, height: h, format: .rgba8, colorSpace: .sRGB)
        var disparity = PixelBuffer(width: 64, height: 48, format: .gray8, colorSpace: .sRGB)
        photo.withUnsafeMutablePlane { plane in
            for y in 0..<h {
                let row = plane.row(y, as: UInt8.self)
                for x in 0..<w {
                    for c in 0..<3 { row[4 * x + c] = x < w / 2 ? 30 : 220 }
                    row[4 * x + 3] = 255
                }
            }
        }
        disparity.withUnsafeMutablePlane { plane in
            for y in 0..<48 { plane.row(y, as: UInt8.self).update(repeating: y < 24 ? 255 : 128, count: 64) }
        }
        let photoURL = folder.appendingPathComponent("edges.png")
        let depthURL = folder.appendingPathComponent("disparity.png")
        try ImageFile.write(photo, to: photoURL)
        try ImageFile.write(disparity, to: depthURL)
        let scene = try Scene.photograph(contentsOf: photoURL, depth: depthURL)
        #expect(scene.layers.count == 2, "\(scene.layers.map(\.distance))")
        // ThinLens.phoneWide: f = 4.25 mm, N = 1.8, focused at 0.15 m; a 1024-pixel frame on the 5.6448 mm sensor.
        let f = 4.25
        let aperture = f / 1.8
        let focus = 150.0
        let pixel = 4032 * 0.0014 / Double(w)
        let optics = RenderRequest.Optics(lens: .phoneWide, focusDistance: focus / 1000, sensorWidth: 4032 * 0.0014)
        for (distance, centreY) in [(0.5, 0.1875), (0.5 * 255 / 128, 0.5625)] {
            // c = A·|s − s_f|/s · f/(s_f − f); Lux's blur has σ = c/2.4.
            let s = distance * 1000
            let c = aperture * abs(s - focus) / s * f / (focus - f)
            let expected = c / pixel / 2.4
            var request = RenderRequest(width: 160, height: 120, optics: optics)
            request.regionSize = SIMD2(160, 120) / Double(w)
            request.regionOrigin = SIMD2(0.5, centreY) - request.regionSize / 2
            let image = try SceneRenderer(scene: scene).render(request)
            let measured = Self.edgeSigma(image, rows: 30..<90)
            #expect(abs(measured / expected - 1) < 0.05, "\(distance) m: σ \(measured) px, thin lens \(expected) px")
        }
    }

    @Test(
        "After a 4 EV change of light on photo-portrait AE is within 1/6 EV in ≤ 6 frames, never overshoots 0.25 EV, and stays put",
        arguments: [(50.0, 800.0), (800.0, 50.0)])
    func exposureConvergence(from: Double, to: Double) async throws {
        var scene = try Scene.photographic(named: "photo-portrait")
        scene.light.illuminance = from
        // A 640 × 480 sensor: AE meters the 160 × 120 stream.
        var configuration = SimulatedCamera.Configuration(sensor: .small(width: 640, height: 480))
        configuration.formats = DeviceFormat.simulatedCameraFormats(sensor: configuration.sensor)
        let camera = SimulatedCamera(scene: scene, configuration: configuration)
        camera.setFocusMode(.locked)
        _ = try await camera.run(12)
        #expect(abs(camera.status.exposureTargetOffset) < 1.0 / 6)
        scene.light.illuminance = to
        camera.scene = scene
        var offsets: [Float] = []
        for f in try await camera.run(20) { offsets.append(f.metadata.exposureTargetOffset) }
        // offsets[0] saw the change: −4 EV when the light falls; when it rises the meter clips, so it reads less.
        #expect(abs(abs(offsets[0]) - 4) < 0.3 || (to > from && offsets[0] > 2.5), "\(offsets)")
        let settled = offsets.firstIndex { abs($0) <= 1.0 / 6 } ?? 99
        #expect(settled <= 6, "\(offsets)")
        let sign = offsets[0] > 0 ? Float(1) : -1
        #expect(offsets.allSatisfy { $0 * sign > -0.25 }, "overshoot: \(offsets)")
        #expect(offsets[min(settled, offsets.count)...].allSatisfy { abs($0) <= 1.0 / 6 }, "not stable: \(offsets)")
    }

    @Test(
        "On photo-portrait the noise of two raw stills (half the variance of their difference, binned by a third) follows the DNG noise profile S·x + O at ISO 100 and 1600",
        arguments: [Float(100), 1600])
    func noiseFollowsProfile(iso: Float) async throws {
        var configuration = SimulatedCamera.Configuration(sensor: .small(width: 640, height: 480))
        configuration.formats = DeviceFormat.simulatedCameraFormats(sensor: configuration.sensor)
        let camera = SimulatedCamera(
            scene: try Scene.photographic(named: "photo-portrait"), configuration: configuration)
        camera.setFocusMode(.locked)
        _ = try await camera.run(8)  // let AE settle, then keep its exposure at the ISO asked
        let product = camera.status.exposureDuration.seconds * Double(camera.status.iso)
        let exposure = StillRequest.Exposure.manual(duration: MediaTime(seconds: product / Double(iso)), iso: iso)
        let a = try await camera.captureStill(StillRequest(exposure: exposure))
        let b = try await camera.captureStill(StillRequest(exposure: exposure))
        let c = try await camera.captureStill(StillRequest(exposure: exposure))
        #expect(a.raw.width == 640 && a.metadata.iso == iso && b.metadata.iso == iso)
        let s = camera.sensor
        let black = Double(s.blackLevel)
        let range = Double(s.whiteLevel - s.blackLevel)
        let (pa, pb, pc) = (
            a.raw.components(as: UInt16.self), b.raw.components(as: UInt16.self), c.raw.components(as: UInt16.self)
        )
        // Bin the pixels by their level in a third still (binning by a and b's own mean would pick their noise: in
        // the sparse bright bins mostly pixels pushed up); in each bin, Var(a − b)/2 is the noise variance at the
        // mean level of a and b.
        let bins = 16
        var count = [Double](repeating: 0, count: bins)
        var level = count
        var squares = count
        for i in pa.indices {
            let xa = (Double(pa[i]) - black) / range
            let xb = (Double(pb[i]) - black) / range
            let xc = (Double(pc[i]) - black) / range
            guard xc > 0, xc < 0.9 else { continue }
            let k = min(bins - 1, Int(xc / 0.9 * Double(bins)))
            count[k] += 1
            level[k] += (xa + xb) / 2
            squares[k] += (xa - xb) * (xa - xb) / 2
        }
        let profile = a.metadata.raw.noiseProfile
        var checked = 0
        for k in 0..<bins where count[k] >= 2000 {
            let x = level[k] / count[k]
            let variance = squares[k] / count[k]
            let model = profile.x * x + profile.y
            #expect(abs(variance / model - 1) < 0.1, "ISO \(iso), x \(x): variance \(variance), profile \(model)")
            checked += 1
        }
        #expect(checked >= 4, "levels with enough pixels: \(count)")
    }

    @Test("On photo-low-light, quality > balanced > speed in PSNR against the ground truth")
    func qualityRankingOnPhoto() async throws {
        let scene = try Scene.photographic(named: "photo-low-light")
        let rig = try await CaptureRig.make(scene: scene)
        try await rig.camera.setFocusModeLocked(lensPosition: 1)  // 5 m: the rocket, 100 m away, is sharp
        rig.photo.maxPhotoQualityPrioritization = .quality
        rig.photo.isHighResolutionCaptureEnabled = true
        let truth = try scene.groundTruth(
            width: 320, height: 240, colorSpace: rig.camera.activeColorSpace.colorSpace.linearized())
        var scores: [QualityPrioritization: Double] = [:]
        for level in QualityPrioritization.allCases {
            var s = PhotoSettings()
            s.qualityPrioritization = level
            s.isHighResolutionPhotoEnabled = true
            let events = try await collect(try rig.photo.capturePhoto(s))
            #expect(events[0].resolvedSettings.processing.isLowLight)
            scores[level] = try QualityPrioritizationTests.psnr(
                try #require(events.photos.first?.pixelBuffer), truth: truth)
        }
        let s = try #require(scores[.speed])
        let b = try #require(scores[.balanced])
        let q = try #require(scores[.quality])
        print("photo-low-light PSNR: speed \(s) dB, balanced \(b) dB, quality \(q) dB")
        #expect(b > s + 1 && q > b, "speed \(s) dB, balanced \(b) dB, quality \(q) dB")
    }
}
