public import LuxCodecs
import LuxPixels
import LuxRAW

extension HDRMerge {
    /// HDR merge of raw (DNG) brackets into one raw image of scene radiance, ready for ``RAWDeveloper``.
    ///
    /// Each bracket's active area is merged by ``merge(_:rawModel:)`` with its own exposure (EXIF ExposureTime ×
    /// ISOSpeedRatings, ISO 100 when absent) and its own noise (the DNG NoiseProfile — one pair, or one per colour
    /// — or, without one, what ``RAWDeveloper/noiseModel`` derives from BaselineNoise and ISO). The result keeps
    /// the reference bracket's description (colour calibration, white balance, lens corrections, crop, EXIF) with
    /// float samples of the active area: black 0, and 1 where the reference bracket clips — brighter parts of the
    /// scene exceed 1, which the developer's pipeline carries unclipped. Its NoiseProfile is the longest exposure's
    /// in those units (the noise of the merge in the shadows), so the developer's noise-reduction defaults follow.
    ///
    /// ```swift
    /// let raws = try urls.map { try ImageFile.read(url: $0).rawImage! }
    /// let merged = try HDRMerge().merge(raws)
    /// var developer = try RAWDeveloper(rawImage: merged.raw)
    /// developer.isHighlightRecoveryEnabled = false
    /// developer.boostAmount = 0                              // scene-referred output
    /// ```
    ///
    /// - Parameter exposures: Each bracket's exposure (duration × gain, any unit: only ratios matter), for files
    ///   without EXIF exposure times; `nil` reads them from the files.
    /// - Returns: The merged raw image and the merge's details (reference, alignment, rejection, clipping).
    /// - Throws: ``FusionError`` for no brackets, brackets of different sizes, CFA layouts or levels, non-Bayer data,
    ///   a LinearizationTable or BlackLevelDelta (not supported), missing or non-positive exposures, and the errors
    ///   of ``merge(_:rawModel:)``.
    public func merge(_ brackets: [RawImage], exposures: [Double]? = nil) throws(FusionError)
        -> (raw: RawImage, details: Result)
    {
        guard let first = brackets.first else { throw .notEnoughFrames(count: 0, minimum: 1) }
        if let exposures, exposures.count != brackets.count {
            throw .invalidParameter(
                name: "exposures", value: "\(exposures.count) values", allowed: "one per bracket (\(brackets.count))")
        }
        let model = try Self.rawModel(first, index: 0)
        var frames: [Bracket] = []
        var values: [Double] = []
        for (k, raw) in brackets.enumerated() {
            let p = raw.properties
            guard p.activeArea.width == first.properties.activeArea.width,
                p.activeArea.height == first.properties.activeArea.height,
                p.cfaPattern == first.properties.cfaPattern
            else {
                throw .mismatchedFrame(
                    index: k,
                    expected:
                        "\(first.properties.activeArea.width)×\(first.properties.activeArea.height) \(first.properties.cfaPattern.map { "\($0)" } ?? "")",
                    found: "\(p.activeArea.width)×\(p.activeArea.height) \(p.cfaPattern.map { "\($0)" } ?? "")")
            }
            let levels = try Self.rawModel(raw, index: k)
            guard levels.blackLevels == model.blackLevels, levels.whiteLevel == model.whiteLevel else {
                throw .mismatchedFrame(
                    index: k, expected: "black \(model.blackLevels), white \(model.whiteLevel)",
                    found: "black \(levels.blackLevels), white \(levels.whiteLevel)")
            }
            let exposure: Double
            if let exposures {
                exposure = exposures[k]
            } else {
                guard let t = p.exif.exposureTime?.doubleValue else {
                    throw .invalidParameter(
                        name: "brackets[\(k)] exposure", value: "no EXIF ExposureTime",
                        allowed: "an ExposureTime in the file, or exposures given")
                }
                exposure = t * Double(p.exif.isoSpeed ?? 100) / 100
            }
            values.append(exposure)
            frames.append(Bracket(frame: raw.activePixels, exposureDuration: .zero, iso: 1, noise: levels.noise))
        }
        // The exposure rides on the gain (a 1 s duration), relative to the longest, to keep full precision.
        let largest = values.max() ?? 1
        for k in frames.indices {
            guard values[k].isFinite, values[k] > 0, values[k] / largest >= 1e-6 else {
                throw .invalidParameter(
                    name: "brackets[\(k)] exposure", value: "\(values[k])",
                    allowed: "positive, within 20 stops of the longest")
            }
            frames[k].exposureDuration = MediaTime(value: 1, timescale: 1)
            frames[k].iso = Float(values[k] / largest)
        }
        let result = try merge(frames, rawModel: model)
        let reference = brackets[result.referenceIndex]
        let longest = values.indices.max { values[$0] < values[$1] } ?? result.referenceIndex
        let noise = (frames[longest].noise ?? model.noise).scaled(by: values[result.referenceIndex] / largest)

        var p = reference.properties
        let area = p.activeArea
        p.width = area.width
        p.height = area.height
        p.activeArea = RawArea(top: 0, left: 0, bottom: area.height, right: area.width)
        p.maskedAreas = []
        p.bitsPerSample = 32
        p.isFloatingPoint = true
        p.storage = RawStorage(compression: 1)
        p.linearizationTable = nil
        p.blackLevel = BlackLevel(0)
        p.whiteLevel = [1]
        p.noiseProfile = LuxCodecs.NoiseProfile(
            planes: [noise.red, noise.green, noise.blue].map { .init(scale: $0.scale, offset: $0.offset) })
        return (RawImage(pixels: result.output, properties: p), result)
    }

    /// The levels and noise of a Bayer raw image's active area, in ``RawNoiseModel``'s terms.
    static func rawModel(_ raw: RawImage, index k: Int) throws(FusionError) -> RawNoiseModel {
        let p = raw.properties
        guard p.photometric == .colorFilterArray, p.samplesPerPixel == 1, p.cfaPattern != nil, !p.isFloatingPoint,
            raw.activePixels.format.isBayer
        else {
            throw .unsupportedFormat(
                raw.pixels.format, operation: "raw HDR merge (brackets[\(k)])", allowed: "integer 2×2 Bayer CFA data")
        }
        let black = p.blackLevel
        guard p.linearizationTable == nil, black.deltaH == nil, black.deltaV == nil,
            [1, 2].contains(black.repeatRows), [1, 2].contains(black.repeatColumns)
        else {
            throw .invalidParameter(
                name: "brackets[\(k)] levels", value: "a LinearizationTable, BlackLevelDelta or a large black pattern",
                allowed: "black levels repeating over the 2×2 CFA quad")
        }
        let blacks = [(0, 0), (0, 1), (1, 0), (1, 1)].map { black.value(row: $0.0, column: $0.1) }
        let noise: LuxFusion.NoiseProfile
        if let planes = p.noiseProfile?.planes, planes.count == 1 || planes.count == 3 {
            func channel(_ i: Int) -> LuxFusion.NoiseProfile.Channel {
                let c = planes[min(i, planes.count - 1)]
                return .init(scale: c.scale, offset: c.offset)
            }
            noise = LuxFusion.NoiseProfile(red: channel(0), green: channel(1), blue: channel(2))
        } else {
            do {
                let model = try RAWDeveloper(rawImage: raw).noiseModel
                noise = LuxFusion.NoiseProfile(scale: model.x, offset: model.y)
            } catch {
                throw .invalidParameter(
                    name: "brackets[\(k)] noise", value: "\(error)", allowed: "a NoiseProfile or a developable raw")
            }
        }
        return RawNoiseModel(blackLevels: blacks, whiteLevel: p.whiteLevel.first ?? 65535, noise: noise)
    }
}
