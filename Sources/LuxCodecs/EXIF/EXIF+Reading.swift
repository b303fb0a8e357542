extension EXIF {
    /// Decodes a standalone Exif block: a TIFF structure (the payload of a JPEG APP1 segment after
    /// `Exif\0\0`, or a PNG eXIf chunk).
    ///
    /// - Throws: ``CodecError`` when the TIFF header or IFD0 is unreadable. Damaged sub-directories and
    ///   values are skipped, as cameras and editors often write slightly broken Exif.
    public init(tiffBytes bytes: [UInt8]) throws(CodecError) {
        self = try withBytes(of: bytes) { raw throws(CodecError) in
            let parser = try TIFFParser(raw, context: "Exif")
            let ifd0 = try parser.directory(at: parser.firstDirectoryOffset, name: "IFD0")
            return EXIF(parser: parser, primary: ifd0, keepsUnknownPrimaryFields: true)
        }
    }

    /// Reads Exif fields from a parsed TIFF: IFD0's descriptive tags, the Exif IFD, the GPS IFD and the
    /// interoperability IFD.
    ///
    /// TIFF/EP files keep Exif tags in IFD0 itself; those are read too.
    init(parser p: TIFFParser, primary ifd0: TIFFDirectory, keepsUnknownPrimaryFields: Bool) {
        self.init()
        func str(_ d: TIFFDirectory, _ t: UInt16) -> String? {
            guard let s = (try? p.string(d, t)) ?? nil else { return nil }
            let trimmed = s.trimming(" \0")
            return trimmed.isEmpty ? nil : s
        }
        func int(_ d: TIFFDirectory, _ t: UInt16) -> Int? { (try? p.integer(d, t)) ?? nil }
        func u16(_ d: TIFFDirectory, _ t: UInt16) -> UInt16? { int(d, t).flatMap { UInt16(exactly: $0) } }
        func rationals(_ d: TIFFDirectory, _ t: UInt16) -> [Rational]? {
            guard let e = d[t], let v = try? p.value(e) else { return nil }
            switch v {
            case .rationals(let r), .signedRationals(let r): return r
            default: return v.integers.map { $0.map { Rational(Int64($0), 1) } }
            }
        }
        func rational(_ d: TIFFDirectory, _ t: UInt16) -> Rational? { rationals(d, t)?.first }
        /// A date tag with its sub-second and offset companions (which may sit in another directory).
        func date(
            _ d: TIFFDirectory, _ tag: UInt16, _ subsecond: UInt16, _ offset: UInt16, companions: TIFFDirectory? = nil
        )
            -> EXIFDateTime?
        {
            guard let s = str(d, tag) else { return nil }
            let c = companions ?? d
            return EXIFDateTime(exifString: s, subsecond: str(c, subsecond), offset: str(c, offset))
        }

        make = str(ifd0, TIFFTag.make)
        model = str(ifd0, TIFFTag.model)
        software = str(ifd0, TIFFTag.software)
        imageDescription = str(ifd0, TIFFTag.imageDescription)
        artist = str(ifd0, TIFFTag.artist)
        copyright = str(ifd0, TIFFTag.copyright)
        orientation = u16(ifd0, TIFFTag.orientation).flatMap { Orientation(rawValue: $0) }

        var exifDirs: [TIFFDirectory] = [ifd0]
        if let o = ((try? p.childOffsets(ifd0, TIFFTag.exifIFD)) ?? []).first,
            let d = try? p.directory(at: o, name: "Exif IFD")
        {
            exifDirs.append(d)
        }
        for d in exifDirs {
            if let v = rational(d, EXIFTag.exposureTime) { exposureTime = v }
            if let v = rational(d, EXIFTag.fNumber) { fNumber = v }
            if let v = u16(d, EXIFTag.exposureProgram) { exposureProgram = v }
            if let v = int(d, EXIFTag.photographicSensitivity) { isoSpeed = v }
            if let v = u16(d, EXIFTag.sensitivityType) { sensitivityType = v }
            if let v = int(d, EXIFTag.isoSpeed), v > 0, (isoSpeed ?? 0) >= 65535 || isoSpeed == nil { isoSpeed = v }
            if let e = d[EXIFTag.exifVersion], let b = try? p.rawBytes(d, EXIFTag.exifVersion), e.count == 4 {
                exifVersion = String(decoding: b, as: UTF8.self)
            }
            if let v = date(d, EXIFTag.dateTimeOriginal, EXIFTag.subSecTimeOriginal, EXIFTag.offsetTimeOriginal) {
                dateTimeOriginal = v
            }
            if let v = date(d, EXIFTag.dateTimeDigitized, EXIFTag.subSecTimeDigitized, EXIFTag.offsetTimeDigitized) {
                dateTimeDigitized = v
            }
            if let v = rational(d, EXIFTag.shutterSpeedValue) { shutterSpeedValue = v }
            if let v = rational(d, EXIFTag.apertureValue) { apertureValue = v }
            if let v = rational(d, EXIFTag.brightnessValue) { brightnessValue = v }
            if let v = rational(d, EXIFTag.exposureBiasValue) { exposureBias = v }
            if let v = rational(d, EXIFTag.maxApertureValue) { maxApertureValue = v }
            if let v = u16(d, EXIFTag.meteringMode) { meteringMode = v }
            if let v = u16(d, EXIFTag.lightSource) { lightSource = LightSource(rawValue: v) }
            if let v = u16(d, EXIFTag.flash) { flash = Flash(rawValue: v) }
            if let v = rational(d, EXIFTag.focalLength) { focalLength = v }
            if let v = try? p.rawBytes(d, EXIFTag.makerNote) { makerNote = v }
            if let v = u16(d, EXIFTag.colorSpace) { colorSpace = v }
            if let v = int(d, EXIFTag.pixelXDimension) { pixelXDimension = v }
            if let v = int(d, EXIFTag.pixelYDimension) { pixelYDimension = v }
            if let v = u16(d, EXIFTag.sensingMethod) { sensingMethod = v }
            if let v = u16(d, EXIFTag.exposureMode) { exposureMode = v }
            if let v = u16(d, EXIFTag.whiteBalance) { whiteBalance = v }
            if let v = rational(d, EXIFTag.digitalZoomRatio) { digitalZoomRatio = v }
            if let v = int(d, EXIFTag.focalLengthIn35mmFilm) { focalLengthIn35mmFilm = v }
            if let v = u16(d, EXIFTag.sceneCaptureType) { sceneCaptureType = v }
            if let v = str(d, EXIFTag.imageUniqueID) { imageUniqueID = v }
            if let v = str(d, EXIFTag.cameraOwnerName) { cameraOwnerName = v }
            if let v = str(d, EXIFTag.bodySerialNumber) { bodySerialNumber = v }
            if let v = rationals(d, EXIFTag.lensSpecification), v.count == 4 { lensSpecification = v }
            if let v = str(d, EXIFTag.lensMake) { lensMake = v }
            if let v = str(d, EXIFTag.lensModel) { lensModel = v }
            if let v = str(d, EXIFTag.lensSerialNumber) { lensSerialNumber = v }
        }
        dateTime = date(
            ifd0, TIFFTag.dateTime, EXIFTag.subSecTime, EXIFTag.offsetTime,
            companions: exifDirs.count > 1 ? exifDirs[1] : ifd0)

        // Fields without a property.
        func keep(_ d: TIFFDirectory, _ directory: EXIFField.Directory, skipping skip: Set<UInt16>) {
            for tag in d.entries.keys.sorted() where !skip.contains(tag) {
                guard let e = d[tag], e.type != nil, let v = try? p.value(e) else { continue }
                additionalFields.append(EXIFField(directory: directory, tag: tag, value: v))
            }
        }
        if keepsUnknownPrimaryFields {
            keep(ifd0, .primary, skipping: EXIFTag.typedPrimaryTags.union(EXIFTag.structuralPrimaryTags))
        }
        if exifDirs.count > 1 {
            let exifIFD = exifDirs[1]
            keep(exifIFD, .exif, skipping: EXIFTag.typedExifTags)
            if let o = ((try? p.childOffsets(exifIFD, TIFFTag.interopIFD)) ?? []).first,
                let d = try? p.directory(at: o, name: "Interoperability IFD")
            {
                keep(d, .interoperability, skipping: [])
            }
        }
        if let o = ((try? p.childOffsets(ifd0, TIFFTag.gpsIFD)) ?? []).first,
            let g = try? p.directory(at: o, name: "GPS IFD")
        {
            var info = GPSInfo()
            func dms(_ t: UInt16) -> Double? {
                guard let r = rationals(g, t), r.count == 3 else { return nil }
                let v = r[0].doubleValue + r[1].doubleValue / 60 + r[2].doubleValue / 3600
                return v.isFinite ? v : nil
            }
            if let lat = dms(EXIFTag.gpsLatitude) {
                info.latitude = str(g, EXIFTag.gpsLatitudeRef)?.hasPrefix("S") == true ? -lat : lat
            }
            if let lon = dms(EXIFTag.gpsLongitude) {
                info.longitude = str(g, EXIFTag.gpsLongitudeRef)?.hasPrefix("W") == true ? -lon : lon
            }
            if let alt = rational(g, EXIFTag.gpsAltitude)?.doubleValue, alt.isFinite {
                let below = (try? p.rawBytes(g, EXIFTag.gpsAltitudeRef))??.first == 1
                info.altitude = below ? -alt : alt
            }
            if let t = rationals(g, EXIFTag.gpsTimeStamp), t.count == 3 {
                let s = t[0].doubleValue * 3600 + t[1].doubleValue * 60 + t[2].doubleValue
                if s.isFinite { info.timeStamp = s }
            }
            info.dateStamp = str(g, EXIFTag.gpsDateStamp)
            if let v = rational(g, EXIFTag.gpsImgDirection)?.doubleValue, v.isFinite { info.imageDirection = v }
            info.imageDirectionReference = str(g, EXIFTag.gpsImgDirectionRef)
            gps = info
            keep(g, .gps, skipping: EXIFTag.typedGPSTags)
        }
    }
}
