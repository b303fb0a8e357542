import LuxColor
import LuxPixels
import LuxScene
import RealModule

/// Serialises frame production: one body at a time, first come first served (an ``AsyncTurnstile``).
///
/// The body runs on a thread of its own (``offloaded(_:)``), not on a cooperative-pool thread: rendering a frame
/// splits its rows with `concurrentPerform`, which libdispatch runs almost serially when it is called from a pool
/// thread on a 2-core machine (one thread did 88 % of a 12 MP still's work).
final class ProductionGate: Sendable {
    private let turnstile = AsyncTurnstile()

    func run<T: Sendable>(_ body: @escaping @Sendable () throws(CaptureError) -> T) async throws(CaptureError) -> T {
        await turnstile.wait(for: turnstile.reserve())
        defer { turnstile.release() }
        return try await offloaded(body)
    }
}

extension SimulatedCamera {
    public func nextFrame(_ configuration: StreamConfiguration) async throws(CaptureError) -> CaptureFrame {
        let frame = try await gate.run { () throws(CaptureError) in try self.produceFrame(configuration) }
        publish()
        return frame
    }

    func produceFrame(_ configuration: StreamConfiguration) throws(CaptureError) -> CaptureFrame {
        let speed =
            state.withLock { $0.smoothAutoFocus }
            ? self.configuration.lensSpeed.smooth : self.configuration.lensSpeed.normal
        let plan = state.withLock { $0.beginFrame(lensSpeed: speed) }
        let f = plan.format
        let (w, h) = try streamSize(format: f, configuration: configuration)
        var raw = try poolBuffer(format: .bayer14(sensor.cfaPattern), width: w, height: h)
        let binning = expose(
            plan: plan, width: w, height: h, regionOrigin: f.sensorRegionOrigin, regionSize: f.sensorRegionSize,
            seed: CounterRandom.hash(self.configuration.seed, UInt64(plan.index), 0xF0), into: &raw)
        let stats = FrameStatistics(raw: raw, blackLevel: sensor.blackLevel, whiteLevel: sensor.whiteLevel)
        let score = plan.measureFocus ? try measureFocus(plan) : nil
        var image: PixelBuffer? = nil
        if configuration.deliversProcessedFrames {
            var out = try poolBuffer(format: configuration.pixelFormat ?? f.pixelFormat, width: w, height: h)
            processor.process(raw: raw, gains: plan.gains, colorSpace: plan.colorSpace, into: &out, threads: threads)
            image = out
        }
        state.withLock {
            $0.endFrame(plan, statistics: stats, focusScore: score, sensor: sensor, calibration: calibration)
        }
        let metadata = makeMetadata(
            plan: plan, binning: binning, focusScore: score, offset: state.withLock { $0.offset })
        let slot = state.withLock { $0.slot(for: plan.duration) }
        let frame = CaptureFrame(
            index: plan.index, presentationTime: plan.time, duration: slot, image: image,
            raw: configuration.deliversRAW ? raw : nil, metadata: metadata)
        return frame
    }

    /// The size stream frames are read out at: the format's stream size or the configuration's output size.
    func streamSize(format f: DeviceFormat, configuration: StreamConfiguration) throws(CaptureError) -> (Int, Int) {
        guard let d = configuration.outputDimensions else { return (f.streamWidth, f.streamHeight) }
        let regionAspect = f.sensorRegionSize.x / f.sensorRegionSize.y
        let expectedHeight = Double(d.width) / regionAspect
        guard d.width >= 16, d.height >= 16, d.width <= f.width, d.height <= f.height,
            abs(Double(d.height) - expectedHeight) <= 1
        else {
            throw .unsupported(
                "output size \(d) with format \(f.width)×\(f.height) (needs 16…\(f.width) pixels wide with the sensor region's aspect ratio, \(d.width)×\(Int(expectedHeight.rounded())))"
            )
        }
        return (d.width, d.height)
    }

    /// Renders the scene for `plan` over a region of the sensor and reads it out into `raw`; returns the
    /// binning (photosites per output pixel).
    @discardableResult
    func expose(
        plan: FramePlan, width w: Int, height h: Int, regionOrigin: SIMD2<Double>, regionSize: SIMD2<Double>,
        seed: UInt64,
        into raw: inout PixelBuffer
    ) -> Double {
        let lens = sensor.lens
        var request = RenderRequest(
            width: w, height: h, exposureStart: plan.time.seconds, exposureDuration: plan.duration.seconds,
            response: sensor.response,
            optics: RenderRequest.Optics(
                lens: lens, focusDistance: lens.focusDistance(lensPosition: plan.lensPosition),
                sensorWidth: sensor.sensorWidth),
            flash: plan.flash)
        request.regionOrigin = regionOrigin
        request.regionSize = regionSize
        let exposure = radianceCache.exposure(of: plan.scene, sceneID: plan.sceneID, request: request, threads: threads)
        let sitesPerPixel = Double(sensor.width) * regionSize.x / Double(w)
        let binning = sitesPerPixel * sitesPerPixel
        let pattern = sensor.cfaPattern
        SensorReadout.readout(
            parameters: readoutParameters(plan: plan, binning: binning, seed: seed), into: &raw, threads: threads
        ) {
            rows, body in exposure.mosaicRows(rows, pattern: pattern, body: body)
        }
        return binning
    }

    func readoutParameters(plan: FramePlan, binning: Double, seed: UInt64) -> SensorReadout.Parameters {
        let t = plan.duration.seconds
        let n = sensor.lens.fNumber
        let range = Double(sensor.whiteLevel - sensor.blackLevel)
        let fullWell = sensor.fullWellCapacity * binning
        let g = sensor.gain(iso: plan.iso) * range / fullWell
        let read =
            ((sensor.readNoise * sensor.readNoise * binning) * g * g + sensor.postGainReadNoise
            * sensor.postGainReadNoise).squareRoot()
        return SensorReadout.Parameters(
            electronsPerUnit: Float(sensor.electronsPerExposureUnit * t / (n * n) * binning),
            darkElectrons: Float(sensor.darkCurrent * t * binning), fullWell: Float(fullWell),
            codesPerElectron: Float(g),
            readNoise: Float(read), blackLevel: Float(sensor.blackLevel), whiteLevel: Float(sensor.whiteLevel),
            pattern: sensor.cfaPattern, seed: seed)
    }

    /// The contrast score of the autofocus window, read at full sensor resolution (the AF statistics engine
    /// sees photosites, not the preview).
    func measureFocus(_ plan: FramePlan) throws(CaptureError) -> Double {
        let f = plan.format
        let size = SIMD2(0.12, 0.09)
        // Window centred on the point of interest (normalised to the format's region), kept inside the region.
        var origin = f.sensorRegionOrigin + plan.focusPoint * f.sensorRegionSize - size / 2
        origin = pointwiseMin(
            pointwiseMax(origin, f.sensorRegionOrigin), f.sensorRegionOrigin + f.sensorRegionSize - size)
        // Align to even photosites so the CFA phase is kept.
        let px = 1 / Double(sensor.width)
        origin = SIMD2((origin.x / px / 2).rounded(.down) * 2 * px, (origin.y / px / 2).rounded(.down) * 2 * px)
        let w = Int((size.x / px).rounded()) & ~1
        let h = Int((size.y / px).rounded()) & ~1
        var raw = PixelBuffer(width: w, height: h, format: .bayer14(sensor.cfaPattern))
        expose(
            plan: plan, width: w, height: h, regionOrigin: origin, regionSize: SIMD2(Double(w), Double(h)) * px,
            seed: CounterRandom.hash(configuration.seed, UInt64(plan.index), 0xAF), into: &raw)
        return FocusMeasure.tenengrad(raw: raw, blackLevel: sensor.blackLevel)
    }

    func poolBuffer(format: PixelFormat, width: Int, height: Int) throws(CaptureError) -> PixelBuffer {
        do {
            return try pool.buffer(format: format, width: width, height: height)
        } catch {
            throw CaptureError(error)
        }
    }

    func makeMetadata(plan: FramePlan, binning: Double, focusScore: Double?, offset: Float) -> FrameMetadata {
        let neutral = plan.gains.neutral
        let noise = sensor.noiseProfile(iso: plan.iso, binning: binning)
        return FrameMetadata(
            exposureDuration: plan.duration, iso: plan.iso, lensPosition: Float(plan.lensPosition),
            focusDistance: sensor.lens.focusDistance(lensPosition: plan.lensPosition), fNumber: sensor.lens.fNumber,
            focalLength: sensor.lens.focalLength, whiteBalanceGains: plan.gains, exposureTargetOffset: offset,
            exposureTargetBias: plan.bias, flashFired: plan.flash != nil, focusScore: focusScore,
            raw: RAWDescription(
                cfaPattern: sensor.cfaPattern, blackLevel: sensor.blackLevel, whiteLevel: sensor.whiteLevel,
                calibration: calibration, asShotNeutral: neutral,
                asShotWhite: calibration.chromaticity(ofCameraNeutral: neutral),
                noiseProfile: SIMD2(noise.scale, noise.offset), binning: binning.squareRoot(),
                cropMargin: RAWPacking.simulatedCropMargin))
    }

    // MARK: Stills

    public func captureStill(_ request: StillRequest) async throws(CaptureError) -> StillCapture {
        let still = try await gate.run { () throws(CaptureError) in try self.produceStill(request) }
        publish()
        return still
    }

    func produceStill(_ request: StillRequest) throws(CaptureError) -> StillCapture {
        var plan = state.withLock { s -> FramePlan in
            var p = s.beginFrame(lensSpeed: 0)
            p.measureFocus = false
            return p
        }
        let f = plan.format
        switch request.exposure {
        case .current: break
        case .manual(let duration, let iso):
            try validateExposure(duration: duration, iso: iso, format: f)
            plan.duration = duration
            plan.iso = iso
        case .auto(let bias):
            guard f.exposureTargetBiasRange.contains(bias) else {
                throw .outOfRange(
                    name: "exposure target bias", value: Double(bias),
                    range: Double(f.exposureTargetBiasRange.lowerBound)...Double(f.exposureTargetBiasRange.upperBound))
            }
            let metered: AutoExposure.Reading
            if let stored = state.withLock({ $0.metered }) {
                metered = stored
            } else {
                metered = try meterPreview(plan)
            }
            let product = try highlightProduct(plan, from: metered) * Double.exp2(Double(bias))
            var scratch = state.withLock { $0 }
            scratch.applyProduct(product, sensor: sensor)
            plan.duration = scratch.duration
            plan.iso = scratch.iso
        }
        if request.flash { plan.flash = state.withLock { $0.flash } }
        var raw = try poolBuffer(format: .bayer14(sensor.cfaPattern), width: f.width, height: f.height)
        let binning = expose(
            plan: plan, width: f.width, height: f.height, regionOrigin: f.sensorRegionOrigin,
            regionSize: f.sensorRegionSize,
            seed: CounterRandom.hash(configuration.seed, UInt64(plan.index), 0x57), into: &raw)
        var image: PixelBuffer? = nil
        if let pf = request.processedFormat, FusedDevelopment.supports(pf) {
            // A pooled buffer: reused memory, so no page faults or kernel zeroing of 12 MP of fresh pages.
            var out = try poolBuffer(format: pf, width: f.width, height: f.height)
            processor.process(raw: raw, gains: plan.gains, colorSpace: request.colorSpace, into: &out, threads: threads)
            image = out
        } else if let pf = request.processedFormat {
            image = processor.process(
                raw: raw, gains: plan.gains, pixelFormat: pf, colorSpace: request.colorSpace, threads: threads)
        }
        state.withLock { s in
            s.lastFrameTime = plan.time
            s.nextTime = plan.time + s.slot(for: plan.duration)
            s.nextIndex = plan.index + 1
        }
        let metadata = makeMetadata(plan: plan, binning: binning, focusScore: nil, offset: state.withLock { $0.offset })
        return StillCapture(presentationTime: plan.time, raw: raw, image: image, metadata: metadata)
    }

    /// Preview exposures the search for a bracket's base exposure may take.
    static let highlightMeteringFrames = 4

    /// The exposure product of an auto-exposure bracket's or exposure-fusion burst's 0 EV frame: where
    /// ``AutoExposure/highlightMeter(_:pointOfInterest:)`` reads 0 (within 1/12 EV), found from `reading`.
    ///
    /// The stream is exposed for the room and may clip a window; a clipped cell reads no brighter than the sensor's
    /// white, so a frame that clipped cannot say how much darker the highlight meter wants it. Preview-resolution
    /// exposures (the clock does not move) then close in on it, as a phone meters a bracket on short frames. Without
    /// clipping one reading suffices: a darker frame reads exactly that much less. The product found is kept with
    /// the stream's reading, so every frame of a bracket or burst starts from the same base.
    func highlightProduct(_ plan: FramePlan, from reading: AutoExposure.Reading) throws(CaptureError) -> Double {
        if let found = reading.highlightProduct { return found }
        var x = Double.log2(reading.product)
        var next = x - reading.highlights
        if reading.clippedFraction >= 0.001 || reading.highlights < 0 {
            // A bracket on log2(product): the reading is below 0 at `low`, above it at `high`.
            var low = -Double.infinity
            var high = Double.infinity
            var r = reading
            for _ in 0..<Self.highlightMeteringFrames {
                if r.highlights > 0 { high = min(high, x) } else { low = max(low, x) }
                if next <= low || next >= high, low.isFinite, high.isFinite { next = (low + high) / 2 }
                var p = plan
                var scratch = state.withLock { $0 }
                scratch.applyProduct(Double.exp2(next), sensor: sensor)
                p.duration = scratch.duration
                p.iso = scratch.iso
                r = try meterPreview(p)
                x = Double.log2(r.product)
                next = x - r.highlights
                if abs(r.highlights) < 1.0 / 12 { break }
            }
        }
        let product = Double.exp2(next)
        state.withLock { s in
            if s.metered?.frameIndex == reading.frameIndex { s.metered?.highlightProduct = product }
        }
        return product
    }

    /// Pre-capture metering: one preview-resolution exposure at the current settings (the clock does not move).
    func meterPreview(_ plan: FramePlan) throws(CaptureError) -> AutoExposure.Reading {
        let f = plan.format
        var raw = PixelBuffer(width: f.streamWidth, height: f.streamHeight, format: .bayer14(sensor.cfaPattern))
        expose(
            plan: plan, width: f.streamWidth, height: f.streamHeight, regionOrigin: f.sensorRegionOrigin,
            regionSize: f.sensorRegionSize, seed: CounterRandom.hash(configuration.seed, UInt64(plan.index), 0x3E),
            into: &raw)
        let stats = FrameStatistics(raw: raw, blackLevel: sensor.blackLevel, whiteLevel: sensor.whiteLevel)
        return AutoExposure.Reading(
            stats, pointOfInterest: plan.exposurePoint,
            product: plan.duration.seconds * Double(plan.iso / sensor.baseISO),
            frameIndex: plan.index)
    }

    func validateExposure(duration: MediaTime?, iso: Float?, format f: DeviceFormat) throws(CaptureError) {
        if let d = duration, d < f.minExposureDuration || d > f.maxExposureDuration {
            throw .outOfRange(
                name: "exposure duration", value: d.seconds,
                range: f.minExposureDuration.seconds...f.maxExposureDuration.seconds)
        }
        if let i = iso, i < f.minISO || i > f.maxISO || !i.isFinite {
            throw .outOfRange(name: "ISO", value: Double(i), range: Double(f.minISO)...Double(f.maxISO))
        }
    }
}
