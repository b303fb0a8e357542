import LuxPixels

/// The prepared settings and the `prepare` call waiting to complete.
struct PreparationState {
    /// The settings prepared for (default: one default `PhotoSettings`).
    ///
    /// Persists across start/stop and configuration changes.
    var prepared: [PhotoSettings]? = nil
    /// Identifies the latest `prepare` call.
    var generation: UInt64 = 0
    /// The latest call's continuation, until its resources are ready.
    var waiter: (generation: UInt64, continuation: CheckedContinuation<Void, any Error>)?
    /// The pool keys the prepared settings use (output pool and device pool).
    var outputKeys: Set<BufferPool.Key> = []
    var deviceKeys: Set<BufferPool.Key> = []
}

extension PhotoOutput {
    /// The settings resources are prepared for (`[PhotoSettings()]` until ``prepare(_:)`` is called).
    public var preparedPhotoSettings: [PhotoSettings] {
        state.withLock { $0.preparation.prepared ?? [PhotoSettings.defaultPrepared] }
    }

    /// Prepares the buffers (RAW frames, merge and noise-reduction scratch, developed photos, previews) for
    /// exactly the kinds of capture in `settings`, and frees what other kinds used — including buffers of a kept
    /// kind beyond what `settings` need, such as the frames of a longer burst; an empty array frees everything
    /// (seed 001, "Resource Preparation and Reclamation").
    ///
    /// The preparation persists across ``CaptureSession/startRunning()``/``CaptureSession/stopRunning()`` and
    /// configuration changes, takes part in ``CaptureSession/beginConfiguration()``'s deferred work (it is
    /// applied at the commit), and completes only once the session runs. A second call cancels the first,
    /// which then throws ``CaptureError/cancelled(_:)``. Capturing a kind that was not prepared still works; it
    /// pays for the allocation.
    ///
    /// - Throws: ``CaptureError/cancelled(_:)`` when a newer call replaced this one; the validation errors of
    ///   ``capturePhoto(_:)`` when a settings value cannot be captured with the session's configuration.
    public func prepare(_ settings: [PhotoSettings]) async throws(CaptureError) {
        do {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                let previous = state.withLock { s -> CheckedContinuation<Void, any Error>? in
                    s.preparation.generation += 1
                    s.preparation.prepared = settings
                    let old = s.preparation.waiter?.continuation
                    s.preparation.waiter = (s.preparation.generation, c)
                    return old
                }
                previous?.resume(throwing: CaptureError.cancelled("a newer prepare(_:) call replaced this one"))
                completePreparationIfReady()
            }
        } catch let error as CaptureError {
            throw error
        } catch {
            throw .processing("\(error)")
        }
    }

    func preparationConfigurationCommitted() { completePreparationIfReady() }

    func preparationSessionStarted() {
        // The default preparation (one default PhotoSettings) when the app never called prepare(_:).
        let never = state.withLock {
            $0.preparation.prepared == nil && $0.preparation.waiter == nil && $0.preparation.outputKeys.isEmpty
        }
        if never { try? allocate(for: [PhotoSettings.defaultPrepared]) }
        completePreparationIfReady()
    }

    /// Allocates and reclaims for the prepared settings when the session runs outside a configuration block,
    /// then completes the waiting call.
    func completePreparationIfReady() {
        guard let session, session.isRunning, session.state.withLock({ $0.configurationDepth == 0 }) else { return }
        guard
            let (generation, settings) = state.withLock({ s -> (UInt64, [PhotoSettings])? in
                guard let w = s.preparation.waiter else { return nil }
                return (w.generation, s.preparation.prepared ?? [PhotoSettings.defaultPrepared])
            })
        else { return }
        let result: Result<Void, CaptureError>
        do {
            try allocate(for: settings)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        let waiter = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard let w = s.preparation.waiter, w.generation == generation else { return nil }
            s.preparation.waiter = nil
            return w.continuation
        }
        switch result {
        case .success: waiter?.resume()
        case .failure(let e): waiter?.resume(throwing: e)
        }
    }

    /// The buffers a kind of capture uses: (output pool keys with counts, device pool keys with counts).
    func resourceKeys(for settings: PhotoSettings, capabilities c: PhotoCapabilities) throws(CaptureError)
        -> (output: [BufferPool.Key: Int], device: [BufferPool.Key: Int])
    {
        try PhotoSettingsValidation.validate(settings, capabilities: c, limits: outputLimits)
        guard let format = c.format else { return ([:], [:]) }
        // Plan for the longest burst the level can take (a low-light scene).
        let dark = SceneMetering(ev100: 0, clippedFraction: 0, shadowFraction: 0, frameIndex: 0)
        let plan = QualityPlanner.plan(settings, capabilities: c, metering: dark, flash: false)
        let r = resolve(settings, capabilities: c, processing: plan, flash: false)
        var out: [BufferPool.Key: Int] = [:]
        var dev: [BufferPool.Key: Int] = [:]
        let pattern = c.cfaPattern
        let frames = plan.method == .bracket ? (settings.bracket?.count ?? 1) : plan.frameCount
        let sensor =
            plan.usesStreamFrames
            ? PixelDimensions(width: format.streamWidth, height: format.streamHeight)
            : PixelDimensions(width: format.width, height: format.height)
        if c.developsRAW {
            dev[.init(format: .bayer14(pattern), width: sensor.width, height: sensor.height)] = frames
        }
        if settings.wantsProcessed {
            if !c.developsRAW {
                // The camera's own processed frames: no development buffers.
            } else if plan.frameCount > 1 {
                out[.init(format: .bayer16(pattern), width: sensor.width, height: sensor.height), default: 0] += 1
            } else {
                out[.init(format: .bayer14(pattern), width: sensor.width, height: sensor.height), default: 0] += 1
            }
            out[.init(format: .rgba8, width: r.photoDimensions.width, height: r.photoDimensions.height), default: 0] +=
                1
            if case .pixelFormat(let pf)? = settings.processedFormat, pf != .rgba8 {
                out[.init(format: pf, width: r.photoDimensions.width, height: r.photoDimensions.height), default: 0] +=
                    1
            }
        }
        if settings.wantsRAW, let raw = c.deviceRAWFormat {
            out[
                .init(format: raw, width: r.rawPhotoDimensions.width, height: r.rawPhotoDimensions.height),
                default: 0] += 1
        }
        if let p = settings.previewFormat {
            out[
                .init(format: .rgba8, width: r.previewDimensions.width, height: r.previewDimensions.height), default: 0] +=
                1
            if p.pixelFormat != .rgba8 {
                out[
                    .init(format: p.pixelFormat, width: r.previewDimensions.width, height: r.previewDimensions.height),
                    default: 0] += 1
            }
        }
        return (out, dev)
    }

    /// Preallocates the buffers of `settings` and frees the idle buffers of kinds no longer prepared, and those of
    /// kept kinds beyond their count.
    func allocate(for settings: [PhotoSettings]) throws(CaptureError) {
        let c = capabilities
        var out: [BufferPool.Key: Int] = [:]
        var dev: [BufferPool.Key: Int] = [:]
        for s in settings {
            let (o, d) = try resourceKeys(for: s, capabilities: c)
            out.merge(o) { max($0, $1) }
            dev.merge(d) { max($0, $1) }
        }
        pool.reclaim(keeping: Set(out.keys))
        for (key, count) in out {
            do {
                try pool.setCapacity(
                    max(pool.defaultCapacity, count), format: key.format, width: key.width, height: key.height)
                try pool.preallocate(
                    format: key.format, width: key.width, height: key.height, count: min(count, pool.defaultCapacity))
                pool.reclaim(beyond: count, format: key.format, width: key.width, height: key.height)
            } catch {
                throw CaptureError(error)
            }
        }
        if let sim = camera as? any SensorPipelineDevice {
            let previous = state.withLock { $0.preparation.deviceKeys }
            let stale = previous.subtracting(dev.keys)
            sim.pool.reclaim(keeping: Set(sim.pool.keys).subtracting(stale))
            for (key, count) in dev {
                do {
                    let cap = PhotoOutput.frameBudgetCapacity + 2
                    try sim.pool.raiseCapacity(toAtLeast: cap, format: key.format, width: key.width, height: key.height)
                    try sim.pool.preallocate(
                        format: key.format, width: key.width, height: key.height, count: min(count, cap))
                    sim.pool.reclaim(beyond: min(count, cap), format: key.format, width: key.width, height: key.height)
                } catch {
                    throw CaptureError(error)
                }
            }
        }
        state.withLock { s in
            s.preparation.outputKeys = Set(out.keys)
            s.preparation.deviceKeys = Set(dev.keys)
        }
    }

    /// Bytes of idle and in-use buffers the output holds in its own pool.
    public var preparedByteCount: Int { pool.allocatedBytes }
}

extension PhotoSettings {
    /// The default prepared settings (a fixed value, so it is not a new ID each time it is read).
    static let defaultPrepared = PhotoSettings()
}
