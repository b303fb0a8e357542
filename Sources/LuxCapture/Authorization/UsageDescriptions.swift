/// Why the app captures, shown to the user when it asks for access (the Info.plist keys of seed 001:
/// `NSCameraUsageDescription`, `NSMicrophoneUsageDescription`, `NSPhotoLibraryUsageDescription`).
///
/// ```swift
/// let descriptions = UsageDescriptions(camera: "to take photos and video", microphone: "to record Live Photos and movies")
/// let access = CaptureAuthorization(usageDescriptions: descriptions)
/// guard try await access.requestAccess(for: .video) else { … }
/// ```
public struct UsageDescriptions: Hashable, Sendable, Codable {
    /// Why the camera is used (`NSCameraUsageDescription`).
    public var camera: String?
    /// Why the microphone is used (`NSMicrophoneUsageDescription`).
    public var microphone: String?
    /// Why photos are saved to the library (`NSPhotoLibraryUsageDescription`).
    public var photoLibrary: String?

    /// Creates descriptions.
    public init(camera: String? = nil, microphone: String? = nil, photoLibrary: String? = nil) {
        self.camera = camera
        self.microphone = microphone
        self.photoLibrary = photoLibrary
    }

    /// Reads descriptions from an Info.plist-style dictionary.
    public init(infoDictionary: [String: String]) {
        camera = infoDictionary[Self.key(for: .video)]
        microphone = infoDictionary[Self.key(for: .audio)]
        photoLibrary = infoDictionary["NSPhotoLibraryUsageDescription"]
    }

    /// The Info.plist key of a media type's description.
    public static func key(for mediaType: MediaType) -> String {
        switch mediaType {
        case .video: "NSCameraUsageDescription"
        case .audio: "NSMicrophoneUsageDescription"
        }
    }

    /// The description for a media type, when it is not empty.
    public func description(for mediaType: MediaType) -> String? {
        let text = mediaType == .video ? camera : microphone
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }
}
