import LuxPixels
import RealModule

extension DeviceFormat {
    /// The formats of the simulated camera (seeds 000 and 003): a photo format of the sensor's size (4032×3024 on
    /// the default sensor) at up to 30 fps, and
    /// video formats 1280×720 and 1920×1080 at 30 and 60 fps, 1920×1440 at 30 and 3840×2160 at 30, each in
    /// '420v' (sRGB only), '420f' and BGRA (sRGB and Display P3); '444v' for 1920×1080 at 30 fps and the photo format.
    public static func simulatedCameraFormats(sensor: SensorModel = .phone12MP) -> [DeviceFormat] {
        let modes: [(w: Int, h: Int, fps: Double, photo: Bool)] = [
            (1280, 720, 30, false), (1280, 720, 60, false), (1920, 1080, 30, false), (1920, 1080, 60, false),
            (1920, 1440, 30, false), (3840, 2160, 30, false), (sensor.width, sensor.height, 30, true),
        ]
        var formats: [DeviceFormat] = []
        for m in modes {
            var pixelFormats: [PixelFormat] = [.yCbCr420VideoRange, .yCbCr420FullRange, .bgra8]
            if (m.w == 1920 && m.h == 1080 && m.fps == 30) || m.photo { pixelFormats.append(.yCbCr444VideoRange) }
            let aspect = Double(m.h) / Double(m.w)
            // 16:9 modes read a centred crop of the 4:3 sensor's full width.
            let regionSize = SIMD2(1.0, min(0.75, aspect))
            let regionOrigin = SIMD2(0.0, (0.75 - regionSize.y) / 2)
            for pf in pixelFormats {
                formats.append(
                    DeviceFormat(
                        width: m.w, height: m.h, pixelFormat: pf, frameRateRange: 1...m.fps, isPhotoFormat: m.photo,
                        supportsHighPhotoQuality: !m.photo,
                        supportedColorSpaces: pf == .yCbCr420VideoRange ? [.sRGB] : [.sRGB, .displayP3],
                        minISO: sensor.baseISO, maxISO: sensor.maxISO,
                        minExposureDuration: MediaTime(value: 1, timescale: 24_000),
                        maxExposureDuration: MediaTime(value: 1, timescale: 2),
                        maxWhiteBalanceGain: 4, exposureTargetBiasRange: -8...8,
                        maxBracketedCapturePhotoCount: m.photo ? 4 : 3, supportsRAW: m.photo,
                        supportsLivePhoto: m.photo,
                        streamWidth: m.photo ? m.w / 4 : m.w, streamHeight: m.photo ? m.h / 4 : m.h,
                        sensorRegionOrigin: regionOrigin, sensorRegionSize: regionSize,
                        fieldOfView: 2 * atanDegrees(sensor.sensorWidth / 2 / sensor.lens.focalLength)))
            }
        }
        return formats
    }
}

func atanDegrees(_ x: Double) -> Double { Double.atan(x) * 180 / Double.pi }
