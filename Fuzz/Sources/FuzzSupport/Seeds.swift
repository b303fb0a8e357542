public import LuxCodecs
import LuxColor
public import LuxPixels

/// Small, valid inputs written by Lux itself, for seeding the fuzzers.
public enum Seeds {
    /// A smooth sRGB picture with edges, `.rgba8`.
    public static func gradient(width: Int, height: Int, alpha: Bool = false) -> PixelBuffer {
        var rgba = [Float](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let fx = Float(x) / Float(max(width - 1, 1))
                let fy = Float(y) / Float(max(height - 1, 1))
                rgba[i] = fx
                rgba[i + 1] = fy
                rgba[i + 2] = (x / 8 + y / 8) % 2 == 0 ? 0.8 : 0.2
                rgba[i + 3] = alpha ? 0.25 + 0.75 * fx * fy : 1
            }
        }
        return PixelBuffer(width: width, height: height, format: .rgbaFloat, components: rgba, colorSpace: .sRGB)
            .converted(to: .rgba8)
    }

    /// A 14-bit RGGB mosaic with an active area, levels, colour tags and Exif.
    public static func bayer(width: Int, height: Int) -> RawImage {
        var samples = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { samples[y * width + x] = UInt16(512 + (x * 97 + y * 61 + (x ^ y) * 13) % 15_000) }
        }
        let pixels = PixelBuffer(width: width, height: height, format: .bayer14(.rggb), components: samples)
        var props = RawProperties(
            width: width, height: height, cfa: .rggb, bitsPerSample: 16, blackLevel: BlackLevel(512),
            whiteLevel: 16383)
        props.activeArea = RawArea(top: 2, left: 2, bottom: height - 2, right: width - 2)
        props.defaultCrop = DefaultCrop(x: 2, y: 2, width: Double(width - 8), height: Double(height - 8))
        props.make = "Lux"
        props.model = "Fuzz Seed"
        props.uniqueCameraModel = "Lux Fuzz Seed"
        props.color = ColorCalibration(
            colorMatrix1: Matrix3x3([0.6461, -0.1164, -0.0857, -0.3825, 1.1597, 0.2534, -0.0416, 0.154, 0.6039]),
            calibrationIlluminant1: .d65, asShotNeutral: [0.5, 1, 0.6])
        props.baselineExposure = 0.5
        props.noiseProfile = NoiseProfile(gain: 0.8, readNoise: 3, black: 512, white: 16383, planes: 1)
        return RawImage(pixels: pixels, properties: props)
    }

    /// One opcode of each typed kind and an unknown one.
    public static var opcodes: [DNGOpcode] {
        let area = OpcodeArea(top: 0, left: 0, bottom: 32, right: 48, planes: 1, rowPitch: 2, columnPitch: 2)
        return [
            DNGOpcode(
                .warpRectilinear(
                    WarpRectilinear(planes: [.init(radial: [1, 0.01, -0.002, 0], tangential: [0.0001, -0.0002])]))),
            DNGOpcode(.fixVignetteRadial(FixVignetteRadial(coefficients: [0.1, 0.02, 0, 0, 0]))),
            DNGOpcode(
                .gainMap(
                    GainMap(
                        area: area, pointsV: 2, pointsH: 3, spacingV: 1, spacingH: 0.5, mapPlanes: 1,
                        gains: [1, 1.1, 1.2, 1.05, 1, 0.95]))),
            DNGOpcode(.other(id: 7, parameters: [UInt8](repeating: 1, count: 40)), isOptional: true),
        ]
    }

    /// Exif with the common camera fields, GPS and an Apple maker note.
    public static var exif: EXIF {
        var e = EXIF()
        e.make = "Lux"
        e.model = "Fuzz Seed"
        e.software = "lux"
        e.orientation = .right
        e.dateTimeOriginal = EXIFDateTime(
            year: 2024, month: 5, day: 17, hour: 10, minute: 3, second: 1, subsecond: "250", utcOffsetMinutes: 120)
        e.exposureTime = Rational(1, 125)
        e.fNumber = Rational(18, 10)
        e.isoSpeed = 200
        e.focalLength = Rational(26, 1)
        e.exposureBias = Rational(-2, 3)
        e.flash = .offDidNotFire
        e.lensSpecification = [Rational(26, 1), Rational(26, 1), Rational(18, 10), Rational(18, 10)]
        e.lensModel = "Lux lens"
        e.gps = GPSInfo(latitude: 48.8584, longitude: 2.2945, altitude: 35)
        e.makerNote = AppleMakerNote(contentIdentifier: "3F2504E0-4F89-11D3-9A0C-0305E82C3301").encoded()
        return e
    }
}
