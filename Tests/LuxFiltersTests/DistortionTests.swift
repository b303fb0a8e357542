import Foundation
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// The radial distortions against their documented formulas: the input is a coordinate ramp (red = x, green = y of
/// the pixel centre, which bilinear sampling reproduces exactly), so each output pixel tells where it read.
@Suite struct DistortionTests {
    static let size = 96
    static let center = Point(x: 45.5, y: 50.25)

    static let ramp = coordinateRamp(size: size)

    /// Checks that each pixel read the source at `formula(dx, dy)` (offsets from the centre), where that lies at
    /// least a pixel inside the ramp; returns how many pixels were checked.
    @discardableResult
    static func expectReads(
        _ image: Image, _ comment: String, formula: (Double, Double) -> (Double, Double)?
    ) throws -> Int {
        let out = try renderFloat(image, Rect(width: size, height: size))
        var checked = 0
        var worst = 0.0
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) + 0.5 - center.x
                let dy = Double(y) + 0.5 - center.y
                guard let (sx, sy) = formula(dx, dy) else { continue }
                let ax = center.x + sx
                let ay = center.y + sy
                guard ax > 1, ay > 1, ax < Double(size - 1), ay < Double(size - 1) else { continue }
                let p = pixel(out, y * size + x)
                worst = max(worst, abs(p.x - ax), abs(p.y - ay))
                checked += 1
            }
        }
        #expect(worst < 2e-3, "\(comment): worst error \(worst) pixels")
        #expect(checked > size * size / 4, "\(comment)")
        return checked
    }

    static func rotated(_ dx: Double, _ dy: Double, by theta: Double) -> (Double, Double) {
        (cos(theta) * dx - sin(theta) * dy, sin(theta) * dx + cos(theta) * dy)
    }

    @Test("TwirlDistortion rotates by −angle·(1 − r/R)² inside R and leaves the rest", arguments: [1.0, -2.5, 6.0])
    func twirl(angle: Double) throws {
        let image = Self.ramp.twirlDistortion(center: Self.center, radius: 40, angle: angle)
        try Self.expectReads(image, "twirl \(angle)") { dx, dy in
            let r = (dx * dx + dy * dy).squareRoot()
            return r < 40 ? Self.rotated(dx, dy, by: -angle * (1 - r / 40) * (1 - r / 40)) : (dx, dy)
        }
    }

    @Test("VortexDistortion rotates by −angle·(1 − r/R)⁴")
    func vortex() throws {
        let image = Self.ramp.vortexDistortion(center: Self.center, radius: 45, angle: 20)
        try Self.expectReads(image, "vortex") { dx, dy in
            let r = (dx * dx + dy * dy).squareRoot()
            return r < 45 ? Self.rotated(dx, dy, by: -20 * pow(1 - r / 45, 4)) : (dx, dy)
        }
    }

    @Test("BumpDistortion reads at r·(1 − scale·(1 − r/R)²) along the ray", arguments: [0.5, -0.8, 1.0])
    func bump(scale: Double) throws {
        let image = Self.ramp.bumpDistortion(center: Self.center, radius: 35, scale: scale)
        try Self.expectReads(image, "bump \(scale)") { dx, dy in
            let r = (dx * dx + dy * dy).squareRoot()
            let f = r < 35 ? 1 - scale * (1 - r / 35) * (1 - r / 35) : 1
            return (dx * f, dy * f)
        }
    }

    @Test(
        "BumpDistortionLinear reads at d·(1 − scale·(1 − d/R)²) across the line, unchanged along it",
        arguments: [(0.5, 0.0), (-0.9, 2.1)])
    func bumpLinear(scale: Double, angle: Double) throws {
        let image = Self.ramp.bumpDistortionLinear(center: Self.center, radius: 25, angle: angle, scale: scale)
        try Self.expectReads(image, "bump linear \(scale)") { dx, dy in
            let along = cos(angle) * dx + sin(angle) * dy
            let d = -sin(angle) * dx + cos(angle) * dy
            let t = max(1 - abs(d) / 25, 0)
            let e = d * (1 - scale * t * t)
            return (along * cos(angle) - e * sin(angle), along * sin(angle) + e * cos(angle))
        }
    }

    @Test("CircularWrap reads (R·φ, R − r) from the centre, φ the polar angle from angle in −π…π")
    func circularWrap() throws {
        let image = Self.ramp.circularWrap(center: Self.center, radius: 30, angle: 0.4)
        try Self.expectReads(image, "circular wrap") { dx, dy in
            var phi = atan2(dy, dx) - 0.4
            if phi < -Double.pi { phi += 2 * Double.pi }
            if phi > Double.pi { phi -= 2 * Double.pi }
            return (30 * phi, 30 - (dx * dx + dy * dy).squareRoot())
        }
    }

    @Test("PinchDistortion reads at R·(r/R)^(1 − scale/2) along the ray", arguments: [0.5, 1.5])
    func pinch(scale: Double) throws {
        let image = Self.ramp.pinchDistortion(center: Self.center, radius: 38, scale: scale)
        try Self.expectReads(image, "pinch \(scale)") { dx, dy in
            let r = (dx * dx + dy * dy).squareRoot()
            guard r < 38, r > 0 else { return (dx, dy) }
            let f = 38 * pow(r / 38, 1 - scale / 2) / r
            return (dx * f, dy * f)
        }
    }

    @Test("HoleDistortion reads at √(r² − R²) outside the hole and is clear inside")
    func hole() throws {
        let image = Self.ramp.holeDistortion(center: Self.center, radius: 20)
        try Self.expectReads(image, "hole") { dx, dy in
            let r2 = dx * dx + dy * dy
            guard r2 > 21 * 21 else { return nil }
            let f = ((r2 - 400) / r2).squareRoot()
            return (dx * f, dy * f)
        }
        let out = try renderFloat(image, Rect(width: Self.size, height: Self.size))
        #expect(pixel(out, 50 * Self.size + 45).w == 0)
        #expect(image.extent == Self.ramp.extent)
    }

    @Test("CircleSplashDistortion keeps the disc and reads the rim outside it")
    func circleSplash() throws {
        let image = Self.ramp.circleSplashDistortion(center: Self.center, radius: 25)
        try Self.expectReads(image, "splash") { dx, dy in
            let r = (dx * dx + dy * dy).squareRoot()
            return r > 25 ? (dx * 25 / r, dy * 25 / r) : (dx, dy)
        }
    }

    @Test("LightTunnel reads the rim at its angle minus rotation·(r − R)/R")
    func lightTunnel() throws {
        let image = Self.ramp.lightTunnel(center: Self.center, rotation: 1.2, radius: 20)
        try Self.expectReads(image, "tunnel") { dx, dy in
            let r = (dx * dx + dy * dy).squareRoot()
            guard r > 20 else { return (dx, dy) }
            let theta = atan2(dy, dx) - 1.2 * (r - 20) / 20
            return (20 * cos(theta), 20 * sin(theta))
        }
    }

    @Test(
        "rendering a part equals the same part of the whole (the ROIs cover every source position)",
        arguments: ["twirl", "hole", "bump", "tunnel", "tunnelBack", "splash", "wrap"])
    func regionOfInterest(name: String) throws {
        let c = Self.center
        let image =
            switch name {
            case "twirl": Self.ramp.twirlDistortion(center: c, radius: 30, angle: 3)
            case "hole": Self.ramp.holeDistortion(center: c, radius: 10)
            case "bump": Self.ramp.bumpDistortion(center: c, radius: 30, scale: -1)
            case "tunnel": Self.ramp.lightTunnel(center: c, rotation: 2, radius: 15)
            case "tunnelBack": Self.ramp.lightTunnel(center: c, rotation: -0.7, radius: 22)
            case "wrap": Self.ramp.circularWrap(center: c, radius: 25, angle: 1)
            default: Self.ramp.circleSplashDistortion(center: c, radius: 12)
            }
        let whole = try renderFloat(image, Rect(width: Self.size, height: Self.size))
        // Every 16-pixel part: parts away from the centre read only the arc or the columns their angles reach.
        for y0 in stride(from: 0, through: Self.size - 16, by: 16) {
            for x0 in stride(from: 0, through: Self.size - 16, by: 16) {
                let part = try renderFloat(image, Rect(x: x0, y: y0, width: 16, height: 16))
                for y in 0..<16 {
                    for x in 0..<16 {
                        #expect(pixel(part, y * 16 + x) == pixel(whole, (y + y0) * Self.size + x + x0), "\(name)")
                    }
                }
            }
        }
    }
}

/// DisplacementDistortion against `vips mapim` driven by the documented formula.
@Suite struct DisplacementDistortionTests {
    @Test("equals vips mapim with the index image x + scale·(r − ½), y − scale·(g − ½)", .needs("vips"))
    func mapim() throws {
        let (w, h) = (80, 60)
        let scale = 24.0
        // A smooth 8-bit picture and a displacement map (float, so r and g are exact).
        var picture = [UInt8](repeating: 255, count: 4 * w * h)
        var map = [Float](repeating: 1, count: 4 * w * h)
        for y in 0..<h {
            for x in 0..<w {
                let o = 4 * (y * w + x)
                picture[o] = UInt8(clamping: Int(127.5 + 120 * sin(Double(x) / 6 + Double(y) / 11)))
                picture[o + 1] = UInt8(clamping: Int(127.5 + 120 * cos(Double(y) / 5)))
                picture[o + 2] = UInt8(x * 3)
                map[o] = Float(0.5 + 0.45 * sin(Double(x) / 7 + Double(y) / 13))
                map[o + 1] = Float(0.5 + 0.45 * cos(Double(y) / 9 - Double(x) / 17))
            }
        }
        let input = PixelBuffer(width: w, height: h, format: .rgba8, components: picture)
        let displacement = Image(buffer: PixelBuffer(width: w, height: h, format: .rgbaFloat, components: map))
        let ours = try renderFloat(Image(buffer: input).displacementDistortion(displacement, scale: scale))

        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The index image: vips puts pixel centres at whole numbers, Lux at + ½ (vips reads PFM rows top down).
        var pfm = Data("PF\n\(w) \(h)\n-1.0\n".utf8)
        var inside = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let o = 4 * (y * w + x)
                let sx = Double(x) + 0.5 + scale * (Double(map[o]) - 0.5)
                let sy = Double(y) + 0.5 - scale * (Double(map[o + 1]) - 0.5)
                inside[y * w + x] = sx > 1 && sy > 1 && sx < Double(w - 1) && sy < Double(h - 1)
                for v in [Float(sx - 0.5), Float(sy - 0.5), 0] { withUnsafeBytes(of: v) { pfm.append(contentsOf: $0) } }
            }
        }
        try pfm.write(to: URL(fileURLWithPath: dir + "/index.pfm"))
        try NetPBM.writePPM(input, to: dir + "/in.ppm")
        for arguments in [
            ["extract_band", dir + "/index.pfm", dir + "/index.v", "0", "--n", "2"],
            ["mapim", dir + "/in.ppm", dir + "/out.ppm", dir + "/index.v"],
        ] {
            let r = try ExternalTool.run("vips", arguments)
            try #require(r.status == 0, "vips \(arguments[0]) failed")
        }
        let reference = try NetPBM.readPPM(dir + "/out.ppm").components(as: UInt8.self)
        var worst = 0.0
        var checked = 0
        for p in 0..<(w * h) where inside[p] {
            for c in 0..<3 { worst = max(worst, abs(Double(ours[4 * p + c]) * 255 - Double(reference[4 * p + c]))) }
            checked += 1
        }
        #expect(checked > w * h / 2)
        #expect(worst <= 1.5, "worst difference \(worst) of 255")
    }
}

/// GlassDistortion against its formula: central differences of the texture's luma, evaluated in Double.
@Suite struct GlassDistortionTests {
    @Test("a pixel reads at its centre + scale·(central-difference slope of the texture's luma)")
    func slope() throws {
        let size = DistortionTests.size
        func relief(_ x: Int, _ y: Int) -> Double {
            let cx = min(max(x, 0), 39)
            let cy = min(max(y, 0), 29)
            return 0.5 + 0.3 * sin(Double(cx) / 5) * cos(Double(cy) / 4)
        }
        var c = [Float](repeating: 1, count: 4 * 40 * 30)
        for y in 0..<30 { for x in 0..<40 { for ch in 0..<3 { c[4 * (y * 40 + x) + ch] = Float(relief(x, y)) } } }
        let texture = Image(buffer: PixelBuffer(width: 40, height: 30, format: .rgbaFloat, components: c))
        // The texture's centre (20, 15) lands on (50, 45): texture pixel (x − 30, y − 30).
        let out = try renderFloat(
            DistortionTests.ramp.glassDistortion(texture: texture, center: Point(x: 50, y: 45), scale: 12),
            Rect(width: size, height: size))
        var checked = 0
        for y in 0..<size {
            for x in 0..<size {
                let (tx, ty) = (x - 30, y - 30)
                let sx = Double(x) + 0.5 + 12 * (relief(tx + 1, ty) - relief(tx - 1, ty)) / 2
                let sy = Double(y) + 0.5 + 12 * (relief(tx, ty + 1) - relief(tx, ty - 1)) / 2
                guard sx > 1, sy > 1, sx < Double(size - 1), sy < Double(size - 1) else { continue }
                let p = pixel(out, y * size + x)
                #expect(abs(p.x - sx) < 2e-3 && abs(p.y - sy) < 2e-3, "(\(x), \(y))")
                checked += 1
            }
        }
        #expect(checked > size * size / 2)
    }
}
