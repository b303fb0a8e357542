import Foundation
import LuxPixels
import LuxTestSupport
import Testing

/// `lux scene` and `--scene photo:FILE` on photographs.
@Suite struct SceneCommandTests {
    @Test(
        "scene render photo:FILE gives a vips-made grey print back as its ground truth (sRGB 128 ± 2); bad files are named",
        .needsLux, .needs("vips"))
    func renderPhotograph() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try ExternalTool.run("vips", ["black", dir + "/black.png", "64", "48", "--bands", "3"]).status == 0)
        #expect(
            try ExternalTool.run("vips", ["linear", dir + "/black.png", dir + "/grey.png", "1", "128", "--uchar"])
                .status == 0)
        let out = dir + "/truth.png"
        let r = try LuxExecutable.run(
            lux, ["scene", "render", "photo:" + dir + "/grey.png", "-o", out, "--width", "64"])
        #expect(r.status == 0, "\(r.errorText)")
        let point = try ExternalTool.run("vips", ["getpoint", out, "32", "24"])
        let values = String(decoding: point.output, as: UTF8.self).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(values.count >= 3)
        // A PNG is written with 16 bits per sample: 128 is 128 × 257.
        for v in values.prefix(3) { #expect(abs(v / 257 - 128) <= 2, "\(values)") }

        let missing = try LuxExecutable.run(
            lux, ["scene", "render", "photo:" + dir + "/none.jpg", "-o", dir + "/x.png"])
        #expect(missing.status != 0 && missing.errorText.contains(dir + "/none.jpg"), "\(missing.errorText)")
        let malformed = try LuxExecutable.run(
            lux, ["scene", "render", "photo:" + dir + "/grey.png,deep=x", "-o", dir + "/y.png"])
        #expect(malformed.status != 0 && malformed.errorText.contains("depth=FILE"), "\(malformed.errorText)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.png"))
    }

    @Test(
        "photo:FILE,size=N reduces a 4032 × 3024 sRGB JPEG to N pixels with the colours of vips thumbnail (per-channel means within 1 %)",
        .needsLux, .needs("vips"))
    func reducedPhotographColours() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-photo-size")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try TestData.path("livephoto/iphone6s_livephoto_train.jpg")
        let rendered = dir.appendingPathComponent("lux.png").path
        let r = try LuxExecutable.run(
            lux, ["scene", "render", "photo:" + photo + ",size=256", "-o", rendered, "--width", "256"])
        try #require(r.status == 0, "\(r.errorText)")
        let thumbnail = dir.appendingPathComponent("vips.png").path
        try ExternalTool.capture("vips", ["thumbnail", photo, thumbnail, "256"]).succeeded()
        func pixels(_ png: String) throws -> NetpbmImage {
            let ppm = png + ".ppm"
            try ExternalTool.capture("vips", ["copy", png, ppm]).succeeded()
            return try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: ppm)))
        }
        let a = try pixels(rendered)
        let b = try pixels(thumbnail)
        try #require(a.width == 256 && a.height == 192 && b.width == 256 && b.height == 192, "\(a.width)×\(a.height)")
        // Per-channel means over the pixels neither clips (the scene makes a photograph's near-white parts shine
        // above its white).
        var sums = (SIMD3<Double>.zero, SIMD3<Double>.zero)
        var n = 0.0
        for i in 0..<(256 * 192) {
            var p = SIMD3<Double>.zero
            var q = SIMD3<Double>.zero
            for c in 0..<3 {
                p[c] = Double(a.samples[3 * i + c]) / Double(a.maxValue)
                q[c] = Double(b.samples[3 * i + c]) / Double(b.maxValue)
            }
            guard p.max() < 0.9, q.max() < 0.9 else { continue }
            sums.0 += p
            sums.1 += q
            n += 1
        }
        #expect(n > 256 * 192 / 2)
        let difference = (sums.0 - sums.1) / n
        #expect(
            max(abs(difference.x), abs(difference.y), abs(difference.z)) < 0.01,
            "per-channel mean difference \(difference) over \(Int(n)) pixels")

        let malformed = try LuxExecutable.run(
            lux, ["scene", "render", "photo:" + photo + ",size=big", "-o", dir.appendingPathComponent("x.png").path])
        #expect(malformed.status != 0 && malformed.errorText.contains("size=big"), "\(malformed.errorText)")
    }

    @Test(
        "capture --parallax: between two shake seeds the near half of a photograph (0.12 m) moves against its far half (20 m), by normalised cross-correlation in djpeg's decoding; without --parallax the halves move together",
        .needsLux, .needs("djpeg"), .needs("vips"))
    func captureWithParallax() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-parallax")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The train photograph, its left half 0.12 m away and its right half 20 m (a float TIFF made by vips).
        let v = { (name: String) in dir.appendingPathComponent(name).path }
        for (arguments, what) in [
            (["black", v("zero.v"), "80", "120"], "black"),
            (["linear", v("zero.v"), v("near.v"), "1", "0.12"], "near"),
            (["linear", v("zero.v"), v("far.v"), "1", "20"], "far"),
            (["join", v("near.v"), v("far.v"), v("depth.tif"), "horizontal"], "join"),
        ] {
            try #require(try ExternalTool.run("vips", arguments).status == 0, "vips \(what)")
        }
        let scene =
            "photo:" + (try TestData.path("livephoto/iphone6s_livephoto_train.jpg")) + ",depth=" + v("depth.tif")
        /// How far the near half moved between the two seeds' shots minus how far the far half did, in pixels.
        func relativeMove(_ motion: String) throws -> Double {
            let images = try ["1", "2"].map { seed in
                let out = dir.appendingPathComponent(motion + seed)
                let r = try LuxExecutable.run(
                    lux,
                    [
                        "capture", "--scene", scene + ",size=640", motion, "--shake-seed", seed, "--sensor", "640x480",
                        "-o", out.path,
                    ])
                try #require(r.status == 0, "\(r.errorText)")
                let shot = try #require(try CLIFixtures.files(in: out).first { $0.hasSuffix(".jpg") })
                return try NetPBM.decodeJPEG(out.appendingPathComponent(shot).path)
            }
            let a = Self.luma(images[0])
            let b = Self.luma(images[1])
            let w = images[0].width
            // Each half but for a margin at the frame's edges and at the depth edge between them (fractions).
            let near = Self.shift(a, b, width: w, region: (0.05, 0.1, 0.42, 0.9))
            let far = Self.shift(a, b, width: w, region: (0.58, 0.1, 0.95, 0.9))
            let d = near - far
            return (d * d).sum().squareRoot()
        }
        let sliding = try relativeMove("--parallax")
        let turning = try relativeMove("--handheld")
        // 0.5 mm RMS of slide moves a layer at 0.12 m by f·T/Z ≈ 360 px · 0.5 mm / 120 mm ≈ 1.5 px on this 480-pixel
        // photo, one at 20 m by 0.01 px; a turn moves both alike.
        #expect(sliding > 1 && sliding > 4 * turning, "relative move \(sliding) px with parallax, \(turning) without")
    }

    /// BT.709 luma (0…255) of an 8-bit RGBA buffer.
    static func luma(_ buffer: PixelBuffer) -> [Double] {
        let c = buffer.components(as: UInt8.self)
        var out = [Double](repeating: 0, count: buffer.width * buffer.height)
        for i in out.indices {
            let r = 0.2126 * Double(c[4 * i])
            let g = 0.7152 * Double(c[4 * i + 1])
            let b = 0.0722 * Double(c[4 * i + 2])
            out[i] = r + g + b
        }
        return out
    }

    /// The shift in pixels that best maps `region` (fractions of the frame: x0, y0, x1, y1) of `a` onto `b`: the
    /// integer shift within ±8 pixels with the highest normalised cross-correlation, refined by a parabola through
    /// the peak and its neighbours on each axis.
    static func shift(
        _ a: [Double], _ b: [Double], width w: Int, region: (Double, Double, Double, Double)
    ) -> SIMD2<Double> {
        let h = a.count / w
        let r = 8
        let x0 = Int(region.0 * Double(w))
        let y0 = Int(region.1 * Double(h))
        let x1 = Int(region.2 * Double(w))
        let y1 = Int(region.3 * Double(h))
        func ncc(_ dx: Int, _ dy: Int) -> Double {
            var sa = 0.0
            var sb = 0.0
            var saa = 0.0
            var sbb = 0.0
            var sab = 0.0
            var n = 0.0
            for y in max(y0, -dy)..<min(y1, h - dy) {
                for x in max(x0, -dx)..<min(x1, w - dx) {
                    let p = a[y * w + x]
                    let q = b[(y + dy) * w + x + dx]
                    sa += p
                    sb += q
                    saa += p * p
                    sbb += q * q
                    sab += p * q
                    n += 1
                }
            }
            let cov = sab - sa * sb / n
            return cov / max(((saa - sa * sa / n) * (sbb - sb * sb / n)).squareRoot(), 1e-9)
        }
        var scores = [[Double]](repeating: [Double](repeating: -2, count: 2 * r + 1), count: 2 * r + 1)
        var best = (0, 0)
        for dy in -r...r {
            for dx in -r...r {
                scores[dy + r][dx + r] = ncc(dx, dy)
                if scores[dy + r][dx + r] > scores[best.1 + r][best.0 + r] { best = (dx, dy) }
            }
        }
        func vertex(_ m: Double, _ c: Double, _ p: Double) -> Double {
            let d = m - 2 * c + p
            return d < 0 ? 0.5 * (m - p) / d : 0
        }
        let (bx, by) = best
        let fx =
            abs(bx) < r ? vertex(scores[by + r][bx + r - 1], scores[by + r][bx + r], scores[by + r][bx + r + 1]) : 0
        let fy =
            abs(by) < r ? vertex(scores[by + r - 1][bx + r], scores[by + r][bx + r], scores[by + r + 1][bx + r]) : 0
        return SIMD2(Double(bx) + fx, Double(by) + fy)
    }

    @Test(
        "lux codes detect reads the QR and Aztec codes of photo-codes back from a hand-held capture", .needsLux)
    func codesFromCapture() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-photo-codes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try LuxExecutable.run(
            lux, ["capture", "--scene", "photo-codes", "--handheld", "--sensor", "640x480", "-o", dir.path])
        try #require(r.status == 0, "\(r.errorText)")
        let photo = try #require(try CLIFixtures.files(in: dir).first { $0.hasSuffix(".jpg") })
        let d = try LuxExecutable.run(lux, ["codes", "detect", dir.appendingPathComponent(photo).path])
        #expect(d.status == 0, "\(d.errorText)")
        let lines = d.text.split(separator: "\n")
        #expect(lines.contains { $0.contains(" qr ") && $0.hasSuffix(" https://lux.example/photo-codes") }, "\(d.text)")
        #expect(lines.contains { $0.contains(" aztec ") && $0.hasSuffix(" LUX AZTEC 30") }, "\(d.text)")
    }

    @Test("scene list names the photographic scenes beside the procedural ones", .needsLux)
    func list() throws {
        let lux = try #require(LuxExecutable.path)
        let r = try LuxExecutable.run(lux, ["scene", "list"])
        #expect(r.status == 0, "\(r.errorText)")
        for name in [
            "chart", "hdr-window", "photo-daylight", "photo-indoor", "photo-low-light", "photo-portrait", "photo-codes",
        ] {
            #expect(r.text.contains(name + " "), "\(name) missing from:\n\(r.text)")
        }
    }
}
