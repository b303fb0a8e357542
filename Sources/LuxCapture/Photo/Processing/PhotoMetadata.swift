import FoundationEssentials
import LuxCodecs
import LuxPixels
import RealModule

/// The EXIF of a captured photo, from what its exposure was taken with.
enum PhotoMetadata {
    static func exif(
        _ m: FrameMetadata, dimensions: PixelDimensions, flashMode: FlashMode, flashFired: Bool, hasFlash: Bool,
        bracket: BracketedExposure?, frameCount: Int, date: Date = Date()
    ) -> EXIF {
        var e = EXIF()
        e.make = RAWPacking.make
        e.model = RAWPacking.model
        e.software = "Lux \(LuxCaptureModule.version)"
        e.lensMake = RAWPacking.make
        e.lensModel = "Simulated \(decimal(m.focalLength, 2))mm f/\(decimal(m.fNumber, 1))"
        let when = dateTime(date)
        e.dateTime = when
        e.dateTimeOriginal = when
        e.dateTimeDigitized = when
        e.exposureTime = Rational(approximating: m.exposureDuration.seconds, maxDenominator: 1_000_000, signed: false)
        e.fNumber = Rational(approximating: m.fNumber, maxDenominator: 100, signed: false)
        e.isoSpeed = Int(m.iso.rounded())
        e.sensitivityType = 3  // ISO speed
        e.exposureProgram = bracket.map { $0.isAuto ? 2 : 1 } ?? 2  // normal program, or manual
        e.exposureMode = bracket.map { $0.isAuto ? 2 : 1 } ?? 0  // auto, manual, or auto bracket
        e.exposureBias = Rational(approximating: Double(m.exposureTargetBias), maxDenominator: 100)
        e.shutterSpeedValue = Rational(approximating: -Double.log2(m.exposureDuration.seconds), maxDenominator: 1000)
        e.apertureValue = Rational(approximating: 2 * Double.log2(m.fNumber), maxDenominator: 1000, signed: false)
        e.focalLength = Rational(approximating: m.focalLength, maxDenominator: 100, signed: false)
        e.meteringMode = 5  // pattern
        e.whiteBalance = 0
        e.sensingMethod = 2  // one-chip colour area
        e.sceneCaptureType = 0
        let mode: LuxCodecs.Flash.Mode =
            switch flashMode {
            case .off: .alwaysOff
            case .on: .alwaysOn
            case .auto: .auto
            }
        e.flash = LuxCodecs.Flash(fired: flashFired, mode: mode, hasFlash: hasFlash)
        e.pixelXDimension = dimensions.width
        e.pixelYDimension = dimensions.height
        if frameCount > 1 { e.imageDescription = "merged from \(frameCount) frames" }
        return e
    }

    /// `value` with `digits` decimals.
    static func decimal(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let n = Int((abs(value) * scale).rounded())
        let whole = n / Int(scale)
        let frac = n % Int(scale)
        var f = String(frac)
        while f.count < digits { f = "0" + f }
        return (value < 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + f : "")
    }

    /// A UTC EXIF date for `date` (civil-from-days, proleptic Gregorian).
    static func dateTime(_ date: Date) -> EXIFDateTime {
        let t = date.timeIntervalSince1970
        let seconds = Int(t.rounded(.down))
        var days = seconds / 86_400
        var rem = seconds % 86_400
        if rem < 0 {
            rem += 86_400
            days -= 1
        }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let ms = Int(((t - Double(seconds)) * 1000).rounded(.down))
        return EXIFDateTime(
            year: year, month: month, day: day, hour: rem / 3600, minute: rem % 3600 / 60, second: rem % 60,
            subsecond: String(min(max(ms, 0), 999)), utcOffsetMinutes: 0)
    }
}
