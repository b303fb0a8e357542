import Foundation
import LuxFusion
import LuxPixels
import LuxTestSupport
import Testing

/// Alignment against known camera shifts of a real photograph (the test camera in Support/ is the oracle).
///
/// The scene is seen through a lens blur of σ = 0.7 photosites (lens and anti-aliasing, applied to radiance before
/// sampling as ALGORITHMS.md §2.4 says); errors are measured on blocks the aligner calls textured (confidence
/// > 0.5) whose content stays inside the moved frame.
@Suite struct AlignmentTests {
    static let scene: LinearScene? = LinearScene.blurredPhoto
    static let w = 512
    static let h = 384
    static let base = SIMD2<Float>(240, 180)

    /// Per-block errors (pixels) of `field` against a pure translation `truth`.
    static func errors(
        _ field: AlignmentField, truth: SIMD2<Float>, width: Int, height: Int, minimumConfidence: Float = 0.5
    ) -> [Double] {
        var out: [Double] = []
        for j in 0..<field.rows {
            for i in 0..<field.columns where field.confidences[j * field.columns + i] > minimumConfidence {
                let c = field.blockCenter(column: i, row: j) + truth
                let m = Float(field.blockSize)
                guard c.x > m, c.y > m, c.x < Float(width) - m, c.y < Float(height) - m else { continue }
                let e = field.displacement(column: i, row: j) - truth
                out.append(Double((e * e).sum()))
            }
        }
        return out
    }

    static func rms(_ squared: [Double]) -> Double {
        (squared.reduce(0, +) / Double(max(squared.count, 1))).squareRoot()
    }

    /// Random hand-held jitter of up to 5 % of the width in each direction.
    static func jitter(_ rng: inout SplitMix) -> SIMD2<Float> {
        SIMD2<Float>(rng.unit() * 2 - 1, rng.unit() * 2 - 1) * 0.05 * Float(w)
    }

    /// Bayer frames, jitter up to 5 % of the width: textured blocks within 0.25 photosite RMS of the truth.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func bayerJitterWithinQuarterPixel() throws {
        let scene = try #require(Self.scene)
        let sensor = TestSensor(scale: 4e-4, offset: 1e-5)
        var rng = SplitMix(seed: 7)
        let reference = sensor.capture(
            scene.mosaic(width: Self.w, height: Self.h, pattern: .rggb, shot: Shot(offset: Self.base)),
            width: Self.w, height: Self.h, pattern: .rggb, seed: 1)
        var errors: [Double] = []
        for k in 1...3 {
            let shot = Shot(offset: Self.base + Self.jitter(&rng))
            let frame = sensor.capture(
                scene.mosaic(width: Self.w, height: Self.h, pattern: .rggb, shot: shot), width: Self.w,
                height: Self.h, pattern: .rggb, seed: UInt64(10 + k))
            let field = try TileAligner().align(frame, to: reference, rawModel: sensor.rawModel)
            #expect(field.blockSize == 16)
            errors += Self.errors(field, truth: Self.base - shot.offset, width: Self.w, height: Self.h)
        }
        print("Bayer alignment: \(errors.count) textured blocks, RMS error \(Self.rms(errors)) photosites")
        #expect(errors.count > 1000)
        #expect(Self.rms(errors) < 0.25)
    }

    /// Linear RGB frames, same jitter: within 0.25 pixel RMS.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func rgbJitterWithinQuarterPixel() throws {
        let scene = try #require(Self.scene)
        let sensor = TestSensor(scale: 4e-4, offset: 1e-5)
        var rng = SplitMix(seed: 8)
        let reference = sensor.captureRGB(
            scene.rgb(width: Self.w, height: Self.h, shot: Shot(offset: Self.base)), width: Self.w, height: Self.h,
            seed: 1)
        var errors: [Double] = []
        for k in 1...3 {
            let shot = Shot(offset: Self.base + Self.jitter(&rng))
            let frame = sensor.captureRGB(
                scene.rgb(width: Self.w, height: Self.h, shot: shot), width: Self.w, height: Self.h, seed: UInt64(k))
            let field = try TileAligner().align(frame, to: reference, noise: sensor.noise)
            #expect(field.blockSize == 8)
            errors += Self.errors(field, truth: Self.base - shot.offset, width: Self.w, height: Self.h)
        }
        print("RGB alignment: \(errors.count) textured blocks, RMS error \(Self.rms(errors)) px")
        #expect(errors.count > 3000)
        #expect(Self.rms(errors) < 0.25)
    }

    /// High ISO (HDR+'s noise model at ISO 1600, S = 5.2e-3, O = 1.1e-3, with the scene half a stop under: SNR ≈ 2.5
    /// per photosite at the median level): the better-textured half of the blocks, chosen from the clean scene by
    /// the test, still align to within half a photosite RMS without gross failures.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func highISOStaysAligned() throws {
        let scene = try #require(Self.scene)
        let sensor = TestSensor(scale: 5.2e-3, offset: 1.1e-3)
        var rng = SplitMix(seed: 9)
        let exposure: Float = 0.5
        let clean = scene.mosaic(
            width: Self.w, height: Self.h, pattern: .grbg, shot: Shot(offset: Self.base, exposure: exposure))
        let textured = Self.texturedBlocks(clean, width: Self.w, height: Self.h, block: 16)
        let reference = sensor.capture(clean, width: Self.w, height: Self.h, pattern: .grbg, seed: 1)
        var errors: [Double] = []
        for k in 1...3 {
            let shot = Shot(offset: Self.base + Self.jitter(&rng), exposure: exposure)
            let frame = sensor.capture(
                scene.mosaic(width: Self.w, height: Self.h, pattern: .grbg, shot: shot), width: Self.w,
                height: Self.h, pattern: .grbg, seed: UInt64(20 + k))
            var field = try TileAligner().align(frame, to: reference, rawModel: sensor.rawModel)
            field = AlignmentField(
                blockSize: field.blockSize, columns: field.columns, rows: field.rows,
                displacements: field.displacements, confidences: textured.map { $0 ? 1 : 0 })
            errors += Self.errors(field, truth: Self.base - shot.offset, width: Self.w, height: Self.h)
        }
        let sorted = errors.sorted()
        let p99 = sorted[sorted.count * 99 / 100].squareRoot()
        print("High-ISO alignment: \(errors.count) textured blocks, RMS \(Self.rms(errors)), 99th percentile \(p99)")
        #expect(errors.count > 600)
        #expect(Self.rms(errors) < 0.5)
        #expect(p99 < 1.5)
    }

    /// Blocks whose clean texture (smaller eigenvalue of the structure tensor of the quad-mean grey, over the
    /// block's 2× larger tile) is above the median: the test's own definition of "textured".
    static func texturedBlocks(_ mosaic: [Float], width: Int, height: Int, block: Int) -> [Bool] {
        let gw = width / 2
        let gh = height / 2
        var grey = [Double](repeating: 0, count: gw * gh)
        for y in 0..<gh {
            for x in 0..<gw {
                grey[y * gw + x] =
                    Double(
                        mosaic[2 * y * width + 2 * x] + mosaic[2 * y * width + 2 * x + 1]
                            + mosaic[(2 * y + 1) * width + 2 * x] + mosaic[(2 * y + 1) * width + 2 * x + 1]) / 4
            }
        }
        let b = block / 2
        let cols = (gw + b - 1) / b
        let rows = (gh + b - 1) / b
        var lambdas: [Double] = []
        for j in 0..<rows {
            for i in 0..<cols {
                var a = 0.0
                var c = 0.0
                var d = 0.0
                for y in max(j * b - b / 2, 1)..<min(j * b + b + b / 2, gh - 1) {
                    for x in max(i * b - b / 2, 1)..<min(i * b + b + b / 2, gw - 1) {
                        let gx = (grey[y * gw + x + 1] - grey[y * gw + x - 1]) / 2
                        let gy = (grey[(y + 1) * gw + x] - grey[(y - 1) * gw + x]) / 2
                        a += gx * gx
                        c += gx * gy
                        d += gy * gy
                    }
                }
                lambdas.append((a + d) / 2 - (((a - d) / 2) * ((a - d) / 2) + c * c).squareRoot())
            }
        }
        let median = lambdas.sorted()[lambdas.count / 2]
        return lambdas.map { $0 > median }
    }

    /// A rotated, shifted frame with a moving object: the robust similarity fit recovers the camera motion and
    /// leaves the object's blocks out.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func similarityFitIgnoresMovingObject() throws {
        let scene = try #require(Self.scene)
        let sensor = TestSensor(scale: 4e-4, offset: 1e-5)
        let angle: Float = 0.6 * .pi / 180
        let disc = MovingDisc(center: SIMD2(300, 200), velocity: SIMD2(14, -9), radius: 60, color: SIMD3(0.8, 0.5, 0.2))
        let reference = sensor.captureRGB(
            scene.rgb(width: Self.w, height: Self.h, shot: Shot(offset: Self.base, discs: [disc])), width: Self.w,
            height: Self.h, seed: 3)
        let shot = Shot(offset: Self.base + SIMD2(-11.3, 6.6), rotation: angle, discs: [disc], frameIndex: 1)
        let frame = sensor.captureRGB(
            scene.rgb(width: Self.w, height: Self.h, shot: shot), width: Self.w, height: Self.h, seed: 4)
        let field = try TileAligner().align(frame, to: reference, noise: sensor.noise)
        let motion = GlobalMotion(fitting: field, model: .similarity)
        // Truth: frame pixel q sees scene R(q − c) + c + o₁; the reference pixel p sees p + o₀.
        // So q = R⁻¹(p + o₀ − o₁ − c) + c.
        let c = SIMD2<Double>(Double(Self.w) / 2, Double(Self.h) / 2)
        let d = SIMD2<Double>(Double(Self.base.x - shot.offset.x), Double(Self.base.y - shot.offset.y))
        var worst = 0.0
        for p in [SIMD2<Double>(50, 50), SIMD2(460, 60), SIMD2(256, 192), SIMD2(60, 330), SIMD2(470, 340)] {
            let u = p + d - c
            let ca = Double(cos(angle))
            let sa = Double(sin(angle))
            let q = SIMD2(ca * u.x + sa * u.y, -sa * u.x + ca * u.y) + c
            let m = motion.transform.apply(to: Point(x: p.x, y: p.y))
            worst = max(worst, ((m.x - q.x) * (m.x - q.x) + (m.y - q.y) * (m.y - q.y)).squareRoot())
        }
        print(
            "similarity: rotation \(motion.rotation * 180 / .pi)°, scale \(motion.scale), worst error \(worst) px, inliers \(motion.inlierFraction)"
        )
        #expect(abs(motion.rotation + Double(angle)) < 0.02 * .pi / 180)
        #expect(abs(motion.scale - 1) < 5e-4)
        #expect(worst < 0.15)
        #expect(motion.inlierFraction < 0.97)
        #expect(motion.inlierFraction > 0.7)
    }

    @Test func badInputThrows() throws {
        let model = RawNoiseModel(blackLevel: 64, whiteLevel: 1023, noise: NoiseProfile(scale: 1e-3, offset: 1e-5))
        let a = PixelBuffer(width: 64, height: 64, format: .bayer14(.rggb))
        let b = PixelBuffer(width: 64, height: 48, format: .bayer14(.rggb))
        #expect(throws: FusionError.self) { try TileAligner().align(a, to: b, rawModel: model) }
        #expect(throws: FusionError.self) { try TileAligner().align(a, to: a) }  // no raw model
        #expect(throws: FusionError.self) {
            try TileAligner().align(
                PixelBuffer(width: 64, height: 64, format: .gray8),
                to: PixelBuffer(width: 64, height: 64, format: .gray8))
        }
        let tiny = PixelBuffer(width: 8, height: 8, format: .rgbaFloat)
        #expect(throws: FusionError.imageTooSmall(width: 8, height: 8, minimum: 16)) {
            try TileAligner().align(tiny, to: tiny)
        }
        let bad = RawNoiseModel(blackLevel: 2000, whiteLevel: 1000, noise: NoiseProfile(scale: 1e-3, offset: 1e-5))
        #expect(throws: FusionError.self) { try TileAligner().align(a, to: a, rawModel: bad) }
        var settings = TileAligner.Settings()
        settings.levels = []
        #expect(throws: FusionError.self) { try TileAligner(settings: settings).align(a, to: a, rawModel: model) }
        // Error text names the problem and what is allowed.
        do {
            _ = try TileAligner().align(a, to: b, rawModel: model)
        } catch {
            #expect(error.description.contains("64×48"))
        }
    }
}
