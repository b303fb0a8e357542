import Foundation
import LuxFusion
import LuxPixels
import LuxTestSupport
import Testing

/// Exposure fusion against a brute-force whole-image Mertens written here (Double, no tiles) and against enfuse.
@Suite struct ExposureFusionTests {
    /// −2, 0, +2 EV brackets of the photo as display-referred sRGB floats (ANCHORS-ENGINE E5's recipe: linearise,
    /// scale, clip, encode).
    static func brackets(_ scene: LinearScene) -> [[[Float]]] {
        [0.25, 1, 4].map { gain in
            scene.planes.map { plane in
                plane.map { v -> Float in
                    let l = min(Double(v) * gain, 1)
                    return Float(l <= 0.003_130_8 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055)
                }
            }
        }
    }

    static func buffer(_ planes: [[Float]], width: Int, height: Int, format: PixelFormat) -> PixelBuffer {
        var comps = [Float](repeating: 1, count: 4 * width * height)
        for i in 0..<(width * height) { for c in 0..<3 { comps[4 * i + c] = planes[c][i] } }
        let f = PixelBuffer(width: width, height: height, format: .rgbaFloat, components: comps, colorSpace: .sRGB)
        return format == .rgbaFloat ? f : f.converted(to: format)
    }

    static let size = (700, 400)
    /// 700 × 400 spans 2 × 2 tiles of 512 × 256 and ends mid-tile on both axes.
    static func testBrackets() throws -> [[[Float]]] { try sharedBrackets.get() }

    /// The brackets, made once for every test that fuses them.
    private static let sharedBrackets = Result {
        brackets(try LinearScene.photo(scale: 4).cropped(x0: 120, y0: 200, width: size.0, height: size.1))
    }

    /// The reference without the contrast weight at the automatic depth, which the whole-image and the band tests
    /// both compare with (made once: the Double reference is the slowest part of either in a debug build).
    static let referenceWithoutContrast = Result {
        ReferenceMertens.fuse(try testBrackets(), width: size.0, height: size.1, contrast: 0, levels: 64)
    }

    /// Differences between our float output and the Double reference, sorted.
    static func differences(_ fused: PixelBuffer, _ reference: [[Double]]) -> [Double] {
        let out = fused.components(as: Float.self)
        var d: [Double] = []
        for i in 0..<(size.0 * size.1) { for c in 0..<3 { d.append(abs(Double(out[4 * i + c]) - reference[c][i])) } }
        return d.sorted()
    }

    /// With the well-conditioned weights (saturation, well-exposedness) the tiled result equals the whole-image
    /// reference to float precision, for every pyramid depth (1 level = plain weighted average … automatic).
    @Test(.enabled(if: ExternalTool.isAvailable("djpeg"), "needs djpeg"), arguments: [1, 3, nil] as [Int?])
    func matchesWholeImageReference(levels: Int?) throws {
        let brackets = try Self.testBrackets()
        let frames = brackets.map { Self.buffer($0, width: Self.size.0, height: Self.size.1, format: .rgbaFloat) }
        let settings = ExposureFusion.Settings(contrastWeight: 0, levels: levels)
        let fused = try ExposureFusion(settings: settings).fuse(frames)
        let reference =
            try levels.map {
                ReferenceMertens.fuse(brackets, width: Self.size.0, height: Self.size.1, contrast: 0, levels: $0)
            } ?? Self.referenceWithoutContrast.get()
        let d = Self.differences(fused, reference)
        print("levels \(levels.map(String.init) ?? "auto"): max difference from the reference \(d.last!)")
        #expect(d.last! < 1e-4)
    }

    /// Fusing band by band gives the whole-image reference too, with the bands handed over in order and covering
    /// every row once (400 rows: a band of 256 and one of 144).
    @Test(.enabled(if: ExternalTool.isAvailable("djpeg"), "needs djpeg"))
    func bandsMatchWholeImageReference() throws {
        let brackets = try Self.testBrackets()
        let (w, h) = Self.size
        let frames = brackets.map { Self.buffer($0, width: w, height: h, format: .rgbaFloat) }
        var fused = PixelBuffer(width: w, height: h, format: .rgbaFloat)
        var firstRows: [Int] = []
        try ExposureFusion(settings: .init(contrastWeight: 0)).fuse(frames) { band, y in
            #expect(band.width == w && band.format == .rgbaFloat)
            firstRows.append(y)
            for j in 0..<band.height {
                for x in 0..<w { fused.setPixel(band.pixel(x: x, y: j), x: x, y: y + j) }
            }
        }
        #expect(firstRows == [0, 256])
        let reference = try Self.referenceWithoutContrast.get()
        let d = Self.differences(fused, reference)
        print("bands: max difference from the reference \(d.last!)")
        #expect(d.last! < 1e-4)
    }

    /// With the contrast weight too.
    ///
    /// The |Laplacian| of the luma in smooth areas is 1e-4…1e-7, the size of Float's rounding of the luma itself, so
    /// there the contrast weight (and which frame wins) is decided by rounding in any Float implementation (OpenCV's
    /// included): the comparison is statistical.
    @Test(.enabled(if: ExternalTool.isAvailable("djpeg"), "needs djpeg"))
    func matchesReferenceWithContrast() throws {
        let brackets = try Self.testBrackets()
        let frames = brackets.map { Self.buffer($0, width: Self.size.0, height: Self.size.1, format: .rgbaFloat) }
        let fused = try ExposureFusion().fuse(frames)
        let reference = ReferenceMertens.fuse(brackets, width: Self.size.0, height: Self.size.1)
        let d = Self.differences(fused, reference)
        let p999 = d[d.count * 999 / 1000]
        let median = d[d.count / 2]
        print("with contrast: median difference \(median), 99.9th percentile \(p999), max \(d.last!)")
        #expect(median < 1e-4)
        #expect(p999 < 1e-2)
        #expect(d.last! < 0.05)
        // Any thread count and the 8-bit path give the same result.
        var one = ExposureFusion.Settings()
        one.threads = 1
        #expect(
            try ExposureFusion(settings: one).fuse(frames).components(as: Float.self)
                == fused.components(as: Float.self))
    }

}

/// Mertens–Kautz–Van Reeth exposure fusion, written plainly over whole images in Double (the test's oracle).
enum ReferenceMertens {
    typealias Plane = [Double]

    static func reflect(_ i: Int, _ n: Int) -> Int {
        if n == 1 { return 0 }
        var j = i < 0 ? -i : i
        if j >= n { j = 2 * n - 2 - j }
        return j
    }

    static let kernel: [Double] = [1, 4, 6, 4, 1].map { $0 / 16 }

    static func down(_ p: Plane, _ w: Int, _ h: Int) -> Plane {
        let ow = (w + 1) / 2
        let oh = (h + 1) / 2
        var out = Plane(repeating: 0, count: ow * oh)
        for y in 0..<oh {
            for x in 0..<ow {
                var s = 0.0
                for j in -2...2 {
                    for i in -2...2 {
                        s += kernel[j + 2] * kernel[i + 2] * p[reflect(2 * y + j, h) * w + reflect(2 * x + i, w)]
                    }
                }
                out[y * ow + x] = s
            }
        }
        return out
    }

    /// Zero-stuffed upsampling to `w × h` filtered with 2× the kernel per axis, mirrored on the fine grid.
    static func up(_ p: Plane, _ cw: Int, _ w: Int, _ h: Int) -> Plane {
        var out = Plane(repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var s = 0.0
                for j in -2...2 {
                    let yy = reflect(y + j, h)
                    if yy % 2 != 0 { continue }
                    for i in -2...2 {
                        let xx = reflect(x + i, w)
                        if xx % 2 != 0 { continue }
                        s += 4 * kernel[j + 2] * kernel[i + 2] * p[(yy / 2) * cw + xx / 2]
                    }
                }
                out[y * w + x] = s
            }
        }
        return out
    }

    static func fuse(
        _ frames: [[[Float]]], width: Int, height: Int, contrast: Double = 1, levels maxLevels: Int = 64
    ) -> [Plane] {
        var sizes = [(width, height)]
        while sizes.count < maxLevels {
            let (w, h) = sizes.last!
            let n = ((w + 1) / 2, (h + 1) / 2)
            if min(n.0, n.1) < 8 { break }
            sizes.append(n)
        }
        let levels = sizes.count
        // Weights.
        var weights: [Plane] = frames.map { f in
            var wt = Plane(repeating: 0, count: width * height)
            let grey = (0..<(width * height)).map {
                0.299 * Double(f[0][$0]) + 0.587 * Double(f[1][$0]) + 0.114 * Double(f[2][$0])
            }
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * width + x
                    let lap =
                        grey[reflect(y - 1, height) * width + x] + grey[reflect(y + 1, height) * width + x]
                        + grey[y * width + reflect(x - 1, width)] + grey[y * width + reflect(x + 1, width)] - 4
                        * grey[i]
                    let (r, g, b) = (Double(f[0][i]), Double(f[1][i]), Double(f[2][i]))
                    let m = (r + g + b) / 3
                    let sat =
                        r == g && g == b
                        ? 0 : (((r - m) * (r - m) + (g - m) * (g - m) + (b - m) * (b - m)) / 3).squareRoot()
                    func wellExposed(_ v: Double) -> Double { exp(-(v - 0.5) * (v - 0.5) / (2 * 0.04)) }
                    let e = wellExposed(r) * wellExposed(g) * wellExposed(b)
                    wt[i] = pow(abs(lap), contrast) * sat * e + 1e-12
                }
            }
            return wt
        }
        for i in 0..<(width * height) {
            let s = weights.reduce(0) { $0 + $1[i] }
            for k in weights.indices { weights[k][i] /= s }
        }
        // Pyramids and blend.
        var result: [Plane] = []
        for c in 0..<3 {
            var blended: [Plane] = sizes.map { Plane(repeating: 0, count: $0.0 * $0.1) }
            for k in frames.indices {
                var g = [frames[k][c].map(Double.init)]
                var gw = [weights[k]]
                for l in 1..<levels {
                    g.append(down(g[l - 1], sizes[l - 1].0, sizes[l - 1].1))
                    gw.append(down(gw[l - 1], sizes[l - 1].0, sizes[l - 1].1))
                }
                for l in 0..<levels {
                    let (w, h) = sizes[l]
                    let lap: Plane
                    if l == levels - 1 {
                        lap = g[l]
                    } else {
                        let e = up(g[l + 1], sizes[l + 1].0, w, h)
                        lap = (0..<(w * h)).map { g[l][$0] - e[$0] }
                    }
                    for i in 0..<(w * h) { blended[l][i] += gw[l][i] * lap[i] }
                }
            }
            var collapsed = blended[levels - 1]
            for l in stride(from: levels - 2, through: 0, by: -1) {
                let (w, h) = sizes[l]
                let e = up(collapsed, sizes[l + 1].0, w, h)
                collapsed = (0..<(w * h)).map { blended[l][$0] + e[$0] }
            }
            result.append(collapsed)
        }
        return result
    }
}

extension ExposureFusionTests {
    /// Against enfuse 4.2 on the same three 8-bit brackets (the E5 recipe at 1008 × 756), both with the paper's weights
    /// (exposure, saturation and contrast all 1).
    ///
    /// The two differ by design in details — enfuse measures contrast as a 5×5 standard deviation rather than a
    /// Laplacian and blends with its own pyramid depth — so the comparison is of the result: structural similarity of
    /// the two fused lumas, and how much of each image is well exposed (luma in 0.05…0.95) compared with the inputs.
    @Test(
        .enabled(if: ExternalTool.isAvailable("enfuse") && ExternalTool.isAvailable("djpeg"), "needs enfuse and djpeg"))
    func comparableToEnfuse() throws {
        let scene = try LinearScene.photo(scale: 4)
        let (w, h) = (scene.width, scene.height)
        let brackets = Self.brackets(scene)
        let frames = brackets.map { Self.buffer($0, width: w, height: h, format: .rgba8) }
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var paths: [String] = []
        for (i, f) in frames.enumerated() {
            let p = dir + "/b\(i).ppm"
            try PPM.write(f, to: p)
            paths.append(p)
        }
        let (status, _) = try ExternalTool.run(
            "enfuse",
            ["--exposure-weight=1", "--saturation-weight=1", "--contrast-weight=1", "-o", dir + "/enfuse.tif"] + paths)
        try #require(status == 0)
        let (s2, _) = try ExternalTool.run("vips", ["copy", dir + "/enfuse.tif", dir + "/enfuse.ppm"])
        try #require(s2 == 0)
        let theirs = try PPM.read(dir + "/enfuse.ppm")
        let ours = try ExposureFusion().fuse(frames)
        #expect(ours.format == .rgba8)
        let lo = Quality.luma(ours)
        let le = Quality.luma(theirs)
        let ssim = Quality.ssim(lo, le, width: w, height: h)
        func wellExposed(_ l: [Double]) -> Double {
            Double(l.filter { $0 > 0.05 && $0 < 0.95 }.count) / Double(l.count)
        }
        let inputs = frames.map { wellExposed(Quality.luma($0)) }
        print(
            "SSIM(Lux, enfuse) = \(ssim); well exposed: Lux \(wellExposed(lo)), enfuse \(wellExposed(le)), inputs \(inputs)"
        )
        #expect(ssim > 0.9)
        #expect(wellExposed(lo) >= wellExposed(le) - 0.02)
        #expect(wellExposed(lo) > inputs.max()!)
    }
}
