import Foundation
import Testing
import LuxTestSupport
import LuxColor
import LuxPixels
@testable import LuxCodecs

@Suite struct SmokeTests {
    @Test func writeDNG() throws {
        let w = 600, h = 400
        var px = [UInt16](repeating: 0, count: w * h)
        var seed: UInt64 = 42
        for y in 0..<h { for x in 0..<w {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let base = 512 + (x * 12000 / w) * ((y & 1) + 1) / 2 + ((x & 1) == 0 ? 800 : 0)
            px[y * w + x] = UInt16(min(16383, base + Int(seed >> 60)))
        } }
        let buffer = PixelBuffer(width: w, height: h, format: .bayer14(.rggb), components: px)
        var props = RawProperties(width: w, height: h, cfa: .rggb, bitsPerSample: 16, blackLevel: BlackLevel(512), whiteLevel: 16383)
        props.make = "Lux"; props.model = "Test Camera"; props.uniqueCameraModel = "Lux Test Camera"
        props.color = ColorCalibration(colorMatrix1: Matrix3x3([0.6461, -0.1164, -0.0857, -0.3825, 1.1597, 0.2534, -0.0416, 0.154, 0.6039]), calibrationIlluminant1: .d65, asShotNeutral: [0.5, 1, 0.7])
        props.activeArea = RawArea(top: 2, left: 4, bottom: 398, right: 596)
        props.defaultCrop = DefaultCrop(x: 4, y: 4, width: 584, height: 388)
        props.exif.exposureTime = Rational(1, 125); props.exif.fNumber = Rational(18, 10); props.exif.isoSpeed = 200
        props.exif.dateTimeOriginal = EXIFDateTime(year: 2024, month: 5, day: 6, hour: 7, minute: 8, second: 9, subsecond: "123", utcOffsetMinutes: 120)
        let raw = RawImage(pixels: buffer, properties: props)
        for c in [DNGEncodingOptions.Compression.uncompressed, .losslessJPEG] {
            let bytes = try DNG.encode(raw, options: EncodingOptions(dng: DNGEncodingOptions(compression: c)))
            let path = "/tmp/cx/lux_\(c).dng"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let back = try DNG.decode(bytes)
            #expect(back.pixels.components(as: UInt16.self) == px)
            print(c, bytes.count, back.raw!.storage)
        }
    }
}
