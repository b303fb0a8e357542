import CLuxLibRaw
import LuxColor
import LuxPixels

extension RawProperties {
    /// The description of what LibRaw identified, in DNG's terms: the stored frame with its active area, the CFA at
    /// the active area's origin, black levels per active-area cell, the white level, the camera matrix as
    /// ColorMatrix1 under D65, the as-shot white as AsShotNeutral, the orientation and the Exif LibRaw read.
    ///
    /// - Parameters:
    ///   - exif: Exif read from the file by LuxCodecs' own parser (TIFF-based raws), completed from LibRaw's values.
    init(libRaw handle: LibRawHandle, exif: EXIF?) {
        let info = handle.info
        let isCFA = info.filters != 0
        self.init(
            width: Int(info.raw_width), height: Int(info.raw_height),
            photometric: isCFA ? .colorFilterArray : .linearRaw,
            samplesPerPixel: isCFA ? 1 : 3, bitsPerSample: Self.bits(info.maximum))
        storage = RawStorage(compression: 0)
        storage.decoder =
            "LibRaw \(LibRawHandle.versionNumber)"
            + (lux_libraw_info.text(info.decoder).isEmpty ? "" : " \(lux_libraw_info.text(info.decoder))")
        let top = min(max(Int(info.top_margin), 0), height)
        let left = min(max(Int(info.left_margin), 0), width)
        activeArea = RawArea(
            top: top, left: left, bottom: min(top + Int(info.height), height), right: min(left + Int(info.width), width)
        )
        maskedAreas = withUnsafeBytes(of: info.masks) { raw in
            let m = raw.bindMemory(to: Int32.self)
            return (0..<8).map {
                RawArea(
                    top: Int(m[4 * $0]), left: Int(m[4 * $0 + 1]), bottom: Int(m[4 * $0 + 2]), right: Int(m[4 * $0 + 3])
                )
            }
            .filter { !$0.isEmpty && $0.bottom <= height && $0.right <= width }
        }
        if info.pixel_aspect.isFinite, info.pixel_aspect > 0, abs(info.pixel_aspect - 1) > 1e-3 {
            defaultScale = info.pixel_aspect > 1 ? [info.pixel_aspect, 1] : [1, 1 / info.pixel_aspect]
        }
        let letters = Array(lux_libraw_info.text(info.cdesc).utf8)
        /// The DNG colour code (0 red, 1 green, 2 blue, 3 cyan, 4 magenta, 5 yellow) of LibRaw's colour index.
        func dngColor(_ index: Int) -> UInt8 {
            guard index < letters.count else { return 1 }
            switch letters[index] {
            case UInt8(ascii: "R"): return 0
            case UInt8(ascii: "B"): return 2
            case UInt8(ascii: "C"): return 3
            case UInt8(ascii: "M"): return 4
            case UInt8(ascii: "Y"): return 5
            default: return 1
            }
        }
        let cfaIndex: (Int, Int) -> Int = { r, c in
            withUnsafeBytes(of: info.cfa) { Int($0[(r % 16) * 16 + c % 16]) }
        }
        if isCFA {
            let rows = max(Int(info.cfa_rows), 1)
            let cols = max(Int(info.cfa_cols), 1)
            cfa = CFALayout(
                repeatRows: rows, repeatColumns: cols,
                colors: (0..<(rows * cols)).map { dngColor(cfaIndex($0 / cols, $0 % cols)) })
        }
        blackLevel = Self.blackLevel(handle, isCFA: isCFA, cfaIndex: cfaIndex)
        whiteLevel = Array(repeating: Double(info.maximum > 0 ? info.maximum : 65535), count: samplesPerPixel)

        color = Self.colorCalibration(info)
        if info.dng_version != 0, info.baseline_exposure > -999, info.baseline_exposure.isFinite {
            baselineExposure = Double(info.baseline_exposure)
        }
        var exif = exif ?? EXIF()
        Self.complete(&exif, from: info)
        exif.orientation = Self.orientation(flip: info.flip)
        self.exif = exif
        let make = lux_libraw_info.text(info.make)
        let model = lux_libraw_info.text(info.model)
        uniqueCameraModel = [make, model].filter { !$0.isEmpty }.joined(separator: " ")
        if let serial = Optional(lux_libraw_info.text(info.body_serial)), !serial.isEmpty {
            cameraSerialNumber = serial
        }
    }

    /// The bits needed for codes up to `maximum` (16 when unknown).
    static func bits(_ maximum: UInt32) -> Int {
        maximum == 0 ? 16 : min(32, max(1, UInt32.bitWidth - maximum.leadingZeroBitCount))
    }

    /// Black = LibRaw's common black + the black of the photosite's colour + the repeating pattern, tabulated over one
    /// period of both the CFA and the pattern (at most 64 per side, DNG's BlackLevelRepeatDim limit).
    static func blackLevel(_ handle: LibRawHandle, isCFA: Bool, cfaIndex: (Int, Int) -> Int) -> BlackLevel {
        let info = handle.info
        let cblack = withUnsafeBytes(of: info.cblack) { Array($0.bindMemory(to: UInt32.self)) }
        let pattern = handle.blackPattern
        let pr = pattern.isEmpty ? 1 : Int(info.black_rows)
        let pc = pattern.isEmpty ? 1 : Int(info.black_cols)
        guard isCFA else {
            let common = Double(info.black) + (pattern.isEmpty ? 0 : Double(pattern[0]))
            return BlackLevel(
                repeatRows: 1, repeatColumns: 1, planes: 3, values: (0..<3).map { common + Double(cblack[$0]) })
        }
        func lcm(_ a: Int, _ b: Int) -> Int {
            var (x, y) = (a, b)
            while y != 0 { (x, y) = (y, x % y) }
            return a / x * b
        }
        let rows = min(lcm(max(Int(info.cfa_rows), 1), pr), 64)
        let cols = min(lcm(max(Int(info.cfa_cols), 1), pc), 64)
        let values = (0..<(rows * cols)).map { i -> Double in
            let (r, c) = (i / cols, i % cols)
            let p = pattern.isEmpty ? 0 : pattern[(r % pr) * pc + c % pc]
            return Double(info.black) + Double(cblack[min(cfaIndex(r, c), 3)]) + Double(p)
        }
        if Set(values).count == 1 { return BlackLevel(values[0]) }
        return BlackLevel(repeatRows: rows, repeatColumns: cols, values: values)
    }

    /// ColorMatrix1 (D65) from LibRaw's XYZ → camera matrix, or, when LibRaw has only a camera → sRGB matrix (some
    /// older cameras), its inverse through sRGB's primaries; AsShotNeutral from the as-shot multipliers.
    static func colorCalibration(_ info: lux_libraw_info) -> ColorCalibration {
        var color = ColorCalibration()
        let camXYZ = floats(info.cam_xyz)
        let rgbCam = floats(info.rgb_cam)
        if camXYZ.prefix(9).contains(where: { $0 != 0 }), camXYZ.prefix(9).allSatisfy(\.isFinite) {
            color.colorMatrix1 = Matrix3x3(Array(camXYZ.prefix(9)))
        } else if let toXYZ = ColorSpace.linearSRGB.matrixToXYZ {
            // rgb_cam is 3 × 4 (a column per camera colour) and maps camera RGB scaled by the daylight multipliers
            // pre_mul (white-balanced for D65) to linear sRGB: the raw camera's matrix takes pre_mul back in.
            let pre = floats(info.pre_mul)
            let daylight = pre.prefix(3).allSatisfy { $0 > 0 && $0.isFinite } ? Array(pre.prefix(3)) : [1, 1, 1]
            let cameraToSRGB = Matrix3x3(
                rows: (0..<3).map { r in (0..<3).map { rgbCam[r * 4 + $0] * daylight[$0] } })
            color.colorMatrix1 = (toXYZ * cameraToSRGB).inverse
        }
        color.calibrationIlluminant1 = .d65
        let mul = floats(info.cam_mul)
        if mul.prefix(3).allSatisfy({ $0 > 0 && $0.isFinite }) {
            color.asShotNeutral = (0..<3).map { mul[1] / mul[$0] }
        }
        return color
    }

    /// The values of a C array of `float` (any shape), row by row.
    static func floats<T>(_ array: T) -> [Double] {
        withUnsafeBytes(of: array) { bytes in bytes.bindMemory(to: Float.self).map { Double($0) } }
    }

    /// Fills the Exif fields the file's own Exif left empty from what LibRaw read (maker notes included).
    static func complete(_ exif: inout EXIF, from info: lux_libraw_info) {
        func fill(_ value: inout String?, _ text: String) {
            if value?.isEmpty ?? true, !text.isEmpty { value = text }
        }
        fill(&exif.make, lux_libraw_info.text(info.make))
        fill(&exif.model, lux_libraw_info.text(info.model))
        fill(&exif.software, lux_libraw_info.text(info.software))
        fill(&exif.artist, lux_libraw_info.text(info.artist))
        fill(&exif.imageDescription, lux_libraw_info.text(info.description))
        fill(&exif.lensMake, lux_libraw_info.text(info.lens_make))
        fill(&exif.lensModel, lux_libraw_info.text(info.lens))
        fill(&exif.bodySerialNumber, lux_libraw_info.text(info.body_serial))
        if exif.isoSpeed == nil, info.iso_speed > 0, info.iso_speed.isFinite {
            exif.isoSpeed = Int(info.iso_speed.rounded())
        }
        if exif.exposureTime == nil, info.shutter > 0, info.shutter.isFinite {
            let s = Double(info.shutter)
            exif.exposureTime =
                s < 1 ? Rational(1, Int64(max(1, (1 / s).rounded()))) : Rational(approximating: s, maxDenominator: 10)
        }
        if exif.fNumber == nil, info.aperture > 0, info.aperture.isFinite {
            exif.fNumber = Rational(approximating: Double(info.aperture), maxDenominator: 10)
        }
        if exif.focalLength == nil, info.focal_length > 0, info.focal_length.isFinite {
            exif.focalLength = Rational(approximating: Double(info.focal_length), maxDenominator: 10)
        }
        if exif.focalLengthIn35mmFilm == nil, info.focal_length_35mm > 0 {
            exif.focalLengthIn35mmFilm = Int(info.focal_length_35mm)
        }
        if exif.dateTimeOriginal == nil {
            exif.dateTimeOriginal = EXIFDateTime(exifString: lux_libraw_info.text(info.date_time))
        }
        if exif.gps == nil, info.has_gps != 0, info.latitude.isFinite, info.longitude.isFinite {
            exif.gps = GPSInfo(
                latitude: info.latitude, longitude: info.longitude,
                altitude: info.altitude.isFinite ? info.altitude : nil)
        }
    }

    /// The Exif orientation of LibRaw's flip code (bit 4 transposes, bit 2 flips rows, bit 1 flips columns).
    static func orientation(flip: Int32) -> Orientation {
        switch flip & 7 {
        case 1: .upMirrored
        case 2: .downMirrored
        case 3: .down
        case 4: .leftMirrored
        case 5: .left
        case 6: .right
        case 7: .rightMirrored
        default: .up
        }
    }
}
