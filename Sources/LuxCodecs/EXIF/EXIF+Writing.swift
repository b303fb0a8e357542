extension EXIF {
    /// The IFD0 fields this metadata contributes (Make, Model, Software, DateTime …).
    func primaryFields(includingOrientation: Bool = true) -> [UInt16: TIFFValue] {
        var f: [UInt16: TIFFValue] = [:]
        if let v = make { f[TIFFTag.make] = .ascii(v) }
        if let v = model { f[TIFFTag.model] = .ascii(v) }
        if let v = software { f[TIFFTag.software] = .ascii(v) }
        if let v = imageDescription { f[TIFFTag.imageDescription] = .ascii(v) }
        if let v = artist { f[TIFFTag.artist] = .ascii(v) }
        if let v = copyright { f[TIFFTag.copyright] = .ascii(v) }
        if let v = dateTime { f[TIFFTag.dateTime] = .ascii(v.exifString) }
        if includingOrientation, let v = orientation { f[TIFFTag.orientation] = .shorts([v.rawValue]) }
        for field in additionalFields
        where field.directory == .primary
            && !EXIFTag.structuralPrimaryTags.contains(field.tag) && f[field.tag] == nil
        {
            f[field.tag] = field.value
        }
        return f
    }

    /// The Exif IFD (with its interoperability IFD), or `nil` when there is nothing to write.
    func exifDirectory() -> TIFFOutputDirectory? {
        var d = TIFFOutputDirectory()
        func unsigned(_ r: Rational) -> Rational {
            Rational(max(0, min(r.numerator, Int64(UInt32.max))), max(0, min(r.denominator, Int64(UInt32.max))))
        }
        func signed(_ r: Rational) -> Rational {
            Rational(
                max(Int64(Int32.min), min(r.numerator, Int64(Int32.max))),
                max(Int64(Int32.min), min(r.denominator, Int64(Int32.max))))
        }
        if let v = exposureTime { d[EXIFTag.exposureTime] = .rationals([unsigned(v)]) }
        if let v = fNumber { d[EXIFTag.fNumber] = .rationals([unsigned(v)]) }
        if let v = exposureProgram { d[EXIFTag.exposureProgram] = .shorts([v]) }
        if let v = isoSpeed {
            d[EXIFTag.photographicSensitivity] = .shorts([UInt16(clamping: v)])
            if v > 65535 {
                d[EXIFTag.sensitivityType] = .shorts([3])
                d[EXIFTag.isoSpeed] = .longs([UInt32(clamping: v)])
            }
        }
        if let v = sensitivityType { d[EXIFTag.sensitivityType] = .shorts([v]) }
        if let v = exifVersion, v.utf8.count == 4 { d[EXIFTag.exifVersion] = .undefined(Array(v.utf8)) }
        if let v = dateTimeOriginal {
            d[EXIFTag.dateTimeOriginal] = .ascii(v.exifString)
            if let s = v.subsecond { d[EXIFTag.subSecTimeOriginal] = .ascii(s) }
            if let o = v.offsetString { d[EXIFTag.offsetTimeOriginal] = .ascii(o) }
        }
        if let v = dateTimeDigitized {
            d[EXIFTag.dateTimeDigitized] = .ascii(v.exifString)
            if let s = v.subsecond { d[EXIFTag.subSecTimeDigitized] = .ascii(s) }
            if let o = v.offsetString { d[EXIFTag.offsetTimeDigitized] = .ascii(o) }
        }
        if let v = dateTime {
            if let s = v.subsecond { d[EXIFTag.subSecTime] = .ascii(s) }
            if let o = v.offsetString { d[EXIFTag.offsetTime] = .ascii(o) }
        }
        if let v = shutterSpeedValue { d[EXIFTag.shutterSpeedValue] = .signedRationals([signed(v)]) }
        if let v = apertureValue { d[EXIFTag.apertureValue] = .rationals([unsigned(v)]) }
        if let v = brightnessValue { d[EXIFTag.brightnessValue] = .signedRationals([signed(v)]) }
        if let v = exposureBias { d[EXIFTag.exposureBiasValue] = .signedRationals([signed(v)]) }
        if let v = maxApertureValue { d[EXIFTag.maxApertureValue] = .rationals([unsigned(v)]) }
        if let v = meteringMode { d[EXIFTag.meteringMode] = .shorts([v]) }
        if let v = lightSource { d[EXIFTag.lightSource] = .shorts([v.rawValue]) }
        if let v = flash { d[EXIFTag.flash] = .shorts([v.rawValue]) }
        if let v = focalLength { d[EXIFTag.focalLength] = .rationals([unsigned(v)]) }
        if let v = makerNote { d[EXIFTag.makerNote] = .undefined(v) }
        if let v = colorSpace { d[EXIFTag.colorSpace] = .shorts([v]) }
        if let v = pixelXDimension { d[EXIFTag.pixelXDimension] = .longs([UInt32(clamping: v)]) }
        if let v = pixelYDimension { d[EXIFTag.pixelYDimension] = .longs([UInt32(clamping: v)]) }
        if let v = sensingMethod { d[EXIFTag.sensingMethod] = .shorts([v]) }
        if let v = exposureMode { d[EXIFTag.exposureMode] = .shorts([v]) }
        if let v = whiteBalance { d[EXIFTag.whiteBalance] = .shorts([v]) }
        if let v = digitalZoomRatio { d[EXIFTag.digitalZoomRatio] = .rationals([unsigned(v)]) }
        if let v = focalLengthIn35mmFilm { d[EXIFTag.focalLengthIn35mmFilm] = .shorts([UInt16(clamping: v)]) }
        if let v = sceneCaptureType { d[EXIFTag.sceneCaptureType] = .shorts([v]) }
        if let v = imageUniqueID { d[EXIFTag.imageUniqueID] = .ascii(v) }
        if let v = cameraOwnerName { d[EXIFTag.cameraOwnerName] = .ascii(v) }
        if let v = bodySerialNumber { d[EXIFTag.bodySerialNumber] = .ascii(v) }
        if let v = lensSpecification, v.count == 4 { d[EXIFTag.lensSpecification] = .rationals(v.map(unsigned)) }
        if let v = lensMake { d[EXIFTag.lensMake] = .ascii(v) }
        if let v = lensModel { d[EXIFTag.lensModel] = .ascii(v) }
        if let v = lensSerialNumber { d[EXIFTag.lensSerialNumber] = .ascii(v) }
        for field in additionalFields
        where field.directory == .exif && d[field.tag] == nil
            && field.tag != TIFFTag.interopIFD
        {
            d[field.tag] = field.value
        }
        let interop = additionalFields.filter { $0.directory == .interoperability }
        if !interop.isEmpty {
            var i = TIFFOutputDirectory()
            for field in interop { i[field.tag] = field.value }
            d.children[TIFFTag.interopIFD] = [i]
        }
        return d.fields.isEmpty ? nil : d
    }

    /// The GPS IFD, or `nil` when there is no position.
    func gpsDirectory() -> TIFFOutputDirectory? {
        let extra = additionalFields.filter { $0.directory == .gps }
        guard gps != nil || !extra.isEmpty else { return nil }
        var d = TIFFOutputDirectory()
        d[EXIFTag.gpsVersionID] = .bytes([2, 3, 0, 0])
        func dms(_ value: Double) -> TIFFValue {
            let a = abs(value)
            let deg = a.rounded(.down)
            let minutes = ((a - deg) * 60).rounded(.down)
            let seconds = (a - deg - minutes / 60) * 3600
            return .rationals([
                Rational(Int64(deg), 1), Rational(Int64(minutes), 1),
                Rational(Int64((max(seconds, 0) * 10_000).rounded()), 10_000),
            ])
        }
        if let g = gps {
            if let lat = g.latitude {
                d[EXIFTag.gpsLatitudeRef] = .ascii(lat < 0 ? "S" : "N")
                d[EXIFTag.gpsLatitude] = dms(lat)
            }
            if let lon = g.longitude {
                d[EXIFTag.gpsLongitudeRef] = .ascii(lon < 0 ? "W" : "E")
                d[EXIFTag.gpsLongitude] = dms(lon)
            }
            if let alt = g.altitude {
                d[EXIFTag.gpsAltitudeRef] = .bytes([alt < 0 ? 1 : 0])
                d[EXIFTag.gpsAltitude] = .rationals([
                    Rational(approximating: abs(alt), maxDenominator: 1000, signed: false)
                ])
            }
            if let t = g.timeStamp {
                let h = (t / 3600).rounded(.down)
                let m = ((t - h * 3600) / 60).rounded(.down)
                let s = t - h * 3600 - m * 60
                d[EXIFTag.gpsTimeStamp] = .rationals([
                    Rational(Int64(h), 1), Rational(Int64(m), 1), Rational(Int64((s * 1000).rounded()), 1000),
                ])
            }
            if let v = g.dateStamp { d[EXIFTag.gpsDateStamp] = .ascii(v) }
            if let v = g.imageDirection {
                d[EXIFTag.gpsImgDirectionRef] = .ascii(g.imageDirectionReference ?? "T")
                d[EXIFTag.gpsImgDirection] = .rationals([Rational(approximating: v, maxDenominator: 100, signed: false)]
                )
            }
        }
        for field in extra where d[field.tag] == nil { d[field.tag] = field.value }
        return d
    }

    /// Adds this metadata to an image's IFD0: descriptive fields plus Exif and GPS sub-directories.
    func merge(into directory: inout TIFFOutputDirectory, includingOrientation: Bool = true) {
        for (tag, value) in primaryFields(includingOrientation: includingOrientation) where directory[tag] == nil {
            directory[tag] = value
        }
        if let e = exifDirectory() { directory.children[TIFFTag.exifIFD] = [e] }
        if let g = gpsDirectory() { directory.children[TIFFTag.gpsIFD] = [g] }
    }

    /// A standalone Exif block: a complete big-endian or little-endian TIFF structure, as stored in a JPEG
    /// APP1 segment (after `Exif\0\0`) or a PNG eXIf chunk.
    public func tiffBytes(bigEndian: Bool = false) -> [UInt8] {
        tiffBytes(bigEndian: bigEndian, thumbnail: nil)
    }

    /// A standalone Exif block whose IFD1 holds `thumbnail`, a baseline JPEG (Compression 6, JPEGInterchangeFormat
    /// and its length, 72 dpi), as the Exif standard stores a JPEG's thumbnail.
    func tiffBytes(bigEndian: Bool, thumbnail: [UInt8]?) -> [UInt8] {
        var root = TIFFOutputDirectory()
        merge(into: &root)
        if root.fields.isEmpty { root[TIFFTag.orientation] = .shorts([orientation?.rawValue ?? 1]) }
        if let thumbnail {
            var ifd1 = TIFFOutputDirectory()
            ifd1[TIFFTag.compression] = .shorts([6])
            ifd1[TIFFTag.xResolution] = .rationals([Rational(72, 1)])
            ifd1[TIFFTag.yResolution] = .rationals([Rational(72, 1)])
            ifd1[TIFFTag.resolutionUnit] = .shorts([2])
            ifd1.data = TIFFImageData(
                offsetsTag: TIFFTag.jpegInterchangeFormat, countsTag: TIFFTag.jpegInterchangeFormatLength,
                blobs: [.bytes(thumbnail)])
            root.next = ifd1
        }
        return TIFFEncoder.encode(root, bigEndian: bigEndian)
    }

    /// This metadata completed with the fields the Exif standard requires in a JPEG (resolution, Exif and
    /// Flashpix versions, colour space, components configuration, pixel dimensions).
    func completedForImage(width: Int, height: Int, isWideGamut: Bool, isYCbCr: Bool) -> EXIF {
        var e = self
        func addPrimary(_ tag: UInt16, _ v: TIFFValue) {
            if !e.additionalFields.contains(where: { $0.directory == .primary && $0.tag == tag }) {
                e.additionalFields.append(EXIFField(directory: .primary, tag: tag, value: v))
            }
        }
        func addExif(_ tag: UInt16, _ v: TIFFValue) {
            if !e.additionalFields.contains(where: { $0.directory == .exif && $0.tag == tag }) {
                e.additionalFields.append(EXIFField(directory: .exif, tag: tag, value: v))
            }
        }
        addPrimary(TIFFTag.xResolution, .rationals([Rational(72, 1)]))
        addPrimary(TIFFTag.yResolution, .rationals([Rational(72, 1)]))
        addPrimary(TIFFTag.resolutionUnit, .shorts([2]))
        if isYCbCr { addPrimary(TIFFTag.yCbCrPositioning, .shorts([1])) }
        if e.exifVersion == nil { e.exifVersion = "0232" }
        addExif(EXIFTag.flashpixVersion, .undefined(Array("0100".utf8)))
        if isYCbCr { addExif(EXIFTag.componentsConfiguration, .undefined([1, 2, 3, 0])) }
        if e.colorSpace == nil { e.colorSpace = isWideGamut ? 0xFFFF : 1 }
        e.pixelXDimension = width
        e.pixelYDimension = height
        return e
    }
}
