public import FoundationEssentials
public import LuxPixels

/// One step of a photo capture request, in the documented order (the AVCapturePhotoCaptureDelegate callbacks).
///
/// Each request delivers, exactly once each and in this order: ``willBeginCapture(_:)``,
/// ``willCapturePhoto(_:)`` (the shutter moment), ``didCapturePhoto(_:)`` (the exposures are done), one
/// ``didFinishProcessingPhoto(_:)`` per delivered photo (processed, RAW, each bracket item), the Live Photo
/// movie events when a movie was asked for, and ``didFinishCapture(_:)``. Every event carries the same
/// ``ResolvedPhotoSettings``.
public enum PhotoCaptureEvent: Sendable, CustomStringConvertible {
    /// The output accepted the request and resolved its settings.
    case willBeginCapture(ResolvedPhotoSettings)
    /// The first exposure is about to start (play a shutter sound, flash the screen).
    case willCapturePhoto(ResolvedPhotoSettings)
    /// The last exposure ended; processing follows.
    case didCapturePhoto(ResolvedPhotoSettings)
    /// A photo is ready.
    case didFinishProcessingPhoto(CapturedPhoto)
    /// The Live Photo's movie has been recorded (the still's movie is complete on the device side).
    case didFinishRecordingLivePhotoMovie(ResolvedPhotoSettings, url: URL)
    /// The Live Photo's movie file is written.
    case didFinishProcessingLivePhotoMovie(
        ResolvedPhotoSettings, url: URL, duration: MediaTime, photoDisplayTime: MediaTime)
    /// The request is complete; nothing more will be delivered for it.
    case didFinishCapture(ResolvedPhotoSettings)

    /// The resolved settings the event carries.
    public var resolvedSettings: ResolvedPhotoSettings {
        switch self {
        case .willBeginCapture(let r), .willCapturePhoto(let r), .didCapturePhoto(let r), .didFinishCapture(let r): r
        case .didFinishProcessingPhoto(let p): p.resolvedSettings
        case .didFinishRecordingLivePhotoMovie(let r, _), .didFinishProcessingLivePhotoMovie(let r, _, _, _): r
        }
    }

    /// A short name for timelines ("willBeginCapture", …).
    public var name: String {
        switch self {
        case .willBeginCapture: "willBeginCapture"
        case .willCapturePhoto: "willCapturePhoto"
        case .didCapturePhoto: "didCapturePhoto"
        case .didFinishProcessingPhoto: "didFinishProcessingPhoto"
        case .didFinishRecordingLivePhotoMovie: "didFinishRecordingLivePhotoMovie"
        case .didFinishProcessingLivePhotoMovie: "didFinishProcessingLivePhotoMovie"
        case .didFinishCapture: "didFinishCapture"
        }
    }

    public var description: String {
        if case .didFinishProcessingPhoto(let p) = self { return "\(name)(\(p))" }
        return name
    }
}
