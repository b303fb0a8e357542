/// The `LuxScene` module: the simulated world the simulated camera looks at (light, optics, motion, sound).
public enum LuxSceneModule {
    /// The module's version.
    public static let version = "0.1.0"
}
