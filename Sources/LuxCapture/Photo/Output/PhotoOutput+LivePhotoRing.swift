extension PhotoOutput {
    /// Whether the stream frames the session makes while the output idles go to the Live Photo ring buffer, so that it
    /// holds the pre-roll when the shutter is pressed (as a phone's does whenever Live Photo capture is on).
    ///
    /// That is when Live Photo capture is enabled and not suspended, every kind of capture ``prepare(_:)`` was given
    /// is a Live Photo (the next capture will be one), and no request is in flight (a request records its own
    /// frames; its processing has the processors to itself). With other kinds prepared, a Live Photo records its
    /// pre-roll when its shutter is pressed instead: a movie frame costs about three stream frames of work, too
    /// much to pay for every frame of a session that may never take one.
    var recordsLivePhotoRing: Bool {
        guard inFlight.load(ordering: .relaxed) == 0 else { return false }
        return state.withLock { s in
            guard s.isLivePhotoCaptureEnabled, !s.isLivePhotoCaptureSuspended, let prepared = s.preparation.prepared
            else { return false }
            return !prepared.isEmpty && prepared.allSatisfy { $0.livePhotoMovieURL != nil }
        }
    }

    /// A recorder of ring-buffer frames at the output's Live Photo movie size and colour space.
    func ringRecorder(pump: FramePump) -> LivePhotoRecorder {
        let c = capabilities
        return LivePhotoRecorder(
            pump: pump, ring: livePhotoRing, dimensions: c.livePhotoMovieDimensions, colorSpace: c.colorSpace,
            codec: .h264)
    }
}
