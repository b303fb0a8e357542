/// The Exif Flash tag (0x9209): whether the flash fired, its mode and the return-light status.
public struct Flash: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 16-bit value as stored.
    public var rawValue: UInt16

    /// Creates the value from its stored bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The flash mode (bits 3–4).
    public enum Mode: UInt16, Hashable, Sendable, Codable {
        case unknown = 0
        case alwaysOn = 1
        case alwaysOff = 2
        case auto = 3
    }

    /// Creates a value from its parts.
    public init(fired: Bool, mode: Mode, hasFlash: Bool = true, redEyeReduction: Bool = false) {
        rawValue = (fired ? 1 : 0) | mode.rawValue << 3 | (hasFlash ? 0 : 0x20) | (redEyeReduction ? 0x40 : 0)
    }

    /// Whether the flash fired (bit 0).
    public var fired: Bool { rawValue & 1 != 0 }
    /// The flash mode.
    public var mode: Mode { Mode(rawValue: (rawValue >> 3) & 3) ?? .unknown }
    /// Whether the camera has a flash (bit 5 clear).
    public var hasFlash: Bool { rawValue & 0x20 == 0 }
    /// Whether red-eye reduction was used (bit 6).
    public var redEyeReduction: Bool { rawValue & 0x40 != 0 }

    /// 0x10: flash off, did not fire.
    public static let offDidNotFire = Flash(rawValue: 0x10)
    /// 0x18: auto, did not fire.
    public static let autoDidNotFire = Flash(rawValue: 0x18)
    /// 0x19: auto, fired.
    public static let autoFired = Flash(rawValue: 0x19)
    /// 0x20: no flash function.
    public static let noFlashFunction = Flash(rawValue: 0x20)

    public var description: String {
        hasFlash ? "\(fired ? "fired" : "did not fire"), mode \(mode)" : "no flash"
    }
}

/// An Exif light source (tag 0x9208), also the code DNG uses for CalibrationIlluminant1/2.
public struct LightSource: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The stored code.
    public var rawValue: UInt16

    /// Creates the value from its code.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Unknown (0).
    public static let unknown = LightSource(rawValue: 0)
    /// Daylight (1).
    public static let daylight = LightSource(rawValue: 1)
    /// Fluorescent (2).
    public static let fluorescent = LightSource(rawValue: 2)
    /// Tungsten incandescent (3).
    public static let tungsten = LightSource(rawValue: 3)
    /// Flash (4).
    public static let flash = LightSource(rawValue: 4)
    /// Fine weather (9).
    public static let fineWeather = LightSource(rawValue: 9)
    /// Cloudy weather (10).
    public static let cloudy = LightSource(rawValue: 10)
    /// Shade (11).
    public static let shade = LightSource(rawValue: 11)
    /// Daylight fluorescent, D 5700–7100 K (12).
    public static let daylightFluorescent = LightSource(rawValue: 12)
    /// Day white fluorescent, N 4600–5500 K (13).
    public static let dayWhiteFluorescent = LightSource(rawValue: 13)
    /// Cool white fluorescent, W 3800–4500 K (14).
    public static let coolWhiteFluorescent = LightSource(rawValue: 14)
    /// White fluorescent, WW 3250–3800 K (15).
    public static let whiteFluorescent = LightSource(rawValue: 15)
    /// Warm white fluorescent, L 2600–3250 K (16).
    public static let warmWhiteFluorescent = LightSource(rawValue: 16)
    /// CIE standard illuminant A (tungsten, 2856 K).
    public static let standardA = LightSource(rawValue: 17)
    /// CIE standard illuminant B (18).
    public static let standardB = LightSource(rawValue: 18)
    /// CIE standard illuminant C (19).
    public static let standardC = LightSource(rawValue: 19)
    /// CIE D55 (20).
    public static let d55 = LightSource(rawValue: 20)
    /// CIE D65, the daylight illuminant DNG readers look for.
    public static let d65 = LightSource(rawValue: 21)
    /// CIE D75 (22).
    public static let d75 = LightSource(rawValue: 22)
    /// CIE D50 (23).
    public static let d50 = LightSource(rawValue: 23)
    /// ISO studio tungsten (24).
    public static let isoStudioTungsten = LightSource(rawValue: 24)
    /// DNG 1.6: the illuminant is described by IlluminantData.
    public static let other = LightSource(rawValue: 255)

    /// The correlated colour temperature DNG assigns to the illuminant (Adobe DNG SDK table), or `nil`
    /// for unknown and data-defined illuminants.
    public var temperature: Double? {
        switch rawValue {
        case 17, 3: 2850
        case 24: 3200
        case 23: 5000
        case 20, 1, 9, 4, 18: 5500
        case 21, 19, 10: 6500
        case 22, 11: 7500
        case 12: 6400
        case 13: 5050
        case 14, 2: 4150
        case 15: 3525
        case 16: 2925
        default: nil
        }
    }

    public var description: String {
        let names: [UInt16: String] = [
            0: "unknown", 1: "daylight", 2: "fluorescent", 3: "tungsten", 4: "flash", 9: "fine weather",
            10: "cloudy", 11: "shade", 17: "standard light A", 18: "standard light B", 19: "standard light C",
            20: "D55", 21: "D65", 22: "D75", 23: "D50", 24: "ISO studio tungsten", 255: "other",
        ]
        return names[rawValue] ?? "light source \(rawValue)"
    }
}

/// A date and time as Exif stores it: local time text plus optional sub-seconds and UTC offset.
public struct EXIFDateTime: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Year (1–9999).
    public var year: Int
    /// Month (1–12).
    public var month: Int
    /// Day of the month (1–31).
    public var day: Int
    /// Hour (0–23).
    public var hour: Int
    /// Minute (0–59).
    public var minute: Int
    /// Second (0–60).
    public var second: Int
    /// Fractional seconds as their decimal digits (“816” = 0.816 s), from SubSecTime*.
    public var subsecond: String?
    /// The offset from UTC in minutes (+60 for “+01:00”), from OffsetTime*.
    public var utcOffsetMinutes: Int?

    /// Creates a date-time from its components.
    public init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, subsecond: String? = nil,
        utcOffsetMinutes: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.subsecond = subsecond
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Parses “YYYY:MM:DD HH:MM:SS” (dashes, a “T” separator and missing seconds are tolerated).
    public init?(exifString text: String, subsecond: String? = nil, offset: String? = nil) {
        let digits = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard digits.count >= 5, (1...9999).contains(digits[0]), (1...12).contains(digits[1]),
            (1...31).contains(digits[2]), (0...24).contains(digits[3]), (0...59).contains(digits[4])
        else { return nil }
        self.init(
            year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4],
            second: digits.count > 5 ? min(digits[5], 60) : 0)
        let sub = subsecond?.trimming(" \0")
        if let sub, !sub.isEmpty, sub.allSatisfy(\.isNumber) { self.subsecond = sub }
        if let offset { utcOffsetMinutes = Self.parseOffset(offset) }
    }

    static func parseOffset(_ text: String) -> Int? {
        let t = text.trimming(" \0")
        guard t.count >= 6, let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let parts = t.dropFirst().split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), h <= 14, m < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (h * 60 + m)
    }

    /// “YYYY:MM:DD HH:MM:SS”.
    public var exifString: String {
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(pad(year, 4)):\(pad(month, 2)):\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }

    /// “+HH:MM” for the UTC offset, when known.
    public var offsetString: String? {
        guard let m = utcOffsetMinutes else { return nil }
        let a = abs(m)
        let h = a / 60
        let mm = a % 60
        return (m < 0 ? "-" : "+") + (h < 10 ? "0" : "") + String(h) + ":" + (mm < 10 ? "0" : "") + String(mm)
    }

    public var description: String {
        exifString + (subsecond.map { "." + $0 } ?? "") + (offsetString ?? "")
    }
}

extension String {
    func trimming(_ set: String) -> String {
        let chars = Set(set)
        var s = Substring(self)
        while let f = s.first, chars.contains(f) { s = s.dropFirst() }
        while let l = s.last, chars.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
