public import LuxPixels

/// The colour filter array of a raw image (TIFF/EP CFARepeatPatternDim, CFAPattern; DNG CFAPlaneColor, CFALayout).
///
/// The pattern's origin is the top-left corner of the active area.
public struct CFALayout: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Rows in the repeating pattern.
    public var repeatRows: Int
    /// Columns in the repeating pattern.
    public var repeatColumns: Int
    /// Colour index of each pattern cell, row by row: 0 red, 1 green, 2 blue, 3 cyan, 4 magenta, 5 yellow,
    /// 6 white (indices into ``planeColors``' colour codes).
    public var colors: [UInt8]
    /// The colour of each plane (CFAPlaneColor), normally red, green, blue = 0, 1, 2.
    public var planeColors: [UInt8]
    /// The CFA layout (1 = rectangular; others are staggered, rarely used).
    public var layout: Int

    /// Creates a layout.
    public init(
        repeatRows: Int, repeatColumns: Int, colors: [UInt8], planeColors: [UInt8] = [0, 1, 2], layout: Int = 1
    ) {
        self.repeatRows = repeatRows
        self.repeatColumns = repeatColumns
        self.colors = colors
        self.planeColors = planeColors
        self.layout = layout
    }

    /// The 6×6 layout of an X-Trans `pattern`.
    public init(_ pattern: XTransPattern) {
        self.init(repeatRows: 6, repeatColumns: 6, colors: pattern.cells.map { UInt8($0.rawValue) })
    }

    /// The 2×2 RGB Bayer layout of `pattern`.
    public init(_ pattern: CFAPattern) {
        self.init(repeatRows: 2, repeatColumns: 2, colors: pattern.quadChannels.map { UInt8($0.rawValue) })
    }

    /// The Bayer pattern, when this is a 2×2 red/green/blue layout with rectangular cells.
    public var bayerPattern: CFAPattern? {
        guard repeatRows == 2, repeatColumns == 2, colors.count == 4, layout == 1, planeColors == [0, 1, 2] else {
            return nil
        }
        let channels = colors.compactMap { CFAPattern.Channel(rawValue: Int($0)) }
        guard channels.count == 4 else { return nil }
        return CFAPattern(quad: channels)
    }

    /// The X-Trans pattern, when this is a 6×6 red/green/blue layout that is a phase of the X-Trans arrangement.
    public var xTransPattern: XTransPattern? {
        guard repeatRows == 6, repeatColumns == 6, colors.count == 36, layout == 1, planeColors == [0, 1, 2] else {
            return nil
        }
        let channels = colors.compactMap { CFAPattern.Channel(rawValue: Int($0)) }
        return XTransPattern(cells: channels)
    }

    public var description: String {
        if let p = bayerPattern { return p.rawValue }
        if let p = xTransPattern { return p.description }
        let letters: [UInt8: Character] = [0: "R", 1: "G", 2: "B", 3: "C", 4: "M", 5: "Y", 6: "W"]
        return "\(repeatRows)×\(repeatColumns) " + String(colors.map { letters[$0] ?? "?" })
    }
}

/// The zero-light level of each stored sample (BlackLevelRepeatDim, BlackLevel, BlackLevelDeltaH/V).
///
/// Black at active-area row `r`, column `c` and sample plane `s` is
/// `values[(r % repeatRows) * repeatColumns * planes + (c % repeatColumns) * planes + s] + deltaH[c] + deltaV[r]`.
public struct BlackLevel: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Rows of the repeating black pattern.
    public var repeatRows: Int
    /// Columns of the repeating black pattern.
    public var repeatColumns: Int
    /// Samples per pixel the values cover.
    public var planes: Int
    /// `repeatRows × repeatColumns × planes` values.
    public var values: [Double]
    /// Per-column offsets across the active area (BlackLevelDeltaH), if any.
    public var deltaH: [Double]?
    /// Per-row offsets down the active area (BlackLevelDeltaV), if any.
    public var deltaV: [Double]?

    /// A single black level for every sample.
    public init(_ level: Double, planes: Int = 1) {
        self.init(repeatRows: 1, repeatColumns: 1, planes: planes, values: Array(repeating: level, count: planes))
    }

    /// A repeating black pattern.
    public init(
        repeatRows: Int, repeatColumns: Int, planes: Int = 1, values: [Double], deltaH: [Double]? = nil,
        deltaV: [Double]? = nil
    ) {
        self.repeatRows = repeatRows
        self.repeatColumns = repeatColumns
        self.planes = planes
        self.values = values
        self.deltaH = deltaH
        self.deltaV = deltaV
    }

    /// The black level at an active-area position and plane.
    public func value(row: Int, column: Int, plane: Int = 0) -> Double {
        let rr = max(repeatRows, 1)
        let rc = max(repeatColumns, 1)
        let p = max(planes, 1)
        let i = ((row % rr) * rc + (column % rc)) * p + min(plane, p - 1)
        var v = i < values.count ? values[i] : 0
        if let h = deltaH, column >= 0, column < h.count { v += h[column] }
        if let d = deltaV, row >= 0, row < d.count { v += d[row] }
        return v
    }

    /// The largest black level of the repeating pattern (deltas excluded).
    public var maximum: Double { values.max() ?? 0 }

    public var description: String {
        let list = values.map { $0 == $0.rounded() ? String(Int($0)) : String($0) }.joined(separator: " ")
        return repeatRows * repeatColumns == 1 ? list : "\(repeatRows)×\(repeatColumns): \(list)"
    }
}

/// How the stored raw samples are organised.
public enum RawPhotometric: String, Hashable, Sendable, Codable {
    /// One sample per pixel behind a colour filter array (PhotometricInterpretation 32803).
    case colorFilterArray
    /// Demosaiced linear camera values, several samples per pixel (PhotometricInterpretation 34892).
    case linearRaw
}

/// The noise model σ(x) = √(S·x + O) of normalised raw signal x (DNG NoiseProfile), per colour plane.
public struct NoiseProfile: Hashable, Sendable, Codable {
    /// One (scale, offset) pair per colour plane (or one shared pair).
    public struct Coefficients: Hashable, Sendable, Codable {
        /// S: the signal-dependent (shot) noise variance per unit signal.
        public var scale: Double
        /// O: the signal-independent (read) noise variance.
        public var offset: Double

        /// Creates coefficients.
        public init(scale: Double, offset: Double) {
            self.scale = scale
            self.offset = offset
        }
    }

    /// The coefficients.
    public var planes: [Coefficients]

    /// Creates a profile.
    public init(planes: [Coefficients]) { self.planes = planes }

    /// The coefficients of a sensor with conversion gain `gain` (DN per electron) and read noise
    /// `readNoise` (DN), for raw data spanning `black…white` (FORMATS.md §2.4).
    public init(gain: Double, readNoise: Double, black: Double, white: Double, planes: Int = 1) {
        let span = white - black
        let c = Coefficients(scale: gain / span, offset: (readNoise / span) * (readNoise / span))
        self.planes = Array(repeating: c, count: planes)
    }
}
