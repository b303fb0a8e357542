import LuxPixels

extension CaptureSession {
    /// Starts the flow of data: the camera streams, 3A settles on the first frames, outputs become active, and
    /// a pending ``PhotoOutput/prepare(_:)`` completes.
    ///
    /// Returns when data flows.
    ///
    /// - Throws: ``CaptureError/accessDenied(mediaType:reason:)`` when ``authorization`` does not grant the camera,
    ///   or another ``CaptureError`` when it cannot stream; either way the session stays stopped and a
    ///   ``SessionEvent/runtimeError(_:)`` is sent.
    public func startRunning() async throws(CaptureError) {
        let ticket = runLock.reserve()
        await runLock.wait(for: ticket)
        defer { runLock.release() }
        if isRunning { return }
        let camera = self.camera
        if let camera {
            do throws(CaptureError) {
                if case .denied(let reason) = authorization.authorizationStatus(for: camera) {
                    throw .accessDenied(mediaType: .video, reason: reason)
                }
                try await camera.startStreaming()
            } catch {
                eventBroadcaster.send(.runtimeError(error))
                throw error
            }
        }
        let pump = camera.map { FramePump(device: $0, session: self) }
        state.withLock { s in
            s.isRunning = true
            s.pump = pump
        }
        // Settle 3A on a few stream frames so the first capture meters a converged exposure.
        if let pump {
            do { try await pump.settle() } catch {
                if isRunning { await fail(with: error) }  // the pump may have reported it already
                throw error
            }
        }
        let monitor = Task { [weak self] in _ = await self?.monitorScene() } as Task<Void, Never>
        state.withLock { $0.monitor = monitor }
        for o in state.withLock({ $0.outputs }) { o.sessionRunningChanged(self, running: true) }
        logger.debug("session running")
        eventBroadcaster.send(.didStartRunning)
    }

    /// Stops the flow of data.
    ///
    /// Captures already accepted finish; new ones throw ``CaptureError/notRunning(_:)``.
    public func stopRunning() async {
        let ticket = runLock.reserve()
        await runLock.wait(for: ticket)
        defer { runLock.release() }
        await stop(sendEvent: true)
    }

    func stop(sendEvent: Bool) async {
        let (wasRunning, monitor, camera) = state.withLock { s -> (Bool, Task<Void, Never>?, (any CaptureDevice)?) in
            let was = s.isRunning
            s.isRunning = false
            s.interruption = nil
            s.pump = nil
            defer { s.monitor = nil }
            return (was, s.monitor, s.inputs.lazy.compactMap(\.camera).first)
        }
        guard wasRunning else { return }
        monitor?.cancel()
        await camera?.stopStreaming()
        for o in state.withLock({ $0.outputs }) { o.sessionRunningChanged(self, running: false) }
        logger.debug("session stopped")
        if sendEvent { eventBroadcaster.send(.didStopRunning) }
    }

    /// A device failed while running: report it and stop.
    func fail(with error: CaptureError) async {
        logger.error("runtime error: \(error)")
        eventBroadcaster.send(.runtimeError(error))
        await stop(sendEvent: true)
    }

    /// Reports a runtime error from outside the frame loop (a device that disappeared) and stops the session.
    public func reportRuntimeError(_ error: CaptureError) async {
        guard isRunning else { return }
        await fail(with: error)
    }

    /// Interrupts the running session (as a phone call or another app taking the camera would): outputs
    /// become inactive and captures throw until ``endInterruption()``.
    public func interrupt(reason: InterruptionReason) {
        let changed = state.withLock { s -> Bool in
            guard s.isRunning, s.interruption == nil else { return false }
            s.interruption = reason
            return true
        }
        if changed {
            logger.debug("session interrupted: \(reason.rawValue)")
            eventBroadcaster.send(.wasInterrupted(reason))
        }
    }

    /// Ends an interruption.
    public func endInterruption() {
        let changed = state.withLock { s -> Bool in
            guard s.interruption != nil else { return false }
            s.interruption = nil
            return true
        }
        if changed { eventBroadcaster.send(.interruptionEnded) }
    }

    /// While running: once per frame duration on the session's clock, when the photo output monitors the scene or
    /// keeps its Live Photo ring buffer filled, and no other consumer began a frame within a frame duration, make a
    /// stream frame, so ``PhotoOutput/isFlashScene`` follows the live scene (and the ring holds the last 1.5 s since
    /// exposure and focus last settled).
    ///
    /// Monitoring pauses while a capture request is in flight: the request meters its own frames, and every frame
    /// here is rendered on the processors that expose and develop the request (a phone's preview runs on its image
    /// signal processor instead); with monitoring beside it, `lux demo`'s first capture took more than twice as long. The flags
    /// follow the scene again at the turn after the request ends.
    ///
    /// Turns keep a deadline schedule, as a camera's frame clock does: each is due a frame duration after the
    /// previous one began, however long its frame took to make; a turn that is already due starts at once, without
    /// catching up on the turns it missed.
    func monitorScene() async {
        var turn = clock.now
        while !Task.isCancelled {
            let (pump, photo, interrupted) = state.withLock {
                ($0.pump, $0.outputs.lazy.compactMap { $0 as? PhotoOutput }.first, $0.interruption != nil)
            }
            guard let pump else { return }
            let period = pump.frameDuration
            // A frame begun less than three quarters of a period ago (another consumer's) stands in for this turn's.
            // Not a whole period: the monitor's own last frame began a wake-up's latency after its deadline, so at
            // this deadline it is that latency short of a period old, and every other turn would be skipped.
            if !interrupted, let photo, pump.timeSinceLastFrameStarted.map({ $0 >= period * 3 / 4 }) ?? true {
                do throws(CaptureError) {
                    if photo.recordsLivePhotoRing {
                        try await photo.recordRingFrame(pump: pump)
                    } else if photo.isMonitoringScene, photo.pendingCaptureCount == 0 {
                        _ = try await pump.meter()
                    }
                } catch {
                    if case .bufferPoolExhausted = error {
                    } else {
                        await fail(with: error)
                        return
                    }
                }
            }
            turn = max(turn.advanced(by: period), clock.now)
            try? await clock.sleep(until: turn)
        }
    }
}
