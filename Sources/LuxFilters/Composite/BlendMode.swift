import LuxRender

/// The blend modes of the W3C Compositing and Blending Level 1 specification (and PDF 1.7), plus the
/// photo-editor modes Divide, LinearBurn, LinearDodge, PinLight and Subtract.
///
/// A mode is a function `B(cb, cs)` of the straight backdrop and source colours; the blend filters composite with
/// it as W3C §5.9 prescribes, on premultiplied colour:
///
/// ```
/// co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(cb/αb, cs/αs)      (premultiplied cs, cb)
/// αo = αs + αb − αs·αb
/// ```
public enum BlendMode: String, CaseIterable, Sendable, Hashable {
    /// `cb·cs`.
    case multiply
    /// `cb + cs − cb·cs`.
    case screen
    /// Hard light with the roles swapped: multiplies or screens by the backdrop.
    case overlay
    /// `min(cb, cs)`.
    case darken
    /// `max(cb, cs)`.
    case lighten
    /// Brightens the backdrop by the source: `min(1, cb/(1 − cs))`.
    case colorDodge
    /// Darkens the backdrop by the source: `1 − min(1, (1 − cb)/cs)`.
    case colorBurn
    /// Multiplies for `cs ≤ ½`, screens above.
    case hardLight
    /// A softer hard light (W3C's formula with the `√cb` branch).
    case softLight
    /// `|cb − cs|`.
    case difference
    /// `cb + cs − 2·cb·cs`.
    case exclusion
    /// The source's hue with the backdrop's saturation and luminosity.
    case hue
    /// The source's saturation with the backdrop's hue and luminosity.
    case saturation
    /// The source's hue and saturation with the backdrop's luminosity.
    case color
    /// The source's luminosity with the backdrop's hue and saturation.
    case luminosity
    /// `cb/cs` (0/0 = 0, x/0 = 1).
    case divide
    /// `max(0, cb + cs − 1)`.
    case linearBurn
    /// `cb + cs`.
    case linearDodge
    /// `min(cb, 2cs)` for `cs ≤ ½`, else `max(cb, 2cs − 1)`.
    case pinLight
    /// `max(0, cb − cs)`.
    case subtract

    /// The filter name (`MultiplyBlendMode`).
    public var filterName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() + "BlendMode" }

    /// A name for people (`Color Dodge Blend Mode`).
    public var displayName: String { FilterDescriptor.displayName(for: filterName) }

    /// Whether `B` works channel by channel.
    public var isSeparable: Bool { ![.hue, .saturation, .color, .luminosity].contains(self) }
}
