import Foundation
import LuxColor
import LuxFusion
import LuxPixels
import LuxRender
import LuxTestSupport
import Synchronization
import Testing

/// The `Image` operations: lazy recipes that compute on first render, judged by the same oracles as the buffer
/// operations (scene truth, the brute-force shift measurement) and by what laziness promises (no work before a
/// render, one computation for any number of tiles and renders, regions equal to the whole image's).
@Suite struct ImageOperationTests {
    /// A provider serving a buffer and counting the regions asked of it.
    final class CountingProvider: ImageProvider, Sendable {
        let buffer: PixelBuffer
        let calls = Atomic<Int>(0)
        let pixels = Atomic<Int>(0)
        var width: Int { buffer.width }
        var height: Int { buffer.height }
        var format: PixelFormat { buffer.format }
        var colorSpace: ColorSpace? { buffer.colorSpace }
        var identifier: String { "counting \(ObjectIdentifier(self))" }

        init(_ buffer: PixelBuffer) { self.buffer = buffer }

        func provide(_ output: ImageProcessorOutput) throws {
            calls.add(1, ordering: .relaxed)
            pixels.add(output.width * output.height, ordering: .relaxed)
            let bpp = format.bytesPerPixel()
            buffer.withUnsafePlane { p in
                for j in 0..<output.height {
                    output.row(j, as: UInt8.self).update(
                        from: p.row(Int(output.region.minY) + j, as: UInt8.self) + Int(output.region.minX) * bpp,
                        count: output.width * bpp)
                }
            }
        }
    }

    static func channel(_ b: PixelBuffer, _ c: Int) -> [Float] {
        let f = b.format == .rgbaFloat ? b : b.converted(to: .rgbaFloat)
        let v = f.components(as: Float.self)
        return (0..<(b.width * b.height)).map { v[4 * $0 + c] }
    }

    /// Exposure fusion of images equals the buffer fusion of the same frames (in 16 bits, clamped to 0…1),
    /// computes nothing until rendered, computes once for several tiles and renders, and renders a region equal to
    /// that region of the whole; a translated extent carries through.
    @Test(.enabled(if: ExternalTool.isAvailable("djpeg"), "needs djpeg"))
    func exposureFusionIsLazyAndMatchesBuffers() throws {
        let (w, h) = ExposureFusionTests.size
        let frames = try ExposureFusionTests.testBrackets().map {
            ExposureFusionTests.buffer($0, width: w, height: h, format: .rgbaFloat)
        }
        let providers = frames.map(CountingProvider.init)
        let fused = try ExposureFusion().fuse(providers.map { Image(provider: $0) })
        #expect(fused.extent == Rect(width: w, height: h))
        #expect(providers.allSatisfy { $0.calls.load(ordering: .relaxed) == 0 })

        let context = RenderContext(options: RenderOptions(tileSize: 256))
        let whole = try context.createBuffer(fused, format: .rgbaFloat, colorSpace: .sRGB)
        let callsAfterFirst = providers.map { $0.calls.load(ordering: .relaxed) }
        #expect(callsAfterFirst.allSatisfy { $0 > 0 })
        let region = Rect(x: 300, y: 100, width: 200, height: 150)
        let part = try context.createBuffer(fused, from: region, format: .rgbaFloat, colorSpace: .sRGB)
        #expect(providers.map { $0.calls.load(ordering: .relaxed) } == callsAfterFirst)
        let wholeRegion = try whole.view(x: 300, y: 100, width: 200, height: 150).converted(to: .rgbaFloat)
        #expect(part.components(as: Float.self) == wholeRegion.components(as: Float.self), "region differs")

        let expected = try ExposureFusion().fuse(frames.map { $0.converted(to: .rgba16) })
        var worst: Float = 0
        var sum: Double = 0
        for c in 0..<3 {
            let a = Self.channel(whole, c)
            let b = Self.channel(expected, c)
            for i in a.indices {
                worst = max(worst, abs(a[i] - b[i]))
                sum += Double(abs(a[i] - b[i]))
            }
        }
        print("Image vs buffer exposure fusion: max |Δ| \(worst), mean \(sum / Double(3 * w * h))")
        #expect(worst < 0.01)
        #expect(sum / Double(3 * w * h) < 1e-3)

        // Frames placed elsewhere fuse to the same pixels there.
        let moved = try ExposureFusion().fuse(
            frames.map { Image(provider: CountingProvider($0)).translatedBy(x: 40, y: -8) })
        #expect(moved.extent == Rect(x: 40, y: -8, width: Double(w), height: Double(h)))
        let movedPart = try RenderContext().createBuffer(
            moved, from: Rect(x: 340, y: 92, width: 200, height: 150), format: .rgbaFloat, colorSpace: .sRGB)
        let movedDifferences = zip(movedPart.components(as: Float.self), part.components(as: Float.self))
            .map { abs($0 - $1) }
        let movedMean = movedDifferences.reduce(0, +) / Float(movedDifferences.count)
        print("translated frames: max |Δ| \(movedDifferences.max()!), mean \(movedMean)")
        #expect(movedDifferences.max()! < 0.01)
        #expect(movedMean < 1e-4)
    }

    /// A linear RGB burst merged as images beats the best single frame against the scene truth like the buffer merge
    /// (≥ 5.5 dB per channel for 6 frames, ideal 7.78).
    @Test(.enabled(if: BurstMergeTests.scene != nil, "needs djpeg and the test photograph"))
    func burstMergeOfImagesGainsOverSingleFrames() throws {
        let (frames, clean) = try #require(BurstMergeTests.rgbBurst)
        let images = frames.map { Image(buffer: $0, colorSpace: .extendedLinearSRGB) }
        let merged = try BurstMerge(settings: .quality).merge(images, noise: BurstMergeTests.lowLight.noise)
        let out = try RenderContext().createBuffer(merged, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        let inside = Quality.interior(320, 240, border: 12)
        for c in 0..<3 {
            let best = frames.indices.map { k in Quality.psnr(Self.channel(frames[k], c), clean[k][c], where: inside) }
                .max()!
            // `.quality` picks the sharpest of the first three frames as reference: compare with each, keep the best.
            let gain = (0..<3).map { r in Quality.psnr(Self.channel(out, c), clean[r][c], where: inside) }.max()! - best
            print("Image burst merge channel \(c): gain \(gain) dB")
            #expect(gain >= 5.5)
        }
    }

    /// HDR merge and tone mapping as images: the merged radiance beats every single exposure against the scene truth
    /// in the window and in the interior, and the tone-mapped image renders to 8-bit sRGB.
    @Test(.enabled(if: HDRMergeTests.scene != nil, "needs djpeg and the test photograph"))
    func hdrMergeOfImagesBeatsEveryExposure() throws {
        let (brackets, truth, singles) = try HDRMergeTests.rgbBracket()
        var settings = HDRMerge.Settings()
        settings.alignment = nil  // tripod
        let hdr = try HDRMerge(settings: settings).merge(
            brackets.map { Image(buffer: $0.frame) }, exposures: HDRMergeTests.durations,
            noise: brackets.map(\.noise))
        let radiance = try RenderContext().createBuffer(hdr, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        for c in 0..<3 {
            let merged = Self.channel(radiance, c)
            let mw = psnr(merged, truth[c], where: HDRMergeTests.inWindow)
            let mi = psnr(merged, truth[c], where: HDRMergeTests.inInterior)
            let sw = singles.map { psnr($0[c], truth[c], where: HDRMergeTests.inWindow) }.max()!
            let si = singles.map { psnr($0[c], truth[c], where: HDRMergeTests.inInterior) }.max()!
            print("Image HDR channel \(c): window \(mw) vs best single \(sw); interior \(mi) vs \(si)")
            #expect(mw > sw)
            #expect(mi > si)
        }
        let display = try HDRToneMapper().map(hdr)
        let shown = try RenderContext().createBuffer(display, format: .rgba8, colorSpace: .sRGB)
        #expect(shown.width == HDRMergeTests.w && shown.height == HDRMergeTests.h)
        // Detail survives in both regions: the rendered luma varies inside the window and inside the interior.
        let luma = Quality.luma(shown)
        func spread(_ mask: (Int) -> Bool) -> Double {
            let v = luma.indices.filter(mask).map { luma[$0] }
            let m = v.reduce(0, +) / Double(v.count)
            return (v.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(v.count)).squareRoot()
        }
        #expect(spread(HDRMergeTests.inWindow) > 0.05)
        #expect(spread(HDRMergeTests.inInterior) > 0.05)
    }

    /// A stabilised frame as an image lands where the buffer warp puts it: the brute-force shift between the two
    /// renderings is below 0.05 px and their codes agree on average within one level.
    @Test(.enabled(if: StabilizationTests.scene != nil, "needs djpeg and the test photograph"))
    func stabilizedImageMatchesWarp() throws {
        let (frames, _) = try #require(StabilizationTests.sequence)
        let plan = try #require(StabilizationTests.plan)
        let stabilizer = VideoStabilizer()
        let warped = try stabilizer.render([frames[7], frames[21]], plan: plan.subset([7, 21]))
        for (n, i) in [7, 21].enumerated() {
            let image = try stabilizer.stabilized(Image(buffer: frames[i]), at: i, plan: plan)
            #expect(image.extent == Rect(width: plan.outputWidth, height: plan.outputHeight))
            let shown = try RenderContext().createBuffer(image, format: .rgba8, colorSpace: .sRGB)
            let shift = StabilizationTests.measureShift(shown, warped[n])
            let a = shown.components(as: UInt8.self)
            let b = warped[n].components(as: UInt8.self)
            let mean = zip(a, b).map { abs(Double($0) - Double($1)) }.reduce(0, +) / Double(a.count)
            print("frame \(i): Image vs warp shift \(shift), mean |Δ| \(mean) codes")
            #expect(abs(shift.x) < 0.05 && abs(shift.y) < 0.05)
            #expect(mean < 1)
        }
        #expect(throws: FusionError.self) { try stabilizer.stabilized(Image(buffer: frames[0]), at: 99, plan: plan) }
    }

    /// Reinhard with a given exposure and white point is a per-pixel kernel: rendering a crop reads only that crop of
    /// the radiance, and the result equals the buffer mapper's within one 8-bit code.
    @Test func reinhardWithKnownParametersIsPerPixel() throws {
        let (w, h) = (300, 200)
        var comps = [Float](repeating: 1, count: 4 * w * h)
        for y in 0..<h {
            for x in 0..<w {
                // Radiance from 0 to 12 across, with a colour tilt down the frame.
                let v = Float(x) / Float(w - 1) * 12
                let t = Float(y) / Float(h - 1)
                comps[4 * (y * w + x)] = v * (0.5 + t)
                comps[4 * (y * w + x) + 1] = v
                comps[4 * (y * w + x) + 2] = v * (1.5 - t)
            }
        }
        let hdr = PixelBuffer(
            width: w, height: h, format: .rgbaFloat, components: comps, colorSpace: .extendedLinearSRGB)
        let settings = HDRToneMapper.Settings(method: .reinhard(whitePoint: 6), exposure: -0.5)
        let expected = try HDRToneMapper(settings: settings).map(hdr)
        let provider = CountingProvider(hdr)
        let mapped = try HDRToneMapper(settings: settings).map(Image(provider: provider))
        #expect(provider.calls.load(ordering: .relaxed) == 0)
        let crop = try RenderContext().createBuffer(
            mapped, from: Rect(x: 200, y: 50, width: 64, height: 64), format: .rgba8, colorSpace: .sRGB)
        #expect(provider.pixels.load(ordering: .relaxed) == 64 * 64)
        let whole = try RenderContext().createBuffer(mapped, format: .rgba8, colorSpace: .sRGB)
        let a = whole.components(as: UInt8.self)
        let b = expected.components(as: UInt8.self)
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max()!
        #expect(worst <= 1)
        let c = crop.components(as: UInt8.self)
        #expect(
            (0..<64).allSatisfy { j in
                (0..<(4 * 64)).allSatisfy { i in c[j * 4 * 64 + i] == a[(50 + j) * 4 * w + 4 * 200 + i] }
            })
    }

    /// Bad recipes fail when built, with typed errors.
    @Test func badImagesThrow() throws {
        let a = Image(buffer: PixelBuffer(width: 64, height: 64, format: .rgbaFloat))
        let b = Image(buffer: PixelBuffer(width: 64, height: 32, format: .rgbaFloat))
        #expect(throws: FusionError.notEnoughFrames(count: 0, minimum: 1)) { try ExposureFusion().fuse([] as [Image]) }
        #expect(throws: FusionError.self) { try ExposureFusion().fuse([a, b]) }
        #expect(throws: FusionError.self) {
            try ExposureFusion().fuse([Image(color: Color(red: 1, green: 0, blue: 0))])
        }
        #expect(throws: FusionError.self) {
            try ExposureFusion().fuse([a.cropped(to: Rect(x: 0, y: 0, width: 8, height: 8))])
        }
        #expect(throws: FusionError.self) { try BurstMerge().merge([a, a], colorSpace: .sRGB) }
        #expect(throws: FusionError.self) { try HDRMerge().merge([a, a], exposures: [1]) }
        #expect(throws: FusionError.self) { try HDRMerge().merge([a, a], exposures: [1, 0]) }
        #expect(throws: FusionError.self) { try HDRToneMapper(settings: .init(exposure: .nan)).map(a) }
        #expect(throws: FusionError.self) { try HDRToneMapper(settings: .init(outputFormat: .gray8)).map(a) }
    }
}

extension VideoStabilizer.Plan {
    /// The plan of some of its frames.
    func subset(_ indices: [Int]) -> VideoStabilizer.Plan {
        var p = self
        p.transforms = indices.map { transforms[$0] }
        return p
    }
}
