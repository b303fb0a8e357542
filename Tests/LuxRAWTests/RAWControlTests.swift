import LuxCodecs
import LuxColor
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

@testable import LuxRAW

/// The RAW controls Core Image's RAW filter has beyond exposure, white balance and the basic look: each changes the
/// output in the documented direction on a synthetic raw whose scene is known.
@Suite struct RAWControls {
    static func grey(_ v: Double) -> SIMD3<Double> { LensCorrections.grey(v) }

    /// Renders in the pipeline's own linear BT.2020 (so colours outside sRGB keep their sign).
    static func renderRec2020(_ developer: RAWDeveloper) throws -> PixelBuffer {
        let context = RenderContext(options: RenderOptions(workingFormat: .rgbaFloat))
        return try context.createBuffer(
            try developer.outputImage, format: .rgbaFloat, colorSpace: CameraColorTransform.workingSpace)
    }

    @Test("shadow boost lifts dark greys, leaves black and white where they were")
    func shadowBoost() throws {
        // Three bands: black, a dark grey and a grey brighter than the white level (which renders white).
        let raw = SyntheticRaw.field(width: 96, height: 32) { x, _ in
            x < 32 ? Self.grey(0) : x < 64 ? Self.grey(0.03) : SIMD3(1, 1, 1)
        }
        var d = try RAWDeveloper(rawImage: raw).plain(toneCurve: true)
        let bands = [Rect(x: 8, y: 8, width: 16, height: 16), Rect(x: 40, y: 8, width: 16, height: 16)]
        let white = Rect(x: 72, y: 8, width: 16, height: 16)
        let before = try ColorAccuracy.render(d)
        d.shadowBoostAmount = 1
        let after = try ColorAccuracy.render(d)
        let dark0 = SyntheticRaw.mean(before, bands[1]).y
        let dark1 = SyntheticRaw.mean(after, bands[1]).y
        // The display value q of the grey moves to q + 1.5·q·(1 − q)² (hand-computed from the documented curve).
        let q = Double.pow(dark0, 1 / 2.4)
        let expected = Double.pow(q + 1.5 * q * (1 - q) * (1 - q), 2.4)
        #expect(dark1 > 1.5 * dark0, "dark grey \(dark0) → \(dark1)")
        #expect(abs(dark1 / expected - 1) < 0.03, "dark grey \(dark1), expected \(expected)")
        #expect(abs(SyntheticRaw.mean(after, bands[0]).y - SyntheticRaw.mean(before, bands[0]).y) < 1e-4)
        let white0 = SyntheticRaw.mean(before, white).y
        #expect(abs(SyntheticRaw.mean(after, white).y / white0 - 1) < 0.015, "white \(white0)")
    }

    @Test("a scale factor averages blocks of photosites: the size follows it, the levels stay, the work falls")
    func scaleFactor() throws {
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65)
        var d = try RAWDeveloper(rawImage: raw).plain()
        let full = try ColorAccuracy.render(d)
        for (s, binning) in [(0.5, 2), (0.25, 4), (0.3, 2), (0.8, 1)] {
            d.scaleFactor = s
            #expect(d.binning == binning, "scale \(s)")
            let out = try ColorAccuracy.render(d)
            #expect(out.width == Int((240 * s).rounded()) && out.height == Int((160 * s).rounded()))
            // A patch's colour is the same at every size (inset to stay clear of the resampled edges).
            for number in [2, 13, 19, 22] {
                let r = SyntheticRaw.patchRect(number, inset: 4)
                let scaled = Rect(
                    x: (r.minX * s).rounded(.up) + 1, y: (r.minY * s).rounded(.up) + 1,
                    width: (r.width * s).rounded(.down) - 2, height: (r.height * s).rounded(.down) - 2)
                let a = SyntheticRaw.mean(full, r)
                let b = SyntheticRaw.mean(out, scaled)
                #expect(((a - b) / a).max() < 0.02 && ((b - a) / a).max() < 0.02, "scale \(s) patch \(number)")
            }
        }
    }

    @Test("draft mode: the same size as the full render, close to it, from a mosaic reduced by 2")
    func draft() throws {
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65)
        var d = try RAWDeveloper(rawImage: raw).plain()
        let full = try ColorAccuracy.render(d)
        d.isDraftModeEnabled = true
        #expect(d.binning == 2)
        let draft = try ColorAccuracy.render(d)
        #expect(draft.width == full.width && draft.height == full.height)
        let a = full.components(as: Float.self)
        let b = draft.components(as: Float.self)
        var worstPatch = 0.0
        for number in 1...24 {
            let r = SyntheticRaw.patchRect(number)
            let pa = SyntheticRaw.mean(full, r)
            let pb = SyntheticRaw.mean(draft, r)
            worstPatch = max(worstPatch, ((pa - pb) / pa.max()).max(), ((pb - pa) / pa.max()).max())
        }
        #expect(worstPatch < 0.02, "patch means differ by \(worstPatch)")
        #expect(a != b, "a draft is an approximation, not the full render")
    }

    @Test("the linear-space filter acts on scene-referred values: doubling them is +1 EV of exposure")
    func linearSpaceFilter() throws {
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65, scale: 0.25)
        var d = try RAWDeveloper(rawImage: raw).plain(toneCurve: true)
        d.exposure = 1
        let brighter = try ColorAccuracy.render(d)
        d.exposure = 0
        let double = ColorKernel(name: "double", alphaHandling: .premultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            for i in 0..<row.count {
                p.red[i] *= 2
                p.green[i] *= 2
                p.blue[i] *= 2
            }
        }
        d.linearSpaceFilter = { $0.applying(double, arguments: "x2") }
        let filtered = try ColorAccuracy.render(d)
        let a = brighter.components(as: Float.self)
        let b = filtered.components(as: Float.self)
        let plain = try ColorAccuracy.render(
            {
                var p = d
                p.linearSpaceFilter = nil
                return p
            }()
        ).components(as: Float.self)
        #expect(zip(a, b).map { abs($0 - $1) }.max()! < 1e-4)
        #expect(zip(a, plain).map { abs($0 - $1) }.max()! > 0.05)
    }

    /// Mean CIELAB chroma over `rect`.
    static func chroma(_ b: PixelBuffer, _ rect: Rect) -> Double {
        let v = b.components(as: Float.self)
        var sum = 0.0
        var n = 0.0
        for y in Int(rect.minY)..<Int(rect.maxY) {
            for x in Int(rect.minX)..<Int(rect.maxX) {
                let o = 4 * (y * b.width + x)
                let lab = SyntheticRaw.lab(linearSRGB: SIMD3(Double(v[o]), Double(v[o + 1]), Double(v[o + 2])))
                sum += (lab.y * lab.y + lab.z * lab.z).squareRoot()
                n += 1
            }
        }
        return sum / n
    }

    @Test("moiré reduction cuts the false colour of grey stripes finer than the photosite pitch, keeps real colour")
    func moire() throws {
        // Left: grey stripes (a dark column, two light ones) finer than the red and blue photosites' pitch, which
        // demosaicing turns into fringes of alternating colour; right: a flat colour.
        let raw = SyntheticRaw.field(width: 96, height: 48) { x, _ in
            x < 48 ? Self.grey(x % 3 == 0 ? 0.08 : 0.4) : SIMD3(0.3, 0.15, 0.05)
        }
        var d = try RAWDeveloper(rawImage: raw).plain()
        d.demosaicMethod = .bilinear  // RCD reconstructs these stripes nearly without false colour
        let stripes = Rect(x: 8, y: 8, width: 32, height: 32)
        let flat = Rect(x: 60, y: 8, width: 28, height: 32)
        let before = try ColorAccuracy.render(d)
        d.moireReductionAmount = 1
        let after = try ColorAccuracy.render(d)
        let c0 = Self.chroma(before, stripes)
        let c1 = Self.chroma(after, stripes)
        print("moiré: chroma of the stripes \(c0) → \(c1)")
        #expect(c0 > 3, "the test needs false colour to remove: chroma \(c0)")
        #expect(c1 < 0.65 * c0, "false colour \(c0) → \(c1)")
        let f0 = Self.chroma(before, flat)
        #expect(abs(Self.chroma(after, flat) / f0 - 1) < 0.01, "real colour kept")
    }

    @Test("noise-reduction detail keeps fine luminance noise, sharpness and contrast amplify what is kept")
    func noiseReductionDetail() throws {
        var d = try RAWDeveloper(rawImage: PipelineStages.noisyField(seed: 11))
        d.sharpnessAmount = 0
        d.boostAmount = 0
        let flat = Rect(x: 20, y: 20, width: 40, height: 56)
        func luma(_ change: (inout RAWDeveloper) -> Void) throws -> (Double, Double) {
            var look = d
            change(&look)
            let r = PipelineStages.noise(try ColorAccuracy.render(look), flat)
            return (r.luma, r.mean)
        }
        let base = try luma { _ in }
        let smooth = try luma { $0.noiseReductionDetailAmount = 0 }
        let detailed = try luma { $0.noiseReductionDetailAmount = 1 }
        let sharp = try luma { $0.noiseReductionSharpnessAmount = 1 }
        let contrast = try luma { $0.noiseReductionContrastAmount = 1 }
        print(
            "luma σ: default \(base.0), detail 0 \(smooth.0), detail 1 \(detailed.0), sharpness 1 \(sharp.0), contrast 1 \(contrast.0)"
        )
        #expect(smooth.0 < 0.95 * base.0 && detailed.0 > 1.05 * base.0)
        #expect(sharp.0 > 1.05 * base.0)
        #expect(contrast.0 > 1.02 * base.0)
        for r in [smooth, detailed, sharp, contrast] { #expect(abs(r.1 / base.1 - 1) < 0.01, "levels kept") }
    }

    @Test("a neutral chromaticity or a neutral point renders that white grey; the chromaticity round-trips")
    func neutral() throws {
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.a, asShotWhite: WhitePoint.d65, scale: 0.5)
        var d = try RAWDeveloper(rawImage: raw).plain()
        d.neutralChromaticity = WhitePoint.a
        #expect(abs(d.neutralChromaticity.x - WhitePoint.a.x) < 1e-4)
        #expect(abs(d.neutralChromaticity.y - WhitePoint.a.y) < 1e-4)
        #expect(abs(d.neutralTemperature - 2856) < 30, "illuminant A is 2856 K: \(d.neutralTemperature)")
        let lab = SyntheticRaw.lab(
            linearSRGB: SyntheticRaw.mean(try ColorAccuracy.render(d), SyntheticRaw.patchRect(22)))
        #expect(abs(lab.y) < 1.5 && abs(lab.z) < 1.5, "grey under A with the neutral at A: \(lab)")

        var byPoint = try RAWDeveloper(rawImage: raw).plain()
        let r = SyntheticRaw.patchRect(21)
        try byPoint.setNeutral(at: Point(x: r.midX, y: r.midY))
        #expect(abs(byPoint.neutralTemperature - 2856) < 100, "temperature \(byPoint.neutralTemperature)")
        let lab2 = SyntheticRaw.lab(
            linearSRGB: SyntheticRaw.mean(try ColorAccuracy.render(byPoint), SyntheticRaw.patchRect(22)))
        #expect(abs(lab2.y) < 1 && abs(lab2.z) < 1, "grey after the neutral point: \(lab2)")
    }

    @Test("an orientation override replaces the file's; .up ignores it")
    func orientation() throws {
        var raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65)
        raw.properties.orientation = .right
        var d = try RAWDeveloper(rawImage: raw)
        #expect(d.orientation == .right && d.outputSize == Size(width: 160, height: 240))
        d.orientation = .up
        #expect(try d.outputImage.extent.size == Size(width: 240, height: 160))
        d.orientation = .down
        #expect(try d.outputImage.extent.size == Size(width: 240, height: 160))
    }

    @Test("gamut mapping brings a colour outside Rec. 2020 inside it at the same luminance; off, it stays outside")
    func gamutMapping() throws {
        // Camera red alone: the synthetic camera's matrix puts it outside Rec. 2020 (a negative green and blue).
        let raw = SyntheticRaw.field(width: 64, height: 32) { x, _ in x < 32 ? SIMD3(0.4, 0, 0) : Self.grey(0.2) }
        var d = try RAWDeveloper(rawImage: raw).plain()
        let red = Rect(x: 8, y: 8, width: 16, height: 16)
        let grey = Rect(x: 40, y: 8, width: 16, height: 16)
        d.isGamutMappingEnabled = false
        let outside = try Self.renderRec2020(d)
        d.isGamutMappingEnabled = true
        let mapped = try Self.renderRec2020(d)
        let o = SyntheticRaw.mean(outside, red)
        let m = SyntheticRaw.mean(mapped, red)
        let luminance = { (c: SIMD3<Double>) in 0.2627 * c.x + 0.6780 * c.y + 0.0593 * c.z }
        #expect(o.min() < -0.01, "the test needs an out-of-gamut colour: \(o)")
        #expect(m.min() > -1e-4, "mapped inside Rec. 2020: \(m)")
        #expect(abs(luminance(m) / luminance(o) - 1) < 0.01, "luminance kept: \(luminance(o)) → \(luminance(m))")
        #expect(m.x > 3 * max(m.y, m.z), "still red: \(m)")
        let g0 = SyntheticRaw.mean(outside, grey)
        let g1 = SyntheticRaw.mean(mapped, grey)
        #expect(maxDifference(g0, g1) < 1e-5, "in-gamut colours untouched")
    }
}
