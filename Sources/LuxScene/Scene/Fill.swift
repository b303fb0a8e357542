/// What a shape is painted with: surface colours (reflectances), never light values — the layer's light
/// turns them into radiance.
public enum Fill: Sendable {
    /// One colour.
    case solid(SurfaceColor)
    /// A linear ramp from `from` (at `start`) to `to` (at `end`), constant beyond the ends.
    case linearGradient(start: SIMD2<Double>, from: SurfaceColor, end: SIMD2<Double>, to: SurfaceColor)
    /// A colour modulated by smooth, deterministic value noise: `color × (1 + contrast × n)` with `n` in
    /// −1…1 varying over `featureSize` scene units — a textured surface that contrast autofocus can lock on.
    case texture(SurfaceColor, contrast: Double, featureSize: Double, seed: UInt64)
    /// An image (see ``SceneImage``), mapped onto the rectangle `origin`…`origin + size`.
    case image(SceneImage, origin: SIMD2<Double>, size: SIMD2<Double>, depthRange: ClosedRange<Double>?)
}

/// A shape on a scene layer: an outline and a fill.
public struct Shape: Sendable {
    /// The outline.
    public var geometry: Geometry
    /// The fill.
    public var fill: Fill

    /// Creates a shape.
    public init(_ geometry: Geometry, fill: Fill) {
        self.geometry = geometry
        self.fill = fill
    }

    /// A shape of one colour.
    public init(_ geometry: Geometry, color: SurfaceColor) {
        self.init(geometry, fill: .solid(color))
    }
}
