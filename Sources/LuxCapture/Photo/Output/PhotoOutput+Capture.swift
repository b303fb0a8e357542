import FoundationEssentials
import LuxPixels
import Synchronization

extension PhotoOutput {
    /// Captures a photo: checks `settings` now, then reports the request's events in order.
    ///
    /// The stream yields ``PhotoCaptureEvent/willBeginCapture(_:)`` … ``PhotoCaptureEvent/didFinishCapture(_:)``
    /// and then ends; it throws if the capture fails after it was accepted. The capture runs to completion even
    /// if nobody reads the stream. Cancelling the task that iterates the stream (or dropping the stream) cancels
    /// the capture: it stops at its next step with ``CaptureError/cancelled(_:)`` and returns its buffers.
    ///
    /// - Throws: ``CaptureError`` at once when the settings break a rule: reused settings, unsupported formats or
    ///   combinations (RAW without a photo format or with stabilisation, mixed or oversized brackets, a quality
    ///   prioritisation above ``maxPhotoQualityPrioritization``…), or a session that is not running.
    public func capturePhoto(_ settings: PhotoSettings) throws(CaptureError) -> AsyncThrowingStream<
        PhotoCaptureEvent, any Error
    > {
        let request = try accept(settings)
        let (stream, continuation) = AsyncThrowingStream<PhotoCaptureEvent, any Error>.makeStream()
        let task = Task {
            await self.run(request, emit: { continuation.yield($0) }, finish: { continuation.finish(throwing: $0) })
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }

    /// Captures a photo and reports its events to `delegate`, which the output does not retain.
    ///
    /// - Throws: ``CaptureError`` at once when the settings break a rule (see ``capturePhoto(_:)``).
    public func capturePhoto(_ settings: PhotoSettings, delegate: any PhotoCaptureDelegate) throws(CaptureError) {
        let request = try accept(settings)
        let box = DelegateBox(delegate)
        Task {
            var resolved: ResolvedPhotoSettings?
            await self.run(
                request,
                emit: { event in
                    resolved = event.resolvedSettings
                    guard let d = box.delegate else { return }
                    switch event {
                    case .willBeginCapture(let r): d.photoOutput(self, willBeginCaptureFor: r)
                    case .willCapturePhoto(let r): d.photoOutput(self, willCapturePhotoFor: r)
                    case .didCapturePhoto(let r): d.photoOutput(self, didCapturePhotoFor: r)
                    case .didFinishProcessingPhoto(let p): d.photoOutput(self, didFinishProcessingPhoto: p)
                    case .didFinishRecordingLivePhotoMovie(let r, let url):
                        d.photoOutput(self, didFinishRecordingLivePhotoMovieForEventualFileAt: url, resolvedSettings: r)
                    case .didFinishProcessingLivePhotoMovie(let r, let url, let duration, let time):
                        d.photoOutput(
                            self, didFinishProcessingLivePhotoToMovieFileAt: url, duration: duration,
                            photoDisplayTime: time, resolvedSettings: r)
                    case .didFinishCapture(let r): d.photoOutput(self, didFinishCaptureFor: r, error: nil)
                    }
                },
                finish: { error in
                    guard let error, let d = box.delegate else { return }
                    d.photoOutput(self, didFinishCaptureFor: resolved, error: error)
                })
        }
    }

    /// An accepted request.
    struct Request: Sendable {
        var settings: PhotoSettings
        var ticket: UInt64
        var capabilities: PhotoCapabilities
    }

    /// Checks a request and takes its place in line.
    func accept(_ settings: PhotoSettings) throws(CaptureError) -> Request {
        guard let session else { throw .notRunning("the photo output is not in a session") }
        guard session.isRunning else { throw .notRunning("the session is not running") }
        guard !session.isInterrupted else {
            throw .notRunning("the session is interrupted (\(session.interruptionReason?.rawValue ?? ""))")
        }
        guard let connection = connection(for: .video) else {
            throw .notRunning("the photo output has no camera connection")
        }
        guard connection.isEnabled else { throw .notRunning("the photo output's connection is disabled") }
        let caps = capabilities
        try PhotoSettingsValidation.validate(settings, capabilities: caps, limits: outputLimits)
        let fresh = state.withLock { $0.usedIDs.insert(settings.uniqueID).inserted }
        guard fresh else { throw .settingsReused(uniqueID: settings.uniqueID) }
        inFlight.add(1, ordering: .relaxed)
        return Request(settings: settings, ticket: exposureTurnstile.reserve(), capabilities: caps)
    }

    /// Runs an accepted request: waits for its turn, meters, resolves, exposes, then processes.
    func run(_ request: Request, emit: (PhotoCaptureEvent) -> Void, finish: (CaptureError?) -> Void) async {
        let error = await perform(request, emit: emit)
        // Everything is released before the requester hears the end.
        inFlight.subtract(1, ordering: .relaxed)
        finish(error)
    }

    func perform(_ request: Request, emit: (PhotoCaptureEvent) -> Void) async -> CaptureError? {
        await exposureTurnstile.wait(for: request.ticket)
        var holdsTurn = true
        var budget = 0
        defer {
            if holdsTurn { exposureTurnstile.release() }
            if budget > 0 { frameBudget.release(budget) }
        }
        /// Stops between steps once the requester's task is cancelled.
        func checkCancellation() throws(CaptureError) {
            if Task.isCancelled { throw .cancelled("the capture's task was cancelled") }
        }
        do {
            try checkCancellation()
            guard let session, session.isRunning, !session.isInterrupted, let pump = session.pump else {
                throw CaptureError.notRunning("the session stopped before the capture started")
            }
            let settings = request.settings
            let caps = capabilities
            // The processing time the cost model learns from runs on the session's clock, from the turn to the end.
            let start = session.clock.now
            // A light that changed since the last stream frame: exposure and white balance follow it first, as a
            // phone's pre-capture sequence waits for 3A to converge (at most a bounded number of frames).
            if !pump.isSettled { try await pump.settle(minimumFrames: 0) }
            // Pre-capture metering: the stream's last frame when it is fresh (video running, scene monitored),
            // else a new one.
            let metering = try await pump.freshMetering()
            let flash = QualityPlanner.flashFires(
                settings.flashMode, metering: metering, isBracket: settings.bracket != nil)
            let plan = QualityPlanner.plan(settings, capabilities: caps, metering: metering, flash: flash)
            let resolved = resolve(settings, capabilities: caps, processing: plan, flash: flash)
            budget = min(plan.frameCount * max(settings.bracket?.count ?? 1, 1), frameBudget.capacity)
            await frameBudget.acquire(budget)
            try checkCancellation()
            emit(.willBeginCapture(resolved))
            // A Live Photo: the ring buffer holds the pre-roll when the shutter fires.
            let live = settings.livePhotoMovieURL.map { _ in
                LivePhotoRecorder(
                    pump: pump, ring: livePhotoRing, capabilities: caps, codec: settings.livePhotoVideoCodec)
            }
            let identifier = live == nil ? nil : UUID().uuidString.uppercased()
            if let live, !isLivePhotoCaptureSuspended { try await live.fillPreRoll() }
            emit(.willCapturePhoto(resolved))
            // A bracket or a burst of stills is exposed for seconds before any of it is developed: meanwhile the
            // output's idle buffers give their pages back (unless another request waits); developing writes them again.
            let mergesStills = plan.frameCount > 1 && !plan.usesStreamFrames
            if settings.bracket != nil || mergesStills, isAlone { pool.releaseIdleMemory() }
            let job = PhotoJob(
                output: self, settings: settings, resolved: resolved, capabilities: caps, pump: pump,
                camera: pump.device, livePhotoContentIdentifier: identifier)
            var exposures = try await job.expose()
            try checkCancellation()
            emit(.didCapturePhoto(resolved))
            let stillTime = exposures.first?.first?.presentationTime ?? .zero
            let preRoll = live == nil ? [] : livePhotoRing.contents.filter { $0.time < stillTime }
            /// Lets the next request expose.
            func passTurn() {
                guard holdsTurn else { return }
                exposureTurnstile.release()
                holdsTurn = false
            }
            // A Live Photo's post-roll is recorded while its still is processed, as a phone delivers the photo while
            // the movie still records; the turn passes on once the post-roll is recorded (at once without one). A
            // post-roll error surfaces once the stills are delivered.
            async let postRoll = live?.recordPostRoll(after: stillTime) { [weak self] in
                self?.isLivePhotoCaptureSuspended ?? true
            }
            if live == nil { passTurn() }
            // A burst of stills merges for seconds after its last exposure.
            if mergesStills { releaseStillMemory(device: pump.device) }
            var delivered = 0
            for item in exposures.indices {
                try checkCancellation()
                let first = delivered + 1
                // The processing takes the item's frames: a merged burst lets them go before it is developed.
                let frames = ExposedFrames(exposures[item])
                exposures[item] = []
                let photos = try await offloaded { () throws(CaptureError) in
                    try job.process(frames, item: item, firstPhotoCount: first)
                }
                for photo in photos {
                    delivered += 1
                    emit(.didFinishProcessingPhoto(photo))
                }
            }
            exposures = []
            let postRollFrames = try await postRoll ?? []
            passTurn()
            var movieFrames = preRoll + postRollFrames
            if let live, let url = settings.livePhotoMovieURL, let identifier {
                try checkCancellation()
                emit(.didFinishRecordingLivePhotoMovie(resolved, url: url))
                // The still is delivered: its buffers and its view of the scene are idle while the movie is encoded.
                releaseStillMemory(device: pump.device)
                let frames = movieFrames
                movieFrames = []
                let (trim, stabilize) = state.withLock {
                    ($0.isLivePhotoAutoTrimmingEnabled, $0.isLivePhotoStabilizationEnabled)
                }
                let microphone = resolved.livePhotoMovieHasAudio ? session.microphone : nil
                let renderer = renderContext
                let metadata = settings.livePhotoMovieMetadata
                let movie = try await offloaded { () throws(CaptureError) in
                    try live.write(
                        frames, stillTime: stillTime, to: url, identifier: identifier, metadata: metadata,
                        microphone: microphone, autoTrim: trim, stabilize: stabilize, renderer: renderer)
                }
                emit(
                    .didFinishProcessingLivePhotoMovie(
                        resolved, url: url, duration: movie.duration, photoDisplayTime: movie.photoTime))
            }
            let elapsed = start.duration(to: session.clock.now)
            costModel.record(resolved, settings: settings, seconds: Self.seconds(elapsed))
            emit(.didFinishCapture(resolved))
            return nil
        } catch let error as CaptureError {
            return error
        } catch {
            return .processing("\(error)")
        }
    }

    /// Lets the memory of full-size stills go back to the system while a request's long processing runs (a merged
    /// burst, a Live Photo's movie), unless another request is waiting: idle pooled buffers, the output's and the
    /// device's, keep their place but not their pages (a buffer used again is zeroed by the kernel as it is
    /// written), and the device forgets its view of the scene at still size (the next still renders it again).
    func releaseStillMemory(device: any CaptureDevice) {
        guard isAlone else { return }
        pool.releaseIdleMemory()
        (device as? any SensorPipelineDevice)?.releaseStillMemory()
    }

    /// Whether the request in hand is the only one in flight (memory given back now is not what another needs).
    private var isAlone: Bool { inFlight.load(ordering: .relaxed) == 1 }

    /// What the output's own settings allow.
    var outputLimits: PhotoSettingsValidation.OutputLimits {
        state.withLock {
            PhotoSettingsValidation.OutputLimits(
                isHighResolutionCaptureEnabled: $0.isHighResolutionCaptureEnabled,
                isLivePhotoCaptureEnabled: $0.isLivePhotoCaptureEnabled,
                maxPhotoQualityPrioritization: $0.maxPhotoQualityPrioritization)
        }
    }

    /// The resolved settings of a request with the chosen processing.
    func resolve(_ s: PhotoSettings, capabilities c: PhotoCapabilities, processing: PhotoProcessing, flash: Bool)
        -> ResolvedPhotoSettings
    {
        let photo: PixelDimensions =
            !s.wantsProcessed
            ? .zero
            : processing.usesStreamFrames
                ? c.standardDimensions
                : s.isHighResolutionPhotoEnabled ? c.highResolutionDimensions : c.standardDimensions
        let raw = s.wantsRAW ? c.rawDimensions : .zero
        var preview = PixelDimensions.zero
        if let p = s.previewFormat {
            let base = photo != .zero ? photo : raw
            let box =
                p.dimensions
                ?? PixelDimensions(width: PreviewFormat.defaultLongSide, height: PreviewFormat.defaultLongSide)
            preview = base.fitting(in: box)
            if preview.width > base.width || preview.height > base.height { preview = base }
        }
        var r = ResolvedPhotoSettings(
            uniqueID: s.uniqueID, photoDimensions: photo, rawPhotoDimensions: raw, previewDimensions: preview,
            isFlashEnabled: flash,
            isStillImageStabilizationEnabled: processing.method == .fastMerge || processing.method == .fullMerge,
            expectedPhotoCount: s.expectedPhotoCount, photoProcessingTimeRange: .zero ... .zero,
            qualityPrioritization: s.qualityPrioritization, processing: processing, colorSpace: c.colorSpace,
            bracket: s.bracket,
            livePhotoMovieDimensions: s.livePhotoMovieURL == nil ? .zero : c.livePhotoMovieDimensions)
        r.livePhotoMovieHasAudio = s.livePhotoMovieURL != nil && session?.microphone != nil
        if let f = c.format { r.meteringMegapixels = Double(f.streamWidth * f.streamHeight) / 1e6 }
        r.photoProcessingTimeRange = costModel.range(r, settings: s)
        return r
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

/// Holds a capture delegate weakly (seed 000: the output keeps only a weak reference).
final class DelegateBox: @unchecked Sendable {  // `delegate` is written once, in init
    weak var delegate: (any PhotoCaptureDelegate)?

    init(_ delegate: any PhotoCaptureDelegate) { self.delegate = delegate }
}
