import LuxRender

/// The eight preset looks of ``Filters/PhotoEffect``.
public enum PhotoEffectStyles {
    /// Vivid: more saturation and contrast.
    public enum Chrome: PhotoEffectStyle {
        public static let name = "PhotoEffectChrome"
        public static let displayName = "Photo Effect Chrome"
        public static let summary = "A vivid look with strong colour and contrast."
        public static let look = PhotoLook(saturation: 1.3, contrast: 0.35)
    }

    /// Muted colours and lifted blacks.
    public enum Fade: PhotoEffectStyle {
        public static let name = "PhotoEffectFade"
        public static let displayName = "Photo Effect Fade"
        public static let summary = "A faded look: muted colours, lifted blacks."
        public static let look = PhotoLook(saturation: 0.75, contrast: -0.1, black: 0.12, white: 0.95)
    }

    /// Warm, slightly faded instant-film colours.
    public enum Instant: PhotoEffectStyle {
        public static let name = "PhotoEffectInstant"
        public static let displayName = "Photo Effect Instant"
        public static let summary = "A warm, slightly faded instant-film look."
        public static let look = PhotoLook(
            saturation: 0.85, tint: [1.06, 1.0, 0.88], contrast: 0.1, black: 0.08, white: 0.97)
    }

    /// Plain black and white.
    public enum Mono: PhotoEffectStyle {
        public static let name = "PhotoEffectMono"
        public static let displayName = "Photo Effect Mono"
        public static let summary = "Black and white."
        public static let look = PhotoLook(saturation: 0)
    }

    /// Dramatic, high-contrast black and white.
    public enum Noir: PhotoEffectStyle {
        public static let name = "PhotoEffectNoir"
        public static let displayName = "Photo Effect Noir"
        public static let summary = "High-contrast black and white."
        public static let look = PhotoLook(saturation: 0, contrast: 0.6)
    }

    /// A cool, contrasty cross-processed look.
    public enum Process: PhotoEffectStyle {
        public static let name = "PhotoEffectProcess"
        public static let displayName = "Photo Effect Process"
        public static let summary = "A cool, cross-processed look."
        public static let look = PhotoLook(saturation: 1.1, tint: [0.92, 1.03, 1.05], contrast: 0.3, black: 0.03)
    }

    /// Soft black and white.
    public enum Tonal: PhotoEffectStyle {
        public static let name = "PhotoEffectTonal"
        public static let displayName = "Photo Effect Tonal"
        public static let summary = "Soft black and white with gentle contrast."
        public static let look = PhotoLook(saturation: 0, contrast: 0.15, black: 0.04, white: 0.96)
    }

    /// Warm, saturated vintage colours.
    public enum Transfer: PhotoEffectStyle {
        public static let name = "PhotoEffectTransfer"
        public static let displayName = "Photo Effect Transfer"
        public static let summary = "A warm, saturated vintage look."
        public static let look = PhotoLook(
            saturation: 1.15, tint: [1.08, 1.0, 0.86], contrast: 0.25, black: 0.05, white: 0.98)
    }
}

extension Filters {
    /// Vivid colour and contrast (``PhotoEffectStyles/Chrome``).
    public typealias PhotoEffectChrome = PhotoEffect<PhotoEffectStyles.Chrome>
    /// Muted colours and lifted blacks (``PhotoEffectStyles/Fade``).
    public typealias PhotoEffectFade = PhotoEffect<PhotoEffectStyles.Fade>
    /// Warm instant film (``PhotoEffectStyles/Instant``).
    public typealias PhotoEffectInstant = PhotoEffect<PhotoEffectStyles.Instant>
    /// Black and white (``PhotoEffectStyles/Mono``).
    public typealias PhotoEffectMono = PhotoEffect<PhotoEffectStyles.Mono>
    /// High-contrast black and white (``PhotoEffectStyles/Noir``).
    public typealias PhotoEffectNoir = PhotoEffect<PhotoEffectStyles.Noir>
    /// Cross-processed (``PhotoEffectStyles/Process``).
    public typealias PhotoEffectProcess = PhotoEffect<PhotoEffectStyles.Process>
    /// Soft black and white (``PhotoEffectStyles/Tonal``).
    public typealias PhotoEffectTonal = PhotoEffect<PhotoEffectStyles.Tonal>
    /// Warm vintage (``PhotoEffectStyles/Transfer``).
    public typealias PhotoEffectTransfer = PhotoEffect<PhotoEffectStyles.Transfer>
}
