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

    /// Makes the idle session's next stream frame for the ring (while ``recordsLivePhotoRing``).
    ///
    /// The pre-roll shows the picture the shutter is pressed on: while exposure or focus is still moving (a scene
    /// change, a focus sweep) the frame is only metered and what the ring held is dropped. (White balance drifts in
    /// small steps, and some scenes keep it adjusting.)
    func recordRingFrame(pump: FramePump) async throws(CaptureError) {
        let status = pump.device.status
        guard !status.isAdjustingExposure, !status.isAdjustingFocus else {
            livePhotoRing.removeAll()
            _ = try await pump.meter()
            return
        }
        // The ring's frames are JPEGs whatever the movie's codec.
        let recorder = LivePhotoRecorder(pump: pump, ring: livePhotoRing, capabilities: capabilities)
        try await recorder.recordIntoRing()
    }
}
