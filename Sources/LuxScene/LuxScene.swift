/// The `LuxScene` module (see ../shared/DESIGN.md for its role).
///
/// Its types arrive with the issue that owns it.
public enum LuxSceneModule {
    /// The module's version.
    public static let version = "0.1.0"
}
