/// A simulated world in front of the camera: scene-referred radiance with depth.
///
/// A scene is a stack of flat ``SceneLayer``s at known distances, painted with reflectances
/// (``SurfaceColor``) and lit by ``Light``s (illuminance in lux and a spectrum), plus the camera's motion and
/// a sound source. It is a value: rendering it never changes it, and everything random in it is seeded.
///
/// Scene units: the frame is 1 wide and 0.75 high (the 4:3 sensor), origin top-left, y down.
///
/// ```swift
/// var scene = Scene.stillLife()
/// scene.light = Light(.planckian(kelvin: 3000), lux: 200)
/// scene.cameraMotion = .handheld
/// ```
public struct Scene: Sendable {
    /// The scene's name ("chart", "still-life", …).
    public var name: String
    /// The layers, back to front.
    public var layers: [SceneLayer]
    /// The light on layers that do not name their own.
    public var light: Light
    /// The camera's motion (shake, pan).
    public var cameraMotion: CameraMotion
    /// What the microphone hears.
    public var sound: SoundSource

    /// The frame's height in scene units (the width is 1).
    public static let frameHeight = 0.75

    /// Creates a scene.
    public init(
        name: String, layers: [SceneLayer], light: Light, cameraMotion: CameraMotion = .tripod,
        sound: SoundSource = SoundSource()
    ) {
        self.name = name
        self.layers = layers
        self.light = light
        self.cameraMotion = cameraMotion
        self.sound = sound
    }

    /// The layer named `name`, if any.
    public func layer(named name: String) -> SceneLayer? { layers.first { $0.name == name } }

    /// The light on `layer`.
    public func light(for layer: SceneLayer) -> Light { layer.light ?? light }
}
