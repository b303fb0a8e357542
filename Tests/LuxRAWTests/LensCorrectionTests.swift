import LuxCodecs
import LuxColor
import LuxPixels
import LuxRender
import RealModule
import Testing

@testable import LuxRAW

/// Lens corrections from DNG opcodes, written into a DNG and read back: the oracle is the opcode's formula from
/// the DNG specification (chapter 7), evaluated here independently of the pipeline.
@Suite struct LensCorrections {
    static let width = 200
    static let height = 160

    /// Develops with every look stage off, to linear sRGB floats.
    static func develop(_ raw: RawImage, correct: Bool = true) throws -> PixelBuffer {
        var d = try RAWDeveloper(data: try DNG.encode(raw))
        d.isLensCorrectionEnabled = correct
        return try ColorAccuracy.developLinear(d)
    }

    /// The camera-neutral field: white-balanced grey `v` everywhere.
    static func grey(_ v: Double) -> SIMD3<Double> {
        let n = SyntheticRaw.d65Neutral
        return SIMD3(v * n[0], v * n[1], v * n[2])
    }

    /// `r²` of FixVignetteRadial at a pixel centre: distance from the optical centre over the distance to the
    /// farthest corner.
    static func r2(_ x: Int, _ y: Int, cx: Double, cy: Double) -> Double {
        let w = Double(width)
        let h = Double(height)
        let mx = max(cx * w, w - cx * w)
        let my = max(cy * h, h - cy * h)
        let dx = Double(x) + 0.5 - cx * w
        let dy = Double(y) + 0.5 - cy * h
        return (dx * dx + dy * dy) / (mx * mx + my * my)
    }

    @Test("FixVignetteRadial (OpcodeList3) flattens a vignetted field; switched off, the corners keep the fall-off")
    func vignette() throws {
        let k = [0.6, 0.2]
        let cx = 0.45
        let cy = 0.55
        func gain(_ x: Int, _ y: Int) -> Double {
            let r2 = Self.r2(x, y, cx: cx, cy: cy)
            return 1 + k[0] * r2 + k[1] * r2 * r2
        }
        var raw = SyntheticRaw.field(width: Self.width, height: Self.height) { x, y in Self.grey(0.4 / gain(x, y)) }
        raw.properties.opcodeList3 = [
            DNGOpcode(.fixVignetteRadial(FixVignetteRadial(coefficients: k, centerX: cx, centerY: cy)))
        ]
        let on = try Self.develop(raw)
        let off = try Self.develop(raw, correct: false)
        for (x, y) in [(100, 80), (4, 4), (195, 4), (4, 155), (195, 155), (60, 120)] {
            let rect = Rect(x: x - 3, y: y - 3, width: 6, height: 6).intersection(
                Rect(width: Self.width, height: Self.height))
            let corrected = SyntheticRaw.mean(on, rect)
            let raw = SyntheticRaw.mean(off, rect)
            #expect(abs(corrected.y - 0.4) < 0.004, "corrected (\(x), \(y)): \(corrected)")
            #expect(abs(raw.y - 0.4 / gain(x, y)) < 0.01, "uncorrected (\(x), \(y)): \(raw) vs \(0.4 / gain(x, y))")
        }
    }

    @Test("a GainMap (OpcodeList2) is interpolated bilinearly over the map's grid")
    func gainMap() throws {
        // Gains 1 at the left edge to 2 at the right, 1.5 → 3 at the bottom: g(u, v) = (1 + u)(1 + v/2).
        let map = GainMap(
            area: OpcodeArea(top: 0, left: 0, bottom: UInt32(Self.height), right: UInt32(Self.width)), pointsV: 2,
            pointsH: 2, spacingV: 1, spacingH: 1, gains: [1, 2, 1.5, 3])
        func gain(_ x: Int, _ y: Int) -> Double {
            let u = Double(x) / Double(Self.width)
            let v = Double(y) / Double(Self.height)
            return (1 + u) * (1 + v / 2)
        }
        var raw = SyntheticRaw.field(width: Self.width, height: Self.height) { x, y in Self.grey(0.3 / gain(x, y)) }
        raw.properties.opcodeList2 = [DNGOpcode(.gainMap(map))]
        let on = try Self.develop(raw)
        for (x, y) in [(10, 10), (100, 80), (190, 10), (190, 150), (10, 150)] {
            let v = SyntheticRaw.mean(on, Rect(x: x - 3, y: y - 3, width: 6, height: 6))
            #expect(abs(v.y - 0.3) < 0.004, "(\(x), \(y)): \(v)")
        }
    }

    /// Where WarpRectilinear with per-plane radial coefficients `k` puts the scene point `s`: the output
    /// position `p` whose source `c + m·f(r)·(p − c)/m` is `s`, found by fixed-point iteration.
    static func image(of s: SIMD2<Double>, k: [Double]) -> SIMD2<Double> {
        let c = SIMD2(Double(width) / 2, Double(height) / 2)
        let m = (c * c).sum().squareRoot()
        var p = s
        for _ in 0..<100 {
            let d = (p - c) / m
            let r2 = (d * d).sum()
            let f = k[0] + r2 * (k[1] + r2 * (k[2] + r2 * k[3]))
            p = c + (s - c) / f
        }
        return p
    }

    /// Centroid of `channel` above `background` in a window.
    static func centroid(_ b: PixelBuffer, around p: SIMD2<Double>, channel: Int, background: Double) -> SIMD2<Double> {
        let v = b.components(as: Float.self)
        var sum = SIMD2<Double>(0, 0)
        var weight = 0.0
        for y in (Int(p.y) - 10)...(Int(p.y) + 10) {
            for x in (Int(p.x) - 10)...(Int(p.x) + 10) {
                let e = max(Double(v[4 * (y * b.width + x) + channel]) - background, 0)
                sum += e * SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                weight += e
            }
        }
        return sum / weight
    }

    @Test("WarpRectilinear moves a feature where the distortion polynomial says, per plane (lateral CA)")
    func warp() throws {
        // A bright 6×6 square centred on (41, 31) in a grey field.
        let s = SIMD2<Double>(41, 31)
        var raw = SyntheticRaw.field(width: Self.width, height: Self.height) { x, y in
            (38..<44).contains(x) && (28..<34).contains(y) ? Self.grey(0.8) : Self.grey(0.1)
        }
        let red = [1.01, 0.2, 0, 0]
        let green = [1.0, 0.2, 0, 0]
        let blue = [0.99, 0.2, 0, 0]
        let planes = [red, green, blue].map { WarpRectilinear.Coefficients(radial: $0, tangential: [0, 0]) }
        raw.properties.opcodeList3 = [DNGOpcode(.warpRectilinear(WarpRectilinear(planes: planes)))]
        // The stages themselves, in white-balanced camera RGB: each plane keeps its own warp.
        let file = try #require(try ImageFile.read(data: try DNG.encode(raw)).rawImage)
        let n = SyntheticRaw.d65Neutral
        let gains = SIMD3<Float>(Float(1 / n[0]), Float(1 / n[1]), Float(1 / n[2]))
        let demosaiced = DemosaicStage().image(from: try SensorLinearization(file), gains: gains)
        let warp = try #require(LensCorrection.warp(in: file.properties))
        let context = RenderContext(options: RenderOptions(workingColorSpace: nil, workingFormat: .rgbaFloat))
        let out = try context.createBuffer(
            LensCorrection(warp: warp).apply(to: demosaiced), format: .rgbaFloat, colorSpace: nil)
        let off = try context.createBuffer(demosaiced, format: .rgbaFloat, colorSpace: nil)
        let expectedGreen = Self.image(of: s, k: green)
        let gotGreen = Self.centroid(out, around: expectedGreen, channel: 1, background: 0.1)
        #expect(
            ((gotGreen - expectedGreen) * (gotGreen - expectedGreen)).sum().squareRoot() < 0.3,
            "green at \(gotGreen), polynomial says \(expectedGreen) (feature at \(s))")
        #expect(((expectedGreen - s) * (expectedGreen - s)).sum().squareRoot() > 2, "the test needs a visible shift")
        let unwarped = Self.centroid(off, around: s, channel: 1, background: 0.1)
        #expect(((unwarped - s) * (unwarped - s)).sum().squareRoot() < 0.3, "without correction: \(unwarped)")
        for (plane, k) in [(0, red), (2, blue)] {
            let expected = Self.image(of: s, k: k) - expectedGreen
            let got = Self.centroid(out, around: Self.image(of: s, k: k), channel: plane, background: 0.1) - gotGreen
            #expect(
                ((got - expected) * (got - expected)).sum().squareRoot() < 0.35, "plane \(plane): \(got) vs \(expected)"
            )
        }
    }
}
