import LuxCodecs
import LuxColor
public import LuxPixels
public import LuxRender
import RealModule

extension RAWDeveloper {
    /// Throws for the first parameter outside its documented range.
    public func validate() throws(RAWError) { try adjustments.validate() }

    /// The developed image: oriented, cropped to the DefaultCrop, with its extent's origin at (0, 0), in the
    /// render's working space (converted from the pipeline's linear BT.2020; extended range, not clipped).
    ///
    /// Computing it builds a recipe only; pixels are computed when a ``RenderContext`` renders it.
    ///
    /// - Throws: ``RAWError/invalidParameter(name:value:allowed:)`` for a parameter outside its range,
    ///   ``RAWError/color(_:)`` when the white balance cannot be converted through the camera model.
    public var outputImage: Image {
        get throws(RAWError) {
            try validate()
            let neutral = try neutral()
            let gains = 1 / neutral
            let g = gains / gains.min()
            let wb = SIMD3<Float>(Float(g.x), Float(g.y), Float(g.z))
            let sensor = try SensorLinearization(rawImage, appliesLensShading: adjustments.isLensCorrectionEnabled)
            var image = DemosaicStage(method: adjustments.demosaicMethod, isHalfSize: adjustments.isDraftModeEnabled)
                .image(from: sensor, gains: wb)
            if adjustments.isLensCorrectionEnabled, let warp = LensCorrection.warp(in: rawImage.properties) {
                image = LensCorrection(warp: warp).apply(to: image)
            }
            image = NoiseReduction(
                luminanceAmount: Float(adjustments.luminanceNoiseReductionAmount),
                colorAmount: Float(adjustments.colorNoiseReductionAmount),
                noiseModel: SIMD2(Float(noiseModel.x), Float(noiseModel.y)), gains: wb
            ).apply(to: image)
            if adjustments.isHighlightRecoveryEnabled { image = HighlightRecovery().apply(to: image) }
            let color = try CameraColorTransform(calibration: calibration, neutral: neutral)
            image = color.apply(to: image, gain: Double.exp2(adjustments.exposure + adjustments.baselineExposure))
            let look = ColorAdjustments(
                saturation: Float(adjustments.saturationAmount), vibrance: Float(adjustments.vibranceAmount),
                contrast: Float(adjustments.contrastAmount))
            image = look.applyingChroma(to: image)
            image = ToneCurve(boost: Float(adjustments.boostAmount)).apply(to: image)
            image = look.applyingContrast(to: image)
            let sharpenRadius =
                adjustments.isDraftModeEnabled ? adjustments.sharpnessRadius / 2 : adjustments.sharpnessRadius
            image = Sharpening(amount: Float(adjustments.sharpnessAmount), radius: Float(max(sharpenRadius, 0.3)))
                .apply(to: image)
            image = geometry(image)
            return image.matchedToWorkingSpace(from: CameraColorTransform.workingSpace)
        }
    }

    /// The rectangle of the active area the output shows (DefaultCrop, rounded to whole pixels), in
    /// demosaiced-image coordinates (halved in draft mode).
    public var cropRectangle: Rect {
        let area = rawImage.properties.activeArea
        var rect = Rect(width: area.width, height: area.height)
        if adjustments.appliesDefaultCrop, let c = rawImage.properties.defaultCrop, c.width >= 1, c.height >= 1 {
            let crop = Rect(x: c.x.rounded(), y: c.y.rounded(), width: c.width.rounded(), height: c.height.rounded())
            let clipped = crop.intersection(rect)
            if !clipped.isEmpty { rect = clipped }
        }
        if adjustments.isDraftModeEnabled {
            rect = Rect(
                minX: (rect.minX / 2).rounded(.up), minY: (rect.minY / 2).rounded(.up),
                maxX: (rect.maxX / 2).rounded(.down),
                maxY: (rect.maxY / 2).rounded(.down))
        }
        return rect
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

    func geometry(_ image: Image) -> Image {
        let crop = cropRectangle
        var out = image.cropped(to: crop)
        if crop.minX != 0 || crop.minY != 0 { out = out.translatedBy(x: -crop.minX, y: -crop.minY) }
        if adjustments.orientation != .up {
            out = out.transformed(by: orientationTransform(width: crop.width, height: crop.height), sampling: .nearest)
        }
        return out
    }

    /// The size of ``outputImage`` in pixels.
    public var outputSize: Size {
        let c = cropRectangle
        return adjustments.orientation.swapsDimensions
            ? Size(width: c.height, height: c.width) : Size(width: c.width, height: c.height)
    }
}
