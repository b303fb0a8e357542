import LuxRender

/// The blend-mode tags of ``Filters/BlendModeFilter``.
public enum BlendModes {
    /// ``BlendMode/multiply``.
    public enum Multiply: BlendModeKind { public static let mode = BlendMode.multiply }
    /// ``BlendMode/screen``.
    public enum Screen: BlendModeKind { public static let mode = BlendMode.screen }
    /// ``BlendMode/overlay``.
    public enum Overlay: BlendModeKind { public static let mode = BlendMode.overlay }
    /// ``BlendMode/darken``.
    public enum Darken: BlendModeKind { public static let mode = BlendMode.darken }
    /// ``BlendMode/lighten``.
    public enum Lighten: BlendModeKind { public static let mode = BlendMode.lighten }
    /// ``BlendMode/colorDodge``.
    public enum ColorDodge: BlendModeKind { public static let mode = BlendMode.colorDodge }
    /// ``BlendMode/colorBurn``.
    public enum ColorBurn: BlendModeKind { public static let mode = BlendMode.colorBurn }
    /// ``BlendMode/hardLight``.
    public enum HardLight: BlendModeKind { public static let mode = BlendMode.hardLight }
    /// ``BlendMode/softLight``.
    public enum SoftLight: BlendModeKind { public static let mode = BlendMode.softLight }
    /// ``BlendMode/difference``.
    public enum Difference: BlendModeKind { public static let mode = BlendMode.difference }
    /// ``BlendMode/exclusion``.
    public enum Exclusion: BlendModeKind { public static let mode = BlendMode.exclusion }
    /// ``BlendMode/hue``.
    public enum Hue: BlendModeKind { public static let mode = BlendMode.hue }
    /// ``BlendMode/saturation``.
    public enum Saturation: BlendModeKind { public static let mode = BlendMode.saturation }
    /// ``BlendMode/color``.
    public enum Color: BlendModeKind { public static let mode = BlendMode.color }
    /// ``BlendMode/luminosity``.
    public enum Luminosity: BlendModeKind { public static let mode = BlendMode.luminosity }
    /// ``BlendMode/divide``.
    public enum Divide: BlendModeKind { public static let mode = BlendMode.divide }
    /// ``BlendMode/linearBurn``.
    public enum LinearBurn: BlendModeKind { public static let mode = BlendMode.linearBurn }
    /// ``BlendMode/linearDodge``.
    public enum LinearDodge: BlendModeKind { public static let mode = BlendMode.linearDodge }
    /// ``BlendMode/pinLight``.
    public enum PinLight: BlendModeKind { public static let mode = BlendMode.pinLight }
    /// ``BlendMode/subtract``.
    public enum Subtract: BlendModeKind { public static let mode = BlendMode.subtract }
}

extension Filters {
    /// The multiply blend mode (see ``BlendModeFilter``).
    public typealias MultiplyBlendMode = BlendModeFilter<BlendModes.Multiply>
    /// The screen blend mode (see ``BlendModeFilter``).
    public typealias ScreenBlendMode = BlendModeFilter<BlendModes.Screen>
    /// The overlay blend mode (see ``BlendModeFilter``).
    public typealias OverlayBlendMode = BlendModeFilter<BlendModes.Overlay>
    /// The darken blend mode (see ``BlendModeFilter``).
    public typealias DarkenBlendMode = BlendModeFilter<BlendModes.Darken>
    /// The lighten blend mode (see ``BlendModeFilter``).
    public typealias LightenBlendMode = BlendModeFilter<BlendModes.Lighten>
    /// The colorDodge blend mode (see ``BlendModeFilter``).
    public typealias ColorDodgeBlendMode = BlendModeFilter<BlendModes.ColorDodge>
    /// The colorBurn blend mode (see ``BlendModeFilter``).
    public typealias ColorBurnBlendMode = BlendModeFilter<BlendModes.ColorBurn>
    /// The hardLight blend mode (see ``BlendModeFilter``).
    public typealias HardLightBlendMode = BlendModeFilter<BlendModes.HardLight>
    /// The softLight blend mode (see ``BlendModeFilter``).
    public typealias SoftLightBlendMode = BlendModeFilter<BlendModes.SoftLight>
    /// The difference blend mode (see ``BlendModeFilter``).
    public typealias DifferenceBlendMode = BlendModeFilter<BlendModes.Difference>
    /// The exclusion blend mode (see ``BlendModeFilter``).
    public typealias ExclusionBlendMode = BlendModeFilter<BlendModes.Exclusion>
    /// The hue blend mode (see ``BlendModeFilter``).
    public typealias HueBlendMode = BlendModeFilter<BlendModes.Hue>
    /// The saturation blend mode (see ``BlendModeFilter``).
    public typealias SaturationBlendMode = BlendModeFilter<BlendModes.Saturation>
    /// The color blend mode (see ``BlendModeFilter``).
    public typealias ColorBlendMode = BlendModeFilter<BlendModes.Color>
    /// The luminosity blend mode (see ``BlendModeFilter``).
    public typealias LuminosityBlendMode = BlendModeFilter<BlendModes.Luminosity>
    /// The divide blend mode (see ``BlendModeFilter``).
    public typealias DivideBlendMode = BlendModeFilter<BlendModes.Divide>
    /// The linearBurn blend mode (see ``BlendModeFilter``).
    public typealias LinearBurnBlendMode = BlendModeFilter<BlendModes.LinearBurn>
    /// The linearDodge blend mode (see ``BlendModeFilter``).
    public typealias LinearDodgeBlendMode = BlendModeFilter<BlendModes.LinearDodge>
    /// The pinLight blend mode (see ``BlendModeFilter``).
    public typealias PinLightBlendMode = BlendModeFilter<BlendModes.PinLight>
    /// The subtract blend mode (see ``BlendModeFilter``).
    public typealias SubtractBlendMode = BlendModeFilter<BlendModes.Subtract>
}
