/// A flat layer of a scene facing the camera at one distance, painted with shapes, lit by one light, and
/// optionally moving.
///
/// Layers are composited back to front; each is defocused by the blur its distance gets from the lens.
public struct SceneLayer: Sendable {
    /// A name for diagnostics ("wall", "orange").
    public var name: String
    /// The distance from the camera in metres.
    public var distance: Double
    /// The shapes, painted in order.
    public var shapes: [Shape]
    /// The light on this layer (`nil`: the scene's light).
    public var light: Light?
    /// How the layer moves in the image.
    public var motion: LayerMotion

    /// Creates a layer.
    public init(name: String, distance: Double, shapes: [Shape], light: Light? = nil, motion: LayerMotion = .none) {
        self.name = name
        self.distance = distance
        self.shapes = shapes
        self.light = light
        self.motion = motion
    }

    /// Whether the layer covers the whole frame opaquely (its first shape fills everywhere).
    var isOpaqueBackground: Bool {
        guard let first = shapes.first, case .everywhere = first.geometry else { return false }
        if case .image = first.fill { return false }
        return true
    }
}
