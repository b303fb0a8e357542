import LuxCodecs
import LuxColor
public import LuxPixels
public import LuxRender
import RealModule

extension RAWDeveloper {
    /// Throws for the first parameter outside its documented range.
    public func validate() throws(RAWError) { try adjustments.validate() }

    /// The developed image: oriented, cropped to the DefaultCrop, scaled by ``Adjustments/scaleFactor``, with its
    /// extent's origin at (0, 0), in the render's working space (converted from the pipeline's linear BT.2020;
    /// extended range, not clipped).
    ///
    /// Computing it builds a recipe only; pixels are computed when a ``RenderContext`` renders it.
    ///
    /// - Throws: ``RAWError/invalidParameter(name:value:allowed:)`` for a parameter outside its range,
    ///   ``RAWError/color(_:)`` when the white balance cannot be converted through the camera model.
    public var outputImage: Image {
        get throws(RAWError) {
            try validate()
            let a = adjustments
            let neutral = try neutral()
            var image = try sceneImage(neutral: neutral, exposure: a.exposure)
            image = finished(image, sharpenRadius: a.sharpnessRadius / Double(binning))
            image = geometry(image)
            return image.matchedToWorkingSpace(from: CameraColorTransform.workingSpace)
        }
    }

    /// Stages 2–7a: the sensor data white-balanced, demosaiced (or binned), its highlights rebuilt, moiré and noise
    /// reduced, lens-corrected, then converted to linear BT.2020 with the baseline exposure plus `exposure` (EV; with
    /// v2 and later through the profile's gain table map, which comes before the user's exposure).
    func sceneImage(neutral: SIMD3<Double>, exposure: Double) throws(RAWError) -> Image {
        let wb = Self.mosaicGains(neutral: neutral)
        let averaged = Self.photositesPerColor(binning: binning, layout: rawImage.properties)
        let sensor = try sensorStages(gains: wb, handsOverDefringe: true)
        return try sceneStages(
            sensor.image, neutral: neutral, gains: wb, exposure: exposure, averaged: averaged,
            defringe: sensor.defringe)
    }

    /// The white-balance gains applied to the mosaic for `neutral`: 1/neutral, the smallest 1.
    static func mosaicGains(neutral: SIMD3<Double>) -> SIMD3<Float> {
        let gains = 1 / neutral
        let g = gains / gains.min()
        return SIMD3<Float>(Float(g.x), Float(g.y), Float(g.z))
    }

    /// Stages 2–4 of ``sceneImage(neutral:exposure:)``: the sensor data white-balanced by `wb`, demosaiced (or
    /// binned), its highlights rebuilt and their fringes removed (v3), moiré reduced (v2) and lens-corrected, in
    /// camera RGB.
    ///
    /// With `handsOverDefringe`, when no stage here follows the defringe, it is returned instead of applied, for the
    /// noise reduction of ``sceneStages(_:neutral:gains:exposure:averaged:defringe:)`` to fuse (the same pixels).
    func sensorStages(gains wb: SIMD3<Float>, handsOverDefringe: Bool = false) throws(RAWError) -> (
        image: Image, defringe: HighlightDefringe?
    ) {
        let a = adjustments
        var image = try sensorImage(gains: wb, binning: binning)
        // v3: clipped highlights are rebuilt, and the false colour the demosaic gave their surroundings removed,
        // before anything spreads colour (moiré and noise reduction would carry it pixels further).
        let rebuildsEarly = a.version.rawValue >= RAWDeveloper.Version.v3.rawValue
        var defringe: HighlightDefringe? = nil
        if rebuildsEarly && a.isHighlightRecoveryEnabled {
            image = HighlightRecovery().apply(to: image)
            defringe = HighlightDefringe(gains: wb)
        }
        let warp = a.isLensCorrectionEnabled ? LensCorrection.warp(in: rawImage.properties) : nil
        let reducesMoire = a.version != .v1 && a.moireReductionAmount > 0
        if let d = defringe, !handsOverDefringe || reducesMoire || warp != nil {
            image = d.apply(to: image)
            defringe = nil
        }
        if a.version != .v1 { image = MoireReduction(amount: Float(a.moireReductionAmount)).apply(to: image) }
        if let warp { image = LensCorrection(warp: warp).apply(to: image) }
        return (image, defringe)
    }

    /// Stages 5–7a of ``sceneImage(neutral:exposure:)`` on the white-balanced camera RGB `image`: noise reduction
    /// for pixels that each average `averaged` photosites of a colour (relative to a 2×2 Bayer quad's, see
    /// ``photositesPerColor(binning:layout:)``), highlights rebuilt again, then linear BT.2020 at `exposure`.
    ///
    /// `defringe`, handed over by ``sensorStages(gains:handsOverDefringe:)``, is fused into the noise reduction.
    func sceneStages(
        _ image: Image, neutral: SIMD3<Double>, gains wb: SIMD3<Float>, exposure: Double, averaged: Double,
        defringe: HighlightDefringe? = nil
    ) throws(RAWError) -> Image {
        let a = adjustments
        // Averaging n photosites of a colour divides their noise variance by n.
        var image = NoiseReduction(
            luminanceAmount: Float(a.luminanceNoiseReductionAmount),
            colorAmount: Float(a.colorNoiseReductionAmount),
            noiseModel: SIMD2(Float(noiseModel.x), Float(noiseModel.y)) / Float(max(averaged, 1)), gains: wb,
            detail: Float(a.noiseReductionDetailAmount), sharpness: Float(a.noiseReductionSharpnessAmount),
            contrast: Float(a.noiseReductionContrastAmount), defringe: defringe
        ).apply(to: image)
        // Noise reduction carries the colour around a clipped area into it, where colour is unknown: rebuilt (again).
        if a.isHighlightRecoveryEnabled { image = HighlightRecovery().apply(to: image) }
        let color = try CameraColorTransform(calibration: calibration, neutral: neutral)
        if a.version != .v1, let map = rawImage.properties.profileGainTableMap {
            // The gain tables expect BaselineExposure applied, and come before the user's exposure.
            image = color.apply(to: image, gain: Double.exp2(a.baselineExposure))
            image = GainTableMapStage(map: map).apply(to: image)
            return CameraColorTransform(matrix: .identity).apply(to: image, gain: Double.exp2(exposure))
        }
        return color.apply(to: image, gain: Double.exp2(exposure + a.baselineExposure))
    }

    /// Stages 7b–9 on linear BT.2020: gamut mapping, ``linearSpaceFilter``, saturation and vibrance, the tone curve,
    /// shadow boost, contrast and sharpening at `sharpenRadius` pixels of `image`.
    func finished(_ image: Image, sharpenRadius: Double) -> Image {
        let a = adjustments
        let isV2 = a.version != .v1
        var image = image
        if isV2 && a.isGamutMappingEnabled { image = GamutMapping().apply(to: image) }
        if let filter = linearSpaceFilter {
            let space = CameraColorTransform.workingSpace
            image = filter(image.matchedToWorkingSpace(from: space)).matchedFromWorkingSpace(to: space)
        }
        let look = ColorAdjustments(
            saturation: Float(a.saturationAmount), vibrance: Float(a.vibranceAmount),
            contrast: Float(a.contrastAmount), shadowBoost: Float(a.shadowBoostAmount))
        image = look.applyingChroma(to: image)
        image = ToneCurve(
            boost: Float(a.boostAmount), profileCurve: isV2 ? rawImage.properties.profileToneCurve : nil
        ).apply(to: image)
        image = look.applyingShadowBoost(to: image)
        image = look.applyingContrast(to: image)
        // The radius is in output pixels of the full-size image: at a reduced size it shrinks with it.
        return Sharpening(amount: Float(a.sharpnessAmount), radius: Float(max(sharpenRadius, 0.3))).apply(to: image)
    }

    /// Stages 2–3: the white-balanced camera RGB of the sensor data, demosaiced (or averaged over `binning`).
    func sensorImage(gains: SIMD3<Float>, binning: Int) throws(RAWError) -> Image {
        if rawImage.properties.photometric == .linearRaw {
            return try LinearRawSensor(rawImage).image(gains: gains, binning: binning)
        }
        let sensor = try SensorLinearization(rawImage, appliesLensShading: adjustments.isLensCorrectionEnabled)
        return DemosaicStage(method: adjustments.demosaicMethod, binning: binning).image(from: sensor, gains: gains)
    }

    /// The smallest block the raw data can be averaged over: 2 for Bayer and Linear Raw data, 3 for X-Trans.
    var smallestBinning: Int {
        rawImage.properties.xTransPattern != nil ? 3 : 2
    }

    /// Photosites (or pixels) averaged along each side before processing: 1 at full resolution; for
    /// ``Adjustments/scaleFactor`` the largest block of ``smallestBinning`` × 2ᵏ whose reduction the scale does not
    /// undercut, and at least ``smallestBinning`` in draft mode.
    public var binning: Int {
        let a = adjustments
        let base = smallestBinning
        if a.version == .v1 { return a.isDraftModeEnabled ? base : 1 }
        var b = 1
        var candidate = base
        while 1 / Double(candidate) >= a.scaleFactor - 1e-9 {
            b = candidate
            candidate *= 2
        }
        return a.isDraftModeEnabled ? max(b, base) : b
    }

    /// The photosites of each colour a binned pixel averages, relative to a 2×2 Bayer quad's (whose noise the
    /// noise model's amounts were tuned at): 1 at full size and for quads, `(b/2)²` for larger Bayer blocks,
    /// `2(b/3)²` for X-Trans blocks, `(b/2)²·2` for Linear Raw blocks of `b²` pixels.
    static func photositesPerColor(binning b: Int, layout p: RawProperties) -> Double {
        guard b > 1 else { return 1 }
        if p.xTransPattern != nil { return 2 * Double(b * b) / 9 }
        if p.photometric == .linearRaw { return Double(b * b) / 2 }
        return Double(b * b) / 4
    }

    /// The rectangle of the active area the output shows (DefaultCrop, rounded to whole pixels), in the coordinates
    /// of the image the pipeline computes (the active area divided by ``binning``).
    public var cropRectangle: Rect {
        let area = rawImage.properties.activeArea
        var rect = Rect(width: area.width, height: area.height)
        if adjustments.appliesDefaultCrop, let c = rawImage.properties.defaultCrop, c.width >= 1, c.height >= 1 {
            let crop = Rect(x: c.x.rounded(), y: c.y.rounded(), width: c.width.rounded(), height: c.height.rounded())
            let clipped = crop.intersection(rect)
            if !clipped.isEmpty { rect = clipped }
        }
        let b = Double(binning)
        if b > 1 {
            rect = Rect(
                minX: (rect.minX / b).rounded(.up), minY: (rect.minY / b).rounded(.up),
                maxX: (rect.maxX / b).rounded(.down), maxY: (rect.maxY / b).rounded(.down))
        }
        return rect
    }

    /// The size of the output before orientation: the cropped image scaled by ``Adjustments/scaleFactor`` (the
    /// binned crop itself when the scale is exactly the binning's reduction, and with ``Version/v1``).
    var scaledSize: Size {
        let crop = cropRectangle
        let b = Double(binning)
        let s = adjustments.scaleFactor
        guard adjustments.version != .v1, abs(s * b - 1) > 1e-9 else {
            return Size(width: crop.width, height: crop.height)
        }
        return Size(width: max(1, (crop.width * b * s).rounded()), height: max(1, (crop.height * b * s).rounded()))
    }

    /// The transform from demosaiced-image coordinates (after the crop moved to the origin) to output
    /// coordinates, for ``Adjustments/orientation``.
    func orientationTransform(width w: Double, height h: Double) -> AffineTransform {
        switch adjustments.orientation {
        case .up: .identity
        case .upMirrored: AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
        case .down: AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case .downMirrored: AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        case .leftMirrored: AffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        case .right: AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        case .rightMirrored: AffineTransform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
        case .left: AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        }
    }

    /// Crop, scale and orientation.
    func geometry(_ image: Image) -> Image {
        oriented(scaled(image))
    }

    /// Crop and scale: the image at ``scaledSize``, with its origin at (0, 0).
    func scaled(_ image: Image) -> Image {
        let crop = cropRectangle
        var out = image.cropped(to: crop)
        if crop.minX != 0 || crop.minY != 0 { out = out.translatedBy(x: -crop.minX, y: -crop.minY) }
        let size = scaledSize
        if size.width != crop.width || size.height != crop.height {
            out = Resample(width: Int(size.width), height: Int(size.height)).apply(to: out)
        }
        return out
    }

    /// The scaled image turned to ``Adjustments/orientation``.
    func oriented(_ image: Image) -> Image {
        guard adjustments.orientation != .up else { return image }
        let size = scaledSize
        return image.transformed(by: orientationTransform(width: size.width, height: size.height), sampling: .nearest)
    }

    /// The size of ``outputImage`` in pixels.
    public var outputSize: Size {
        let s = scaledSize
        return adjustments.orientation.swapsDimensions ? Size(width: s.height, height: s.width) : s
    }
}
