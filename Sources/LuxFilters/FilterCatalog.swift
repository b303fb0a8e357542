public import LuxRender

/// The catalogue of filter names users of this kind of engine expect (the seed's "180 Built-In Filters" and the
/// four added after it), with what Lux provides, rendered as `Sources/LuxFilters/CATALOG.md`.
///
/// `lux filters --markdown` prints it; a test keeps the committed file equal to it, so what is missing is
/// always visible.
public enum FilterCatalog {
    /// The 180 classic built-in filter names (Core Image's, without the `CI` prefix), sorted.
    public static let classicNames: [String] = [
        "AccordionFoldTransition", "AdditionCompositing", "AffineClamp", "AffineTile", "AffineTransform",
        "AreaAverage", "AreaHistogram", "AreaMaximum", "AreaMaximumAlpha", "AreaMinimum", "AreaMinimumAlpha",
        "AztecCodeGenerator", "BarsSwipeTransition", "BlendWithAlphaMask", "BlendWithMask", "Bloom", "BoxBlur",
        "BumpDistortion", "BumpDistortionLinear", "CMYKHalftone", "CheckerboardGenerator", "CircleSplashDistortion",
        "CircularScreen", "CircularWrap", "Clamp", "Code128BarcodeGenerator", "ColorBlendMode", "ColorBurnBlendMode",
        "ColorClamp", "ColorControls", "ColorCrossPolynomial", "ColorCube", "ColorCubeWithColorSpace",
        "ColorDodgeBlendMode", "ColorInvert", "ColorMap", "ColorMatrix", "ColorMonochrome", "ColorPolynomial",
        "ColorPosterize", "ColumnAverage", "ComicEffect", "ConstantColorGenerator", "Convolution3X3",
        "Convolution5X5", "Convolution7X7", "Convolution9Horizontal", "Convolution9Vertical",
        "CopyMachineTransition", "Crop", "Crystallize", "DarkenBlendMode", "DepthOfField", "DifferenceBlendMode",
        "DiscBlur", "DisintegrateWithMaskTransition", "DisplacementDistortion", "DissolveTransition",
        "DivideBlendMode", "DotScreen", "Droste", "EdgeWork", "Edges", "EightfoldReflectedTile",
        "ExclusionBlendMode", "ExposureAdjust", "FalseColor", "FlashTransition", "FourfoldReflectedTile",
        "FourfoldRotatedTile", "FourfoldTranslatedTile", "GammaAdjust", "GaussianBlur", "GaussianGradient",
        "GlassDistortion", "GlassLozenge", "GlideReflectedTile", "Gloom", "HardLightBlendMode", "HatchedScreen",
        "HeightFieldFromMask", "HexagonalPixelate", "HighlightShadowAdjust", "HistogramDisplayFilter",
        "HoleDistortion", "HueAdjust", "HueBlendMode", "HueSaturationValueGradient", "Kaleidoscope",
        "LanczosScaleTransform", "LenticularHaloGenerator", "LightTunnel", "LightenBlendMode", "LineOverlay",
        "LineScreen", "LinearBurnBlendMode", "LinearDodgeBlendMode", "LinearGradient", "LinearToSRGBToneCurve",
        "LuminosityBlendMode", "MaskToAlpha", "MaskedVariableBlur", "MaximumComponent", "MaximumCompositing",
        "MedianFilter", "MinimumComponent", "MinimumCompositing", "ModTransition", "MotionBlur", "MultiplyBlendMode",
        "MultiplyCompositing", "NinePartStretched", "NinePartTiled", "NoiseReduction", "OpTile", "OverlayBlendMode",
        "PDF417BarcodeGenerator", "PageCurlTransition", "PageCurlWithShadowTransition", "ParallelogramTile",
        "PerspectiveCorrection", "PerspectiveTile", "PerspectiveTransform", "PerspectiveTransformWithExtent",
        "PhotoEffectChrome", "PhotoEffectFade", "PhotoEffectInstant", "PhotoEffectMono", "PhotoEffectNoir",
        "PhotoEffectProcess", "PhotoEffectTonal", "PhotoEffectTransfer", "PinLightBlendMode", "PinchDistortion",
        "Pixellate", "Pointillize", "QRCodeGenerator", "RadialGradient", "RandomGenerator", "RippleTransition",
        "RowAverage", "SRGBToneCurveToLinear", "SaturationBlendMode", "ScreenBlendMode", "SepiaTone",
        "ShadedMaterial", "SharpenLuminance", "SixfoldReflectedTile", "SixfoldRotatedTile", "SmoothLinearGradient",
        "SoftLightBlendMode", "SourceAtopCompositing", "SourceInCompositing", "SourceOutCompositing",
        "SourceOverCompositing", "SpotColor", "SpotLight", "StarShineGenerator", "StraightenFilter", "StretchCrop",
        "StripesGenerator", "SubtractBlendMode", "SunbeamsGenerator", "SwipeTransition", "TemperatureAndTint",
        "Thermal", "ToneCurve", "TorusLensDistortion", "TriangleKaleidoscope", "TriangleTile",
        "TwelvefoldReflectedTile", "TwirlDistortion", "UnsharpMask", "Vibrance", "Vignette", "VignetteEffect",
        "VortexDistortion", "WhitePointAdjust", "XRay", "ZoomBlur",
    ]

    /// Filters introduced as new after the classic set (the seed's table already lists all but
    /// `EdgePreserveUpsample` among its 180).
    public static let newNames = [
        "EdgePreserveUpsample", "HueSaturationValueGradient", "NinePartStretched", "NinePartTiled",
    ]

    /// Names planned for the second batch of built-in filters (the creative rest).
    static let secondBatch = "planned (Built-in filters II)"

    /// The catalogue as Markdown: every expected name with its status, then Lux's additional filters.
    public static func markdown(registry: FilterRegistry = .builtIn) -> String {
        let have = Set(registry.names)
        let expected = classicNames + newNames.filter { !classicNames.contains($0) }
        let done = expected.filter(have.contains).count
        var out = "# LuxFilters catalogue\n\n"
        out += "Generated from `FilterCatalog` and `FilterRegistry.builtIn` (`lux filters --markdown`; the test "
        out += "`CatalogTests` keeps this file current). Do not edit by hand.\n\n"
        out += "\(done) of \(expected.count) expected filters are built in; \(registry.names.count) filters in all.\n\n"
        out += "| Filter | Status | Categories | Summary |\n|---|---|---|---|\n"
        func row(_ name: String, _ note: String = "") -> String {
            guard have.contains(name), let d = try? registry.descriptor(named: name) else {
                return "| \(name)\(note) | \(secondBatch) | | |\n"
            }
            let usage: Set<FilterCategory> = [.builtIn, .stillImage, .video, .highDynamicRange]
            let categories = d.categories.subtracting(usage).map(\.name).sorted().joined(separator: ", ")
            return "| \(name)\(note) | built in | \(categories) | \(d.summary) |\n"
        }
        for name in expected { out += row(name, newNames.contains(name) ? " (new)" : "") }
        let extra = registry.names.filter { !expected.contains($0) }
        if !extra.isEmpty {
            out += "\n## Additional filters\n\n| Filter | Status | Categories | Summary |\n|---|---|---|---|\n"
            for name in extra { out += row(name) }
        }
        return out
    }
}
