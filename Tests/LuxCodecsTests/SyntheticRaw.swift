import LuxColor
import LuxPixels

@testable import LuxCodecs

/// A simulated 14-bit RGGB capture of a test chart under D65: a gray ramp, a neutral 18 % patch and red,
/// green and blue patches, mosaicked through a camera whose XYZ → camera matrix is known, plus seeded noise.
enum SyntheticRaw {
    static let xyzToCamera = Matrix3x3([0.6461, -0.1164, -0.0857, -0.3825, 1.1597, 0.2534, -0.0416, 0.154, 0.6039])
    static let black = 512.0
    static let white = 16383.0

    /// Patch rectangles in active-area coordinates for a `w × h` frame, and their linear sRGB colours.
    static func patches(width w: Int, height h: Int) -> [(name: String, rect: (Int, Int, Int, Int), rgb: SIMD3<Double>)]
    {
        let pw = w / 5
        let ph = h / 3
        return [
            ("neutral", (pw / 4, ph, pw, ph), SIMD3(0.18, 0.18, 0.18)),
            ("red", (pw * 3 / 2, ph, pw, ph), SIMD3(0.6, 0.05, 0.04)),
            ("green", (pw * 11 / 4, ph, pw, ph), SIMD3(0.06, 0.45, 0.07)),
            ("blue", (pw * 4, ph, pw * 3 / 4, ph), SIMD3(0.04, 0.06, 0.5)),
        ]
    }

    /// Camera values (before black/white scaling) of a linear sRGB colour under D65.
    static func camera(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let toXYZ = ColorSpace.linearSRGB.matrixToXYZ!
        return xyzToCamera * (toXYZ * rgb)
    }

    /// The camera value of the D65 white, normalised so green = 1 (AsShotNeutral).
    static var neutral: [Double] {
        let c = camera(SIMD3(1, 1, 1))
        return [c.x / c.y, 1, c.z / c.y]
    }

    static func image(width w: Int = 640, height h: Int = 480, border: Int = 8, seed: UInt64 = 7) -> RawImage {
        let fw = w + 2 * border
        let fh = h + 2 * border
        var samples = [UInt16](repeating: UInt16(black), count: fw * fh)
        let chart = patches(width: w, height: h)
        var state = seed
        let scale = (white - black) / camera(SIMD3(1, 1, 1)).max() * 0.9
        for y in 0..<h {
            for x in 0..<w {
                // Background: a left-to-right gray ramp from 2 % to 80 %.
                var rgb = SIMD3<Double>(repeating: 0.02 + 0.78 * Double(x) / Double(w - 1))
                for p in chart {
                    let (px, py, pw, ph) = p.rect
                    if x >= px, x < px + pw, y >= py, y < py + ph { rgb = p.rgb }
                }
                let cam = camera(rgb)
                let channel = (y & 1) * 2 + (x & 1)  // RGGB
                let value = channel == 0 ? cam.x : channel == 3 ? cam.z : cam.y
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Double(Int(state >> 59)) - 16  // ±16 DN
                let v = black + max(0, value) * scale + noise
                samples[(y + border) * fw + x + border] = UInt16(max(0, min(white, v.rounded())))
            }
        }
        let pixels = PixelBuffer(width: fw, height: fh, format: .bayer14(.rggb), components: samples)
        var props = RawProperties(
            width: fw, height: fh, cfa: .rggb, bitsPerSample: 16, blackLevel: BlackLevel(black), whiteLevel: white)
        props.activeArea = RawArea(top: border, left: border, bottom: border + h, right: border + w)
        props.defaultCrop = DefaultCrop(x: 4, y: 4, width: Double(w - 8), height: Double(h - 8))
        props.make = "Lux"
        props.model = "Synthetic Sensor"
        props.uniqueCameraModel = "Lux Synthetic Sensor"
        props.color = ColorCalibration(
            colorMatrix1: xyzToCamera, calibrationIlluminant1: .d65, asShotNeutral: neutral)
        props.baselineExposure = 0.5
        props.noiseProfile = NoiseProfile(gain: 0.8, readNoise: 3, black: black, white: white, planes: 3)
        props.exif.exposureTime = Rational(1, 125)
        props.exif.fNumber = Rational(18, 10)
        props.exif.isoSpeed = 200
        props.exif.focalLength = Rational(26, 1)
        props.exif.exposureBias = Rational(-2, 3)
        props.exif.flash = .offDidNotFire
        props.exif.lensMake = "Lux"
        props.exif.lensModel = "Lux 26mm f/1.8"
        props.exif.dateTimeOriginal = EXIFDateTime(
            year: 2024, month: 6, day: 1, hour: 12, minute: 30, second: 5, subsecond: "250", utcOffsetMinutes: 120)
        return RawImage(pixels: pixels, properties: props)
    }
}
