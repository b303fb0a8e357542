/// The `LuxCapture` module: capture devices, the session graph, photo, video and movie outputs.
public enum LuxCaptureModule {
    /// The module's version.
    public static let version = "0.1.0"
}
