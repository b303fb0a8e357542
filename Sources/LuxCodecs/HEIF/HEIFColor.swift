internal import CHEIF
import LuxColor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An `nclx` colour description with the chromaticities libheif decoded from its code points.
struct HEIFNCLX {
    var description: NCLXColorDescription
    var primaries: RGBPrimaries
    var white: Chromaticity

    init(_ p: heif_color_profile_nclx) {
        description = NCLXColorDescription(
            colorPrimaries: Int(p.color_primaries.rawValue),
            transferCharacteristics: Int(p.transfer_characteristics.rawValue),
            matrixCoefficients: Int(p.matrix_coefficients.rawValue), isFullRange: p.full_range_flag != 0)
        primaries = RGBPrimaries(
            red: Chromaticity(x: Double(p.color_primary_red_x), y: Double(p.color_primary_red_y)),
            green: Chromaticity(x: Double(p.color_primary_green_x), y: Double(p.color_primary_green_y)),
            blue: Chromaticity(x: Double(p.color_primary_blue_x), y: Double(p.color_primary_blue_y)))
        white = Chromaticity(x: Double(p.color_primary_white_x), y: Double(p.color_primary_white_y))
        // Code points libheif leaves undecoded (unspecified) read as BT.709 with a D65 white, its own fallback.
        if primaries.red.y <= 0 || white.y <= 0 {
            primaries = .rec709
            white = WhitePoint.d65
        }
    }

    /// The transfer of the decoded RGB values.
    var transfer: HEIFTransfer {
        switch description.transferCharacteristics {
        case 16: .pq
        case 18: .hlg
        case 8: .curve(.linear)
        case 4: .curve(.gamma(2.2))
        case 5: .curve(.gamma(2.8))
        case 1, 6, 7, 14, 15: .curve(.rec709)
        default: .curve(.sRGB)  // 13 (sRGB), 2 (unspecified) and the rest: libheif's sRGB fallback
        }
    }

    /// The colour space of the decoded values: the stored encoding for SDR transfers, extended linear light for PQ
    /// and HLG (which Lux decodes to linear, see ``HEIFTransfer``).
    var colorSpace: ColorSpace {
        switch transfer {
        case .curve(let curve): Self.space(primaries: primaries, white: white, transfer: curve, extended: false)
        case .pq, .hlg: Self.space(primaries: primaries, white: white, transfer: .linear, extended: true)
        }
    }

    /// A named standard space when the description matches one, otherwise a space built from it.
    static func space(primaries: RGBPrimaries, white: Chromaticity, transfer: TransferFunction, extended: Bool)
        -> ColorSpace
    {
        let candidate = ColorSpace(
            name: "", primaries: primaries, whitePoint: white, transferFunction: transfer, isExtendedRange: extended)
        if let known = ColorSpace.standardSpaces.first(where: {
            $0.isColorimetricallyEqual(to: candidate) && $0.isExtendedRange == extended
        }) {
            return known
        }
        func close(_ a: Chromaticity, _ b: Chromaticity) -> Bool { abs(a.x - b.x) < 1e-3 && abs(a.y - b.y) < 1e-3 }
        func same(_ p: RGBPrimaries) -> Bool {
            close(p.red, primaries.red) && close(p.green, primaries.green) && close(p.blue, primaries.blue)
        }
        let named: [(RGBPrimaries, String)] = [(.rec709, "BT.709"), (.rec2020, "BT.2020"), (.p3, "P3")]
        let base = named.first { same($0.0) }?.1 ?? "nclx"
        let name = (extended ? "Extended " : "") + (transfer.isLinear ? "Linear \(base)" : "\(base) \(transfer)")
        return ColorSpace(
            name: name, primaries: primaries, whitePoint: white, transferFunction: transfer, isExtendedRange: extended)
    }
}

/// How decoded HEIF values relate to light.
enum HEIFTransfer {
    /// An SDR curve, kept in the decoded values (the colour space carries it).
    case curve(TransferFunction)
    /// SMPTE ST 2084: Lux decodes to linear light with 203 cd/m² (BT.2408 reference white) as 1.0.
    case pq
    /// ARIB STD-B67 / BT.2100 HLG: Lux applies the inverse OETF and the BT.2100 OOTF of a 1000 cd/m² display
    /// (system gamma 1.2), with 203 cd/m² as 1.0.
    case hlg

    /// Whether decoded values are HDR linear light (decoded to floating point).
    var isHDR: Bool {
        if case .curve = self { return false }
        return true
    }

    /// The BT.2408 reference white in cd/m², decoded as 1.0.
    static let referenceWhite = 203.0
    /// The nominal peak of an HLG display for the BT.2100 OOTF, in cd/m².
    static let hlgDisplayPeak = 1000.0

    /// Linear light (1.0 = reference white) for PQ-encoded `e` in 0…1.
    static func pqToLinear(_ e: Double) -> Double {
        let m1 = 2610.0 / 16384
        let m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096
        let c2 = 2413.0 / 4096 * 32
        let c3 = 2392.0 / 4096 * 32
        let p = pow(max(e, 0), 1 / m2)
        let y = pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
        return y * 10000 / referenceWhite
    }

    /// Scene-linear light (0…1) for HLG-encoded `e` in 0…1 (the inverse OETF).
    static func hlgToScene(_ e: Double) -> Double {
        let a = 0.17883277
        let b = 1 - 4 * a
        let c = 0.5 - a * log(4 * a)
        let v = max(e, 0)
        return v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12
    }
}
