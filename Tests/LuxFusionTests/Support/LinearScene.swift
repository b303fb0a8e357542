import Foundation
import LuxPixels
import LuxTestSupport

/// A linear-light RGB scene made from the project's real photograph, and the test-side camera that films it: sub-pixel
/// shifts by cubic interpolation, moving patches, exposure, clipping and Poisson–Gaussian noise with a seeded RNG.
///
/// Everything here is independent of LuxFusion (the oracle of the fusion tests).
struct LinearScene: Sendable {
    let width: Int
    let height: Int
    /// Planar linear RGB (sRGB primaries), 0…1 for the photo.
    var planes: [[Float]]

    /// The test photograph at 1/4 size (1008 × 756) blurred by σ = 0.7 px, made once for every suite (`nil` without
    /// djpeg or the photograph).
    static let blurredPhoto: LinearScene? = try? LinearScene.photo(scale: 4).blurred(sigma: 0.7)

    /// The test photograph decoded by djpeg at `1/scale` size, linearised with the sRGB transfer function.
    static func photo(scale: Int) throws -> LinearScene {
        let path = TestData.root + "/livephoto/iphone6s_livephoto_train.jpg"
        let (status, data) = try ExternalTool.run("djpeg", ["-scale", "1/\(scale)", "-ppm", path])
        guard status == 0 else { throw SceneError("djpeg failed on \(path)") }
        let ppm = try NetpbmImage(data)
        guard ppm.channels == 3, ppm.maxValue == 255 else { throw SceneError("djpeg did not write an 8-bit PPM") }
        var lut = [Float](repeating: 0, count: 256)
        for i in 0..<256 {
            let v = Double(i) / 255
            lut[i] = Float(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4))
        }
        let n = ppm.width * ppm.height
        var planes = [[Float]](repeating: [Float](repeating: 0, count: n), count: 3)
        for c in 0..<3 {
            planes[c].withUnsafeMutableBufferPointer { p in
                ppm.samples.withUnsafeBufferPointer { s in
                    for i in 0..<n { p[i] = lut[Int(s[3 * i + c])] }
                }
            }
        }
        return LinearScene(width: ppm.width, height: ppm.height, planes: planes)
    }

    /// Keys cubic (a = −0.5) weights for fractional position `t`.
    @inline(__always)
    static func cubicWeights(_ t: Float) -> SIMD4<Float> {
        func w(_ x: Float) -> Float {
            let a = abs(x)
            if a < 1 { return 1.5 * a * a * a - 2.5 * a * a + 1 }
            if a < 2 { return -0.5 * a * a * a + 2.5 * a * a - 4 * a + 2 }
            return 0
        }
        return SIMD4(w(1 + t), w(t), w(1 - t), w(2 - t))
    }

    /// The scene value of channel `c` at `(x, y)` (cubic interpolation, clamped edges).
    func sample(_ c: Int, _ x: Float, _ y: Float) -> Float {
        let fx = x.rounded(.down)
        let fy = y.rounded(.down)
        let ix = Int(fx)
        let iy = Int(fy)
        let wx = Self.cubicWeights(x - fx)
        let wy = Self.cubicWeights(y - fy)
        return planes[c].withUnsafeBufferPointer { p in
            var s: Float = 0
            for j in 0..<4 {
                let yy = min(max(iy - 1 + j, 0), height - 1)
                var r: Float = 0
                for i in 0..<4 {
                    let xx = min(max(ix - 1 + i, 0), width - 1)
                    r += wx[i] * p[yy * width + xx]
                }
                s += wy[j] * r
            }
            return s
        }
    }

    /// A scene of `width × height` pixels cut out of this one at `(x0, y0)` and multiplied by `gain`.
    func cropped(x0: Int, y0: Int, width w: Int, height h: Int, gain: Float = 1) -> LinearScene {
        var out = [[Float]](repeating: [Float](repeating: 0, count: w * h), count: 3)
        for c in 0..<3 {
            for y in 0..<h { for x in 0..<w { out[c][y * w + x] = planes[c][(y + y0) * width + x + x0] * gain } }
        }
        return LinearScene(width: w, height: h, planes: out)
    }
}

/// A patch that moves over the scene between frames (an object in motion): a disc textured with stripes.
struct MovingDisc: Sendable {
    var center: SIMD2<Float>
    var velocity: SIMD2<Float>
    var radius: Float
    var color: SIMD3<Float>

    /// Whether frame pixel `(x, y)` at frame `t` is inside the disc, and its value there.
    @inline(__always)
    func value(_ c: Int, _ x: Float, _ y: Float, frame t: Int) -> Float? {
        let p = center + velocity * Float(t)
        let d = SIMD2(x, y) - p
        guard (d * d).sum() <= radius * radius else { return nil }
        let stripe: Float = Int(((x - p.x) / 3).rounded(.down)) & 1 == 0 ? 1 : 0.35
        return color[c] * stripe
    }
}

/// How the test camera films a frame.
struct Shot: Sendable {
    /// Where the frame's origin lies in the scene (sub-pixel).
    var offset: SIMD2<Float>
    /// Rotation about the frame centre, radians.
    var rotation: Float = 0
    /// Multiplies the scene (exposure time × gain relative to the reference).
    var exposure: Float = 1
    var discs: [MovingDisc] = []
    var frameIndex: Int = 0

    /// The scene position seen by frame pixel `(x, y)` of a `w × h` frame.
    @inline(__always)
    func scenePosition(_ x: Float, _ y: Float, _ w: Int, _ h: Int) -> SIMD2<Float> {
        if rotation == 0 { return SIMD2(x, y) + offset }
        let cx = Float(w) / 2
        let cy = Float(h) / 2
        let c = cos(rotation)
        let s = sin(rotation)
        let u = x - cx
        let v = y - cy
        return SIMD2(c * u - s * v + cx, s * u + c * v + cy) + offset
    }
}

extension LinearScene {
    /// The clean linear value of channel `c` seen by frame pixel `(x, y)`.
    func value(_ c: Int, _ x: Int, _ y: Int, shot: Shot, w: Int, h: Int) -> Float {
        for disc in shot.discs {
            if let v = disc.value(c, Float(x), Float(y), frame: shot.frameIndex) { return v * shot.exposure }
        }
        let p = shot.scenePosition(Float(x), Float(y), w, h)
        return max(sample(c, p.x, p.y), 0) * shot.exposure
    }

    /// A clean Bayer mosaic (linear, unclipped) of a `w × h` frame.
    func mosaic(width w: Int, height h: Int, pattern: CFAPattern, shot: Shot) -> [Float] {
        var out = [Float](repeating: 0, count: w * h)
        let quad = pattern.quadChannels.map(\.rawValue)
        for y in 0..<h {
            for x in 0..<w { out[y * w + x] = value(quad[(y & 1) * 2 + (x & 1)], x, y, shot: shot, w: w, h: h) }
        }
        return out
    }

    /// A clean planar RGB frame (linear, unclipped) of `w × h`.
    func rgb(width w: Int, height h: Int, shot: Shot) -> [[Float]] {
        (0..<3).map { c in
            var p = [Float](repeating: 0, count: w * h)
            for y in 0..<h { for x in 0..<w { p[y * w + x] = value(c, x, y, shot: shot, w: w, h: h) } }
            return p
        }
    }
}

/// A failure to make a test scene.
struct SceneError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension LinearScene {
    /// The scene seen through a lens whose blur (with the sensor's anti-aliasing) is a Gaussian of `sigma` pixels.
    func blurred(sigma: Float) -> LinearScene {
        let r = Int((3 * sigma).rounded(.up))
        var k = (-r...r).map { Float(exp(-Double($0 * $0) / Double(2 * sigma * sigma))) }
        let s = k.reduce(0, +)
        k = k.map { $0 / s }
        var out = planes
        for c in 0..<3 {
            var tmp = [Float](repeating: 0, count: width * height)
            planes[c].withUnsafeBufferPointer { p in
                for y in 0..<height {
                    for x in 0..<width {
                        var a: Float = 0
                        for i in -r...r { a += k[i + r] * p[y * width + min(max(x + i, 0), width - 1)] }
                        tmp[y * width + x] = a
                    }
                }
            }
            for y in 0..<height {
                for x in 0..<width {
                    var a: Float = 0
                    for i in -r...r { a += k[i + r] * tmp[min(max(y + i, 0), height - 1) * width + x] }
                    out[c][y * width + x] = a
                }
            }
        }
        return LinearScene(width: width, height: height, planes: out)
    }
}

/// Binary PPM files for exchanging 8-bit images with command-line tools.
enum PPM {
    /// Writes the RGB of an RGBA8 buffer.
    static func write(_ buffer: PixelBuffer, to path: String) throws {
        let c = buffer.components(as: UInt8.self)
        var out = Data("P6\n\(buffer.width) \(buffer.height)\n255\n".utf8)
        out.append(contentsOf: (0..<(3 * buffer.width * buffer.height)).map { c[4 * ($0 / 3) + $0 % 3] })
        try out.write(to: URL(fileURLWithPath: path))
    }

    /// Reads an 8-bit PPM into an RGBA8 sRGB buffer.
    static func read(_ path: String) throws -> PixelBuffer {
        let ppm = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: path)))
        guard ppm.channels == 3, ppm.maxValue == 255 else { throw SceneError("\(path) is not an 8-bit PPM") }
        let rgba = (0..<(ppm.width * ppm.height * 4)).map { i in
            i % 4 == 3 ? UInt8(255) : UInt8(ppm.samples[3 * (i / 4) + i % 4])
        }
        return PixelBuffer(width: ppm.width, height: ppm.height, format: .rgba8, components: rgba, colorSpace: .sRGB)
    }
}
