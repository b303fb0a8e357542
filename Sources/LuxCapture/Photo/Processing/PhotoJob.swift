import LuxCodecs
import LuxPixels

/// One accepted request's exposures and processing.
struct PhotoJob: Sendable {
    let output: PhotoOutput
    let settings: PhotoSettings
    let resolved: ResolvedPhotoSettings
    let capabilities: PhotoCapabilities
    let pump: FramePump
    let camera: any CaptureDevice
    /// The Live Photo's content identifier, written into the processed photo's Apple maker note.
    var livePhotoContentIdentifier: String? = nil

    var threads: Int { Parallel.defaultThreadCount }

    // MARK: Exposure

    /// Takes the exposures: one list of frames per delivered item (one item, or one per bracket entry).
    func expose() async throws(CaptureError) -> [[RawFrame]] {
        let p = resolved.processing
        if let bracket = settings.bracket {
            try reserveStillBuffers()
            var items: [[RawFrame]] = []
            for entry in bracket {
                let exposure: StillRequest.Exposure =
                    switch entry {
                    case .auto(let bias): .auto(bias: bias)
                    case .manual(let duration, let iso): .manual(duration: duration, iso: iso)
                    }
                items.append([try await still(StillRequest(exposure: exposure))])
            }
            return items
        }
        if p.usesStreamFrames {
            let sensorDevice = camera as? any SensorPipelineDevice
            if let sensorDevice {
                let f = sensorDevice.activeFormat
                try? sensorDevice.pool.raiseCapacity(
                    toAtLeast: PhotoOutput.frameBudgetCapacity + 8, format: .bayer14(sensorDevice.sensor.cfaPattern),
                    width: f.streamWidth,
                    height: f.streamHeight)
            }
            // A camera the output does not develop delivers its processed image (and its Bayer data, if any).
            let processed = sensorDevice == nil
            let frames = try await pump.streamFrames(p.frameCount, processed: processed)
            return [
                frames.compactMap { f in
                    (f.raw ?? (processed ? f.image : nil)).map {
                        RawFrame(
                            pixels: $0, blackLevel: Double(f.metadata.raw.blackLevel),
                            whiteLevel: Double(f.metadata.raw.whiteLevel), metadata: f.metadata,
                            presentationTime: f.presentationTime, image: processed ? f.image : nil)
                    }
                }
            ]
        }
        try reserveStillBuffers()
        // High-dynamic-range scenes: the burst is under-exposed to keep the highlights (HDR+), and exposure fusion
        // brings the shadows back.
        let exposure: StillRequest.Exposure =
            p.usesExposureFusion ? .auto(bias: QualityPlanner.exposureFusionBias(p)) : .current
        var frames: [RawFrame] = []
        for _ in 0..<p.frameCount {
            frames.append(try await still(StillRequest(exposure: exposure, flash: resolved.isFlashEnabled)))
        }
        return [frames]
    }

    /// Takes one still and teaches the cost model the exposure rate (timed on the session's clock).
    func still(_ request: StillRequest) async throws(CaptureError) -> RawFrame {
        let start = pump.clock.now
        let s = try await camera.captureStill(request)
        output.costModel.observe(
            .exposure, seconds: PhotoOutput.seconds(start.duration(to: pump.clock.now)),
            megapixels: Double(s.raw.width * s.raw.height) / 1e6)
        return Self.frame(s)
    }

    static func frame(_ s: StillCapture) -> RawFrame {
        RawFrame(
            pixels: s.raw, blackLevel: Double(s.metadata.raw.blackLevel), whiteLevel: Double(s.metadata.raw.whiteLevel),
            metadata: s.metadata, presentationTime: s.presentationTime)
    }

    /// Lets the device pool hold every frame the output may have in flight.
    func reserveStillBuffers() throws(CaptureError) {
        guard let sim = camera as? any SensorPipelineDevice else {
            throw .unsupported("\(camera.localizedName) takes photos from its stream frames only, not separate stills")
        }
        let f = sim.activeFormat
        try? sim.pool.raiseCapacity(
            toAtLeast: PhotoOutput.frameBudgetCapacity + 2, format: .bayer14(sim.sensor.cfaPattern), width: f.width,
            height: f.height)
    }

    // MARK: Processing

    /// Runs a stage and teaches the cost model its rate (timed on the session's clock).
    func measure<T, E: Error>(_ stage: ProcessingCostModel.Stage, megapixels: Double, _ body: () throws(E) -> T)
        throws(E) -> T
    {
        let start = pump.clock.now
        let result = try body()
        output.costModel.observe(
            stage, seconds: PhotoOutput.seconds(start.duration(to: pump.clock.now)), megapixels: megapixels)
        return result
    }

    /// The photos of one item: the processed photo, then the RAW photo (as the settings ask).
    ///
    /// The item's frames are taken from `exposed`; a burst's frames are let go as soon as they are merged.
    func process(_ exposed: ExposedFrames, item: Int, firstPhotoCount: Int) throws(CaptureError) -> [CapturedPhoto] {
        var frames = exposed.take()
        guard !frames.isEmpty else { throw .processing("no frames were exposed") }
        // What the photos take from the first frame; its mosaic is kept only for the RAW photo.
        let referenceMetadata = frames[0].metadata
        let referenceTime = frames[0].presentationTime
        let rawReference = settings.wantsRAW ? frames[0] : nil
        let frameCount = frames.count
        let pool = output.pool
        // Without a sensor pipeline, photos are the camera's processed frames.
        let developer = (camera as? any SensorPipelineDevice).map {
            PhotoDeveloper(camera: $0, context: output.renderContext)
        }
        let method = resolved.processing.method
        let bracketItem = settings.bracket?[item]
        var photos: [CapturedPhoto] = []
        var preview: PixelBuffer?
        func exif(_ dims: PixelDimensions, frameCount: Int) -> EXIF {
            var e = PhotoMetadata.exif(
                referenceMetadata, dimensions: dims, flashMode: settings.flashMode,
                flashFired: referenceMetadata.flashFired, hasFlash: capabilities.hasFlash, bracket: bracketItem,
                frameCount: frameCount)
            if let id = livePhotoContentIdentifier {
                var note = e.appleMakerNote ?? AppleMakerNote(contentIdentifier: nil)
                note.contentIdentifier = id
                e.appleMakerNote = note
            }
            return e
        }
        if let format = settings.processedFormat {
            let developed: PixelBuffer
            let mp = Double(frames[0].pixels.width * frames[0].pixels.height) / 1e6
            if let developer {
                developed = try develop(&frames, with: developer, megapixels: mp)
            } else {
                developed = try measure(.develop, megapixels: mp) { () throws(CaptureError) in
                    try PhotoDeveloper.deviceProcessed(
                        frames[0], size: resolved.photoDimensions, pool: pool, threads: threads)
                }
            }

            if let p = settings.previewFormat {
                preview = PhotoDeveloper.preview(
                    of: developed, size: resolved.previewDimensions, format: p.pixelFormat, pool: pool, threads: threads
                )
            }
            let metadata = exif(resolved.photoDimensions, frameCount: method == .bracket ? 1 : frameCount)
            var photo = CapturedPhoto(
                resolvedSettings: resolved, timestamp: referenceTime, isRawPhoto: false,
                pixelBuffer: developed,
                rawBuffer: nil, previewPixelBuffer: preview, metadata: metadata, bracketSettings: bracketItem,
                sequenceCount: item + 1, photoCount: firstPhotoCount, processedFormat: format, rawDescription: nil)
            switch format {
            case .codec(let codec):
                let outMP = Double(developed.width * developed.height) / 1e6
                photo.encodedData = try measure(.encode, megapixels: outMP) { () throws(CaptureError) in
                    do {
                        // A requested preview becomes the file's thumbnail, as in Apple's file data representation
                        // (a JPEG's in IFD1 of its Exif block).
                        let thumbnail = preview.map { $0.format.isYCbCr ? $0.converted(to: .rgba8) : $0 }
                        switch codec {
                        case .jpeg:
                            return try JPEG.encode(
                                developed, metadata: ImageMetadata(exif: metadata), thumbnail: thumbnail)
                        case .hevc:
                            return try HEIF.encode(
                                developed, metadata: ImageMetadata(exif: metadata), thumbnail: thumbnail)
                        }
                    } catch {
                        throw .processing("\(codec == .jpeg ? "JPEG" : "HEIC") encoding failed: \(error)")
                    }
                }
            case .pixelFormat(let pf):
                photo.pixelBuffer = PhotoDeveloper.converted(developed, to: pf, pool: pool, threads: threads)
            }
            photos.append(photo)
        }
        if let reference = rawReference {
            if preview == nil, let p = settings.previewFormat {
                let image: PixelBuffer
                if let developer {
                    image = developer.develop(
                        reference, colorSpace: resolved.colorSpace, size: resolved.previewDimensions, pool: pool)
                } else {
                    image = try PhotoDeveloper.deviceProcessed(
                        reference, size: resolved.previewDimensions, pool: pool, threads: threads)
                }
                preview = PhotoDeveloper.converted(image, to: p.pixelFormat, pool: pool, threads: threads)
            }
            photos.append(
                CapturedPhoto(
                    resolvedSettings: resolved, timestamp: referenceTime, isRawPhoto: true,
                    pixelBuffer: nil,
                    rawBuffer: PipelineBuffers.copy(reference.pixels, pool: pool), previewPixelBuffer: preview,
                    metadata: exif(resolved.rawPhotoDimensions, frameCount: 1), bracketSettings: bracketItem,
                    sequenceCount: item + 1, photoCount: firstPhotoCount + photos.count, processedFormat: nil,
                    rawDescription: reference.metadata.raw))
        }
        return photos
    }

    /// The processed photo the output develops from a sensor-pipeline camera's frames, by the planned method.
    ///
    /// A merged burst's `frames` are emptied once merged and, unless another request waits, the memory they and
    /// the still's view of the scene held goes back to the system while the merged frame is developed.
    func develop(_ frames: inout [RawFrame], with developer: PhotoDeveloper, megapixels mp: Double)
        throws(CaptureError) -> PixelBuffer
    {
        let pool = output.pool
        let method = resolved.processing.method
        switch method {
        case .fastMerge, .fullMerge:
            let merged = try measure(.merge, megapixels: mp * Double(frames.count)) { () throws(CaptureError) in
                try PhotoFusion.merge(frames, method: method, pool: pool, threads: threads)
            }
            frames = []
            output.releaseStillMemory(device: camera)
            let stage: ProcessingCostModel.Stage = resolved.processing.usesExposureFusion ? .toneMap : .developFused
            return try measure(stage, megapixels: mp) { () throws(CaptureError) in
                try developer.developFused(
                    merged, colorSpace: resolved.colorSpace, size: resolved.photoDimensions,
                    exposureFusion: resolved.processing.usesExposureFusion, pool: pool)
            }
        case .singleFrame:
            let reference = frames[0]
            let cleaned = measure(.noiseReduction, megapixels: mp) {
                LightNoiseReduction.apply(
                    reference, noise: reference.metadata.raw.noiseProfile, pool: pool, threads: threads)
            }
            return measure(.develop, megapixels: mp) {
                developer.develop(cleaned, colorSpace: resolved.colorSpace, size: resolved.photoDimensions, pool: pool)
            }
        case .bracket:
            return measure(.develop, megapixels: mp) {
                developer.develop(
                    frames[0], colorSpace: resolved.colorSpace, size: resolved.photoDimensions, pool: pool)
            }
        }
    }
}
