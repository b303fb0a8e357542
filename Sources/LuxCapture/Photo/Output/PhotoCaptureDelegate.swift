public import FoundationEssentials
public import LuxPixels

/// Receives the events of one photo capture request (AVCapturePhotoCaptureDelegate).
///
/// Every method has a default that does nothing, so implement only what you need. The output holds only a
/// weak reference to the delegate: keep it alive for as long as you want events (a delegate object per request,
/// released after ``photoOutput(_:didFinishCaptureFor:error:)``, is the pattern the seeds recommend). Methods
/// are called one at a time, in the order of ``PhotoCaptureEvent``, on a background task.
public protocol PhotoCaptureDelegate: AnyObject, Sendable {
    /// The output accepted the request and resolved its settings.
    func photoOutput(_ output: PhotoOutput, willBeginCaptureFor settings: ResolvedPhotoSettings)
    /// The first exposure is about to start.
    func photoOutput(_ output: PhotoOutput, willCapturePhotoFor settings: ResolvedPhotoSettings)
    /// The last exposure ended.
    func photoOutput(_ output: PhotoOutput, didCapturePhotoFor settings: ResolvedPhotoSettings)
    /// A photo is ready.
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturedPhoto)
    /// The Live Photo's movie has been recorded; its file at `url` follows.
    func photoOutput(
        _ output: PhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt url: URL,
        resolvedSettings: ResolvedPhotoSettings)
    /// The Live Photo's movie file is written: `duration` long, the still shown at `photoDisplayTime`.
    func photoOutput(
        _ output: PhotoOutput, didFinishProcessingLivePhotoToMovieFileAt url: URL, duration: MediaTime,
        photoDisplayTime: MediaTime, resolvedSettings: ResolvedPhotoSettings)
    /// The request is complete; `error` says why it failed, if it did.
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor settings: ResolvedPhotoSettings?, error: CaptureError?)
}

extension PhotoCaptureDelegate {
    public func photoOutput(_ output: PhotoOutput, willBeginCaptureFor settings: ResolvedPhotoSettings) {}
    public func photoOutput(_ output: PhotoOutput, willCapturePhotoFor settings: ResolvedPhotoSettings) {}
    public func photoOutput(_ output: PhotoOutput, didCapturePhotoFor settings: ResolvedPhotoSettings) {}
    public func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturedPhoto) {}
    public func photoOutput(
        _ output: PhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt url: URL,
        resolvedSettings: ResolvedPhotoSettings
    ) {}
    public func photoOutput(
        _ output: PhotoOutput, didFinishProcessingLivePhotoToMovieFileAt url: URL, duration: MediaTime,
        photoDisplayTime: MediaTime, resolvedSettings: ResolvedPhotoSettings
    ) {}
    public func photoOutput(
        _ output: PhotoOutput, didFinishCaptureFor settings: ResolvedPhotoSettings?, error: CaptureError?
    ) {}
}
