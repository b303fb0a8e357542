public import Foundation
public import LuxCodecs
import LuxColor
import LuxLive
import LuxPixels

extension FileReport {
    /// Reads what `path` holds from its headers and metadata (pixels are not decoded).
    ///
    /// - Parameters:
    ///   - path: An image file (JPEG, PNG, TIFF, HEIC, DNG, a camera raw, ...) or a QuickTime movie (`.mov`, `.qt`,
    ///     `.mp4`, `.m4v`); ``file`` keeps it as given.
    ///   - imageIndex: For a HEIF file holding several images, the one the top-level fields describe (0 is the
    ///     primary).
    /// - Throws: ``CodecError`` when the file cannot be read or is not an image or movie Lux understands.
    public init(path: String, imageIndex: Int = 0) throws(CodecError) {
        let url = URL(fileURLWithPath: path)
        if ["mov", "qt", "mp4", "m4v"].contains(url.pathExtension.lowercased()) {
            self.init(path: path, movie: try QuickTimeMovie(contentsOf: url))
        } else {
            self.init(path: path, info: try ImageFile.info(url: url, imageIndex: imageIndex))
        }
        livePhoto = Self.pairing(url, identifier: livePhoto?.contentIdentifier)
    }

    private init(path: String, movie: QuickTimeMovie) {
        let video = movie.videoTrack
        self.init(
            file: path, format: "quicktime", formatName: "QuickTime movie", width: video?.width ?? 0,
            height: video?.height ?? 0)
        colorSpace = video?.colorSpace?.name
        self.movie = MovieSummary(
            brand: movie.brand, duration: movie.duration.seconds, stillImageTime: movie.stillImageTime?.seconds,
            tracks: movie.tracks.map { t in
                var track = MovieSummary.Track(
                    id: t.id, kind: t.kind.rawValue, codec: t.codec, codecName: t.codecName,
                    duration: t.duration.seconds,
                    samples: t.sampleCount)
                if t.kind == .video {
                    track.width = t.width
                    track.height = t.height
                    track.frameRate = t.nominalFrameRate
                } else if t.kind == .audio {
                    track.sampleRate = t.sampleRate
                    track.channels = t.channelCount
                }
                return track
            })
        livePhoto = LivePhotoSummary(contentIdentifier: movie.contentIdentifier, paired: false)
    }

    private init(path: String, info: ImageInfo) {
        var formatName = info.format.description
        if info.format == .cameraRaw {
            let ext = URL(fileURLWithPath: path).pathExtension.uppercased()
            formatName = (ext.isEmpty ? "" : "\(ext) ") + "camera raw (LibRaw \(CameraRaw.libRawVersion))"
        } else if let v = info.raw?.dngVersion {
            formatName += " " + v.map(String.init).joined(separator: ".")
        }
        self.init(
            file: path, format: info.format.rawValue, formatName: formatName, width: info.width, height: info.height)
        pixels = Pixels(
            colorModel: info.colorModel.rawValue, pixelFormat: info.pixelFormat.description,
            bitsPerSample: info.bitsPerSample, samplesPerPixel: info.samplesPerPixel, hasAlpha: info.hasAlpha)
        storage = info.storage
        colorSpace = info.colorSpace?.name
        if let icc = info.metadata.iccProfile {
            let parsed = info.iccProfile
            iccProfile = ICCProfile(
                description: info.iccProfileDescription, bytes: icc.count,
                deviceClass: parsed.map { "\($0.deviceClass)".components(separatedBy: " (").first ?? "" },
                colorSpace: parsed?.dataColorSpace.description,
                version: parsed.map { "\($0.majorVersion).\($0.minorVersion)" })
        }
        let exif = info.metadata.exif
        if !exif.isEmpty { self.exif = EXIFSummary(exif) }
        xmpBytes = info.metadata.xmp?.count
        raw = info.raw.map(RawSummary.init)
        heif = info.heif
        livePhoto = LivePhotoSummary(contentIdentifier: info.metadata.livePhotoContentIdentifier, paired: false)
    }

    private init(file: String, format: String, formatName: String, width: Int, height: Int) {
        self.file = file
        self.format = format
        self.formatName = formatName
        self.width = width
        self.height = height
    }

    /// The pairing of a still or movie with the file beside it; `nil` for files that are neither part of a pair
    /// nor carry an identifier.
    private static func pairing(_ url: URL, identifier: String?) -> LivePhotoSummary? {
        let isStillOrMovie = ["jpg", "jpeg", "heic", "mov", "qt"].contains(url.pathExtension.lowercased())
        guard isStillOrMovie, let partner = LivePhoto.partnerURL(of: url) else {
            return identifier.map { LivePhotoSummary(contentIdentifier: $0, paired: false) }
        }
        let partnerID: String?
        if ["mov", "qt"].contains(partner.pathExtension.lowercased()) {
            partnerID = (try? QuickTimeMovie(contentsOf: partner))?.contentIdentifier
        } else {
            partnerID = (try? ImageFile.info(url: partner))?.metadata.livePhotoContentIdentifier
        }
        guard identifier != nil || partnerID != nil else { return nil }
        let paired =
            identifier.map { id in partnerID.map { $0.caseInsensitiveCompare(id) == .orderedSame } ?? false } ?? false
        return LivePhotoSummary(
            contentIdentifier: identifier, partner: partner.path, partnerContentIdentifier: partnerID, paired: paired)
    }
}

extension FileReport.EXIFSummary {
    init(_ exif: EXIF) {
        func number(_ r: Rational?) -> Double? { r.flatMap { $0.denominator == 0 ? nil : $0.doubleValue } }
        self.init(
            make: exif.make, model: exif.model, lensMake: exif.lensMake, lensModel: exif.lensModel,
            software: exif.software,
            artist: exif.artist, copyright: exif.copyright, orientation: exif.orientation.map { Int($0.rawValue) },
            dateTimeOriginal: exif.dateTimeOriginal?.exifString, exposureTime: number(exif.exposureTime),
            fNumber: number(exif.fNumber), iso: exif.isoSpeed, focalLength: number(exif.focalLength),
            focalLengthIn35mmFilm: exif.focalLengthIn35mmFilm, exposureBias: number(exif.exposureBias),
            exposureProgram: exif.exposureProgram.map(Int.init), meteringMode: exif.meteringMode.map(Int.init),
            whiteBalance: exif.whiteBalance.map(Int.init), flash: exif.flash.map { Int($0.rawValue) },
            latitude: exif.gps?.latitude, longitude: exif.gps?.longitude, altitude: exif.gps?.altitude)
    }
}

extension FileReport.RawSummary {
    /// An X-Trans pattern's six rows of colour letters, such as "GGRGGB/GGBGGR/BRGRBG/GGBGGR/GGRGGB/RBGBRG".
    static func letters(_ p: XTransPattern) -> String {
        (0..<6).map { y in String((0..<6).map { x in ["R", "G", "B"][p.channel(x: x, y: y).rawValue] }) }
            .joined(separator: "/")
    }

    init(_ r: RawProperties) {
        let c = r.color
        let layout =
            r.photometric == .colorFilterArray
            ? "CFA \(r.cfa?.description ?? "?")" : "Linear Raw, \(r.samplesPerPixel) samples"
        let a = r.activeArea
        var sceneWhite: SceneWhite?
        if let calibration = c.cameraColorCalibration, let neutral = c.sceneNeutral,
            let white = try? calibration.chromaticity(forNeutral: neutral)
        {
            let tt = TemperatureAndTint(chromaticity: white)
            sceneWhite = SceneWhite(temperature: tt.temperature, tint: tt.tint, x: white.x, y: white.y)
        }
        func names(_ list: [DNGOpcode]) -> [String]? { list.isEmpty ? nil : list.map(\.name) }
        self.init(
            dngVersion: r.dngVersion?.map(Int.init), uniqueCameraModel: r.uniqueCameraModel, layout: layout,
            bitsPerSample: r.bitsPerSample, cfaPattern: r.cfaPattern?.rawValue ?? r.xTransPattern.map(Self.letters),
            blackLevel: r.blackLevel.values,
            whiteLevel: r.whiteLevel, linearizationTableEntries: r.linearizationTable?.count,
            activeArea: [a.top, a.left, a.bottom, a.right],
            defaultCrop: r.defaultCrop.map { [$0.x, $0.y, $0.width, $0.height] },
            colorMatrix1: c.colorMatrix1.map { $0.entries },
            colorMatrix2: c.colorMatrix2.map { $0.entries },
            calibrationIlluminant1: c.calibrationIlluminant1.map { Int($0.rawValue) },
            calibrationIlluminant2: c.calibrationIlluminant2.map { Int($0.rawValue) },
            forwardMatrix1: c.forwardMatrix1.map { $0.entries },
            forwardMatrix2: c.forwardMatrix2.map { $0.entries }, asShotNeutral: c.asShotNeutral,
            asShotWhiteXY: c.asShotWhiteXY.map { [$0.x, $0.y] }, analogBalance: c.analogBalance,
            sceneWhite: sceneWhite, baselineExposure: r.baselineExposure,
            noiseProfile: r.noiseProfile.map { $0.planes.flatMap { [$0.scale, $0.offset] } },
            opcodeList1: names(r.opcodeList1), opcodeList2: names(r.opcodeList2), opcodeList3: names(r.opcodeList3),
            previews: r.previews.map { Preview(width: $0.width, height: $0.height, encoding: $0.encoding.rawValue) })
    }
}
