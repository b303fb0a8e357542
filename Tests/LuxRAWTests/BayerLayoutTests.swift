import LuxColor
import LuxPixels
import LuxTestSupport
import RealModule
import Testing

@testable import LuxRAW

/// All four Bayer layouts and the image borders: bilinear against a brute-force convolution written here, RCD
/// against itself shifted by one photosite (a layout change must be nothing but a change of phase), coloured
/// flat fields up to the edge pixel, and the half-size draft against its definition.
@Suite struct BayerLayouts {
    /// A ground-truth RGB scene like a photograph: a luminance pattern (gradients, ripples, a disc, a diagonal
    /// edge) times a slowly varying colour, so edges are shared by the channels.
    static func scene(width w: Int, height h: Int) -> [SIMD3<Float>] {
        (0..<(w * h)).map { i in
            let x = Float(i % w)
            let y = Float(i / w)
            let dx = x - 0.6 * Float(w)
            let dy = y - 0.4 * Float(h)
            let disc: Float = dx * dx + dy * dy < 0.04 * Float(w * w) ? 0.3 : 0
            let edge: Float = x + 0.7 * y > 0.5 * Float(w) ? 0.2 : 0
            let luma = 0.25 + 0.15 * Float.sin(x * 0.21) * Float.cos(y * 0.13) + disc + edge
            let tint = SIMD3<Float>(0.8 + 0.3 * x / Float(w), 1, 0.7 + 0.4 * y / Float(h))
            return luma * tint
        }
    }

    /// The mosaic of `rgb` for `pattern`, as `.grayFloat`.
    static func mosaic(_ rgb: [SIMD3<Float>], width w: Int, height h: Int, pattern: CFAPattern) -> PixelBuffer {
        var b = PixelBuffer(width: w, height: h, format: .grayFloat)
        b.withUnsafeMutablePlane { p in
            for y in 0..<h {
                let row = p.row(y, as: Float.self)
                for x in 0..<w { row[x] = rgb[y * w + x][pattern.channel(x: x, y: y).rawValue] }
            }
        }
        return b
    }

    static func crop(_ b: PixelBuffer, x: Int, y: Int, width: Int, height: Int) -> PixelBuffer {
        var out = PixelBuffer(width: width, height: height, format: b.format)
        let src = b.components(as: Float.self)
        out.withUnsafeMutablePlane { p in
            for j in 0..<height {
                for i in 0..<width { p.row(j, as: Float.self)[i] = src[(y + j) * b.width + x + i] }
            }
        }
        return out
    }

    @Test(
        "bilinear equals the masked-plane convolution with reflected edges, for every layout",
        arguments: CFAPattern.allCases)
    func bilinearReference(pattern: CFAPattern) throws {
        let w = 17
        let h = 13
        var rng = SplitMix(seed: 7)
        let values = (0..<(w * h)).map { _ in rng.unit() }
        var m = PixelBuffer(width: w, height: h, format: .grayFloat)
        m.withUnsafeMutablePlane { p in
            for y in 0..<h { for x in 0..<w { p.row(y, as: Float.self)[x] = values[y * w + x] } }
        }
        let out = try DemosaicMethod.bilinear.demosaic(m, pattern: pattern).components(as: Float.self)
        // Reference: zero the sites of other colours, convolve with the textbook kernels, mosaic reflected
        // about the edge photosite (index −1 → 1, w → w − 2).
        func reflect(_ i: Int, _ n: Int) -> Int { i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i) }
        let greenKernel: [[Float]] = [[0, 1, 0], [1, 4, 1], [0, 1, 0]].map { $0.map { $0 / 4 } }
        let rbKernel: [[Float]] = [[1, 2, 1], [2, 4, 2], [1, 2, 1]].map { $0.map { $0 / 4 } }
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    let k = c == 1 ? greenKernel : rbKernel
                    var acc: Float = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let sx = reflect(x + dx, w)
                            let sy = reflect(y + dy, h)
                            guard pattern.channel(x: sx, y: sy).rawValue == c else { continue }
                            acc += k[dy + 1][dx + 1] * values[sy * w + sx]
                        }
                    }
                    let got = out[4 * (y * w + x) + c]
                    #expect(abs(got - acc) < 1e-5, "\(pattern) (\(x), \(y)) channel \(c): \(got) vs \(acc)")
                }
            }
        }
    }

    @Test("RCD on a layout shifted by one photosite is the same reconstruction shifted (all four layouts)")
    func rcdPhase() throws {
        let w = 97
        let h = 81
        let rgb = Self.scene(width: w, height: h)
        let full = try DemosaicMethod.rcd.demosaic(
            Self.mosaic(rgb, width: w, height: h, pattern: .rggb), pattern: .rggb)
        let f = full.components(as: Float.self)
        let margin = DemosaicMethod.rcd.margin + 2
        for (dx, dy) in [(1, 0), (0, 1), (1, 1)] {
            let pattern = CFAPattern.rggb.shifted(x: dx, y: dy)
            let sub = Self.crop(
                Self.mosaic(rgb, width: w, height: h, pattern: .rggb), x: dx, y: dy, width: w - 1, height: h - 1)
            let out = try DemosaicMethod.rcd.demosaic(sub, pattern: pattern).components(as: Float.self)
            var worst: Float = 0
            for y in margin..<(h - 1 - margin) {
                for x in margin..<(w - 1 - margin) {
                    for c in 0..<3 {
                        worst = max(worst, abs(out[4 * (y * (w - 1) + x) + c] - f[4 * ((y + dy) * w + x + dx) + c]))
                    }
                }
            }
            #expect(worst < 1e-5, "\(pattern): largest difference \(worst)")
        }
    }

    @Test(
        "every layout reconstructs the scene well (CPSNR above bilinear's) over the whole frame including borders",
        arguments: CFAPattern.allCases)
    func rcdQuality(pattern: CFAPattern) throws {
        let w = 96
        let h = 80
        let rgb = Self.scene(width: w, height: h)
        let m = Self.mosaic(rgb, width: w, height: h, pattern: pattern)
        let truth: [Float] = rgb.flatMap { [$0.x, $0.y, $0.z, 0] }
        func cpsnr(_ b: PixelBuffer) -> Double { psnr(b.components(as: Float.self), truth, where: { $0 % 4 != 3 }) }
        let rcd = cpsnr(try DemosaicMethod.rcd.demosaic(m, pattern: pattern))
        let bilinear = cpsnr(try DemosaicMethod.bilinear.demosaic(m, pattern: pattern))
        #expect(rcd > bilinear + 2, "\(pattern): rcd \(rcd) dB, bilinear \(bilinear) dB")
        #expect(rcd > 35, "\(pattern): rcd \(rcd) dB")
    }

    @Test(
        "a coloured flat field reconstructs exactly up to the edge pixels", arguments: DemosaicMethod.allCases,
        CFAPattern.allCases)
    func colouredFlat(method: DemosaicMethod, pattern: CFAPattern) throws {
        let w = 41
        let h = 31
        let colour = SIMD3<Float>(0.2, 0.5, 0.8)
        let m = Self.mosaic([SIMD3<Float>](repeating: colour, count: w * h), width: w, height: h, pattern: pattern)
        let out = try method.demosaic(m, pattern: pattern).components(as: Float.self)
        var worst: Float = 0
        for i in 0..<(w * h) {
            for c in 0..<3 { worst = max(worst, abs(out[4 * i + c] - colour[c])) }
        }
        #expect(worst < 1e-5, "\(method) \(pattern): \(worst)")
    }

    @Test(
        "the half-size draft is red, mean green and blue of each quad, for every layout", arguments: CFAPattern.allCases
    )
    func halfSize(pattern: CFAPattern) throws {
        let w = 12
        var rng = SplitMix(seed: 3)
        let top = (0..<w).map { _ in rng.unit() }
        let bottom = (0..<w).map { _ in rng.unit() }
        var r = [Float](repeating: 0, count: w / 2)
        var g = r
        var b = r
        BinnedDemosaic.row(
            top + bottom, rowStride: w, count: w / 2, binning: 2, layout: .bayer(pattern), red: &r, green: &g, blue: &b)
        for q in 0..<(w / 2) {
            var sums = SIMD3<Float>(0, 0, 0)
            var counts = SIMD3<Float>(0, 0, 0)
            for (dy, row) in [top, bottom].enumerated() {
                for dx in 0..<2 {
                    let c = pattern.channel(x: 2 * q + dx, y: dy).rawValue
                    sums[c] += row[2 * q + dx]
                    counts[c] += 1
                }
            }
            let expected = sums / counts
            #expect(abs(r[q] - expected.x) < 1e-7 && abs(g[q] - expected.y) < 1e-7 && abs(b[q] - expected.z) < 1e-7)
        }
    }
}
