/// `lux capture --json`: the camera, and for each request its resolved settings, events and files.
///
/// Keys without a value are left out; the keys are documented in `lux capture --help`.
struct CaptureReport: Codable, Sendable {
    /// The camera's name, such as "Simulated Camera".
    var camera: String
    /// The active format, as printed by the text output.
    var format: String
    /// "sRGB" or "P3_D65".
    var colorSpace: String
    var scene: String
    /// The scene's light, such as "D65 2000 lx".
    var light: String
    var requests: [Request]

    struct Request: Codable, Sendable {
        var uniqueID: Int64
        /// Resolved processed-photo size (0 × 0 for RAW only).
        var photoWidth: Int
        var photoHeight: Int
        var rawPhotoWidth: Int
        var rawPhotoHeight: Int
        var expectedPhotoCount: Int
        /// "speed", "balanced" or "quality".
        var qualityPrioritization: String
        /// The processing chosen for the request (method and frame count), as text.
        var processing: String
        var isFlashEnabled: Bool
        /// The expected processing time range in milliseconds.
        var expectedMilliseconds: [Double]
        /// Every event in order, with its time since the request in milliseconds.
        var events: [Event]
        var photos: [Photo]
        var livePhotoMovie: Movie?
    }

    struct Event: Codable, Sendable {
        var name: String
        var milliseconds: Double
    }

    struct Photo: Codable, Sendable {
        var file: String
        var bytes: Int
        var isRaw: Bool
        /// 1-based index of the photo within the request (brackets have several).
        var photoCount: Int
    }

    struct Movie: Codable, Sendable {
        var file: String
        /// Seconds.
        var duration: Double
        /// The still's time in the movie, in seconds.
        var photoTime: Double
    }
}
