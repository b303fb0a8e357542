import LuxPixels
public import LuxRender

/// The built-in filters (one type per filter, named as in Core Image's catalogue).
///
/// Each is a ``LuxRender/DeclaredFilter``: use them as typed values (`Filters.SepiaTone { $0.intensity = 0.8 }`,
/// applied with `photo.applyingFilter(_:)`), through the typed methods on ``LuxRender/Image``
/// (`photo.sepiaTone(intensity: 0.8)`), or by name (`photo.applyingFilter("SepiaTone", parameters: ["intensity": 0.8])`,
/// Core Image's names and keys included).
public enum Filters {}

extension FilterRegistry {
    /// Every built-in filter.
    public static let builtIn = FilterRegistry([
        Filters.AdditionCompositing.self,
        Filters.AffineClamp.self,
        Filters.AffineTile.self,
        Filters.AffineTransform.self,
        Filters.AreaAverage.self,
        Filters.AreaHistogram.self,
        Filters.AreaMaximum.self,
        Filters.AreaMaximumAlpha.self,
        Filters.AreaMinimum.self,
        Filters.AreaMinimumAlpha.self,
        Filters.AztecCodeGenerator.self,
        Filters.BarsSwipeTransition.self,
        Filters.BlendWithAlphaMask.self,
        Filters.BlendWithMask.self,
        Filters.Bloom.self,
        Filters.BoxBlur.self,
        Filters.BumpDistortion.self,
        Filters.BumpDistortionLinear.self,
        Filters.CMYKHalftone.self,
        Filters.CheckerboardGenerator.self,
        Filters.CircleSplashDistortion.self,
        Filters.CircularScreen.self,
        Filters.CircularWrap.self,
        Filters.Clamp.self,
        Filters.Code128BarcodeGenerator.self,
        Filters.ColorBlendMode.self,
        Filters.ColorBurnBlendMode.self,
        Filters.ColorClamp.self,
        Filters.ColorControls.self,
        Filters.ColorCrossPolynomial.self,
        Filters.ColorCube.self,
        Filters.ColorCubeWithColorSpace.self,
        Filters.ColorDodgeBlendMode.self,
        Filters.ColorInvert.self,
        Filters.ColorMap.self,
        Filters.ColorMatrix.self,
        Filters.ColorMonochrome.self,
        Filters.ColorPolynomial.self,
        Filters.ColorPosterize.self,
        Filters.ColumnAverage.self,
        Filters.ComicEffect.self,
        Filters.ConstantColorGenerator.self,
        Filters.Convolution3X3.self,
        Filters.Convolution5X5.self,
        Filters.Convolution7X7.self,
        Filters.Convolution9Horizontal.self,
        Filters.Convolution9Vertical.self,
        Filters.Crop.self,
        Filters.Crystallize.self,
        Filters.DarkenBlendMode.self,
        Filters.DifferenceBlendMode.self,
        Filters.DiscBlur.self,
        Filters.DisintegrateWithMaskTransition.self,
        Filters.DisplacementDistortion.self,
        Filters.DissolveTransition.self,
        Filters.DivideBlendMode.self,
        Filters.DotScreen.self,
        Filters.EdgePreserveUpsample.self,
        Filters.EdgeWork.self,
        Filters.Edges.self,
        Filters.EightfoldReflectedTile.self,
        Filters.ExclusionBlendMode.self,
        Filters.ExposureAdjust.self,
        Filters.FalseColor.self,
        Filters.FourfoldReflectedTile.self,
        Filters.FourfoldRotatedTile.self,
        Filters.FourfoldTranslatedTile.self,
        Filters.GammaAdjust.self,
        Filters.GaussianBlur.self,
        Filters.GaussianGradient.self,
        Filters.GlassDistortion.self,
        Filters.GlideReflectedTile.self,
        Filters.Gloom.self,
        Filters.HardLightBlendMode.self,
        Filters.HatchedScreen.self,
        Filters.HeightFieldFromMask.self,
        Filters.HexagonalPixelate.self,
        Filters.HighlightShadowAdjust.self,
        Filters.HistogramDisplayFilter.self,
        Filters.HoleDistortion.self,
        Filters.HueAdjust.self,
        Filters.HueBlendMode.self,
        Filters.HueSaturationValueGradient.self,
        Filters.Kaleidoscope.self,
        Filters.LanczosScaleTransform.self,
        Filters.LightTunnel.self,
        Filters.LightenBlendMode.self,
        Filters.LineOverlay.self,
        Filters.LineScreen.self,
        Filters.LinearBurnBlendMode.self,
        Filters.LinearDodgeBlendMode.self,
        Filters.LinearGradient.self,
        Filters.LinearToSRGBToneCurve.self,
        Filters.LuminosityBlendMode.self,
        Filters.MaskToAlpha.self,
        Filters.MaskedVariableBlur.self,
        Filters.MaximumComponent.self,
        Filters.MaximumCompositing.self,
        Filters.MedianFilter.self,
        Filters.MinimumComponent.self,
        Filters.MinimumCompositing.self,
        Filters.MorphologyRectangleMaximum.self,
        Filters.MorphologyRectangleMinimum.self,
        Filters.MotionBlur.self,
        Filters.MultiplyBlendMode.self,
        Filters.MultiplyCompositing.self,
        Filters.NinePartStretched.self,
        Filters.NinePartTiled.self,
        Filters.NoiseReduction.self,
        Filters.OverlayBlendMode.self,
        Filters.PDF417BarcodeGenerator.self,
        Filters.ParallelogramTile.self,
        Filters.PerspectiveCorrection.self,
        Filters.PerspectiveTile.self,
        Filters.PerspectiveTransform.self,
        Filters.PerspectiveTransformWithExtent.self,
        Filters.PhotoEffectChrome.self,
        Filters.PhotoEffectFade.self,
        Filters.PhotoEffectInstant.self,
        Filters.PhotoEffectMono.self,
        Filters.PhotoEffectNoir.self,
        Filters.PhotoEffectProcess.self,
        Filters.PhotoEffectTonal.self,
        Filters.PhotoEffectTransfer.self,
        Filters.PinLightBlendMode.self,
        Filters.PinchDistortion.self,
        Filters.Pixellate.self,
        Filters.QRCodeGenerator.self,
        Filters.RadialGradient.self,
        Filters.RandomGenerator.self,
        Filters.RowAverage.self,
        Filters.SRGBToneCurveToLinear.self,
        Filters.SaturationBlendMode.self,
        Filters.ScreenBlendMode.self,
        Filters.SepiaTone.self,
        Filters.ShadedMaterial.self,
        Filters.SharpenLuminance.self,
        Filters.SixfoldReflectedTile.self,
        Filters.SixfoldRotatedTile.self,
        Filters.SmoothLinearGradient.self,
        Filters.SoftLightBlendMode.self,
        Filters.SourceAtopCompositing.self,
        Filters.SourceInCompositing.self,
        Filters.SourceOutCompositing.self,
        Filters.SourceOverCompositing.self,
        Filters.SpotLight.self,
        Filters.StraightenFilter.self,
        Filters.StripesGenerator.self,
        Filters.SubtractBlendMode.self,
        Filters.SwipeTransition.self,
        Filters.TemperatureAndTint.self,
        Filters.Thermal.self,
        Filters.ToneCurve.self,
        Filters.TriangleKaleidoscope.self,
        Filters.TriangleTile.self,
        Filters.TwirlDistortion.self,
        Filters.UnsharpMask.self,
        Filters.Vibrance.self,
        Filters.Vignette.self,
        Filters.VignetteEffect.self,
        Filters.VortexDistortion.self,
        Filters.WhitePointAdjust.self,
        Filters.XRay.self,
        Filters.ZoomBlur.self,
    ])
}

extension Image {
    /// Applies the built-in filter called `name`, with this image as its `image` parameter.
    ///
    /// ```swift
    /// let sepia = try photo.applyingFilter("SepiaTone", parameters: ["intensity": 0.8])
    /// ```
    ///
    /// - Throws: ``LuxRender/FilterError`` for unknown names or parameters and wrong values, listing what is
    ///   accepted.
    public func applyingFilter(_ name: String, parameters: [String: FilterValue] = [:]) throws(FilterError) -> Image {
        try applyingFilter(name, parameters: parameters, registry: .builtIn)
    }

    /// Applies the built-in filter called `name` with parameters in Core Image's coordinates of this image (origin at
    /// the bottom left, y up): positions, angles and transforms are converted (see ``LuxRender/CoreImageCoordinates``),
    /// so code ported from Core Image lands on the same pixels.
    ///
    /// ```swift
    /// let twirled = try photo.applyingFilter(
    ///     "CITwirlDistortion", coreImageParameters: ["inputCenter": [300, 100], "inputAngle": 1.5])
    /// ```
    ///
    /// - Throws: ``LuxRender/FilterError`` for unknown names or parameters and wrong values, and
    ///   ``LuxRender/FilterError/noCoreImageOrigin(extent:)`` when the image's extent is infinite or empty.
    public func applyingFilter(_ name: String, coreImageParameters: [String: FilterValue]) throws(FilterError) -> Image
    {
        guard !extent.isInfinite, !extent.isEmpty else { throw .noCoreImageOrigin(extent: extent) }
        return try FilterRegistry.builtIn.apply(
            name, to: self, coreImageParameters: coreImageParameters, in: CoreImageCoordinates(extent: extent))
    }
}
