import Glibc
import LuxColor
import LuxPixels

extension V4L2Camera {
    // MARK: Streaming

    /// Sets the active format and frame rate (VIDIOC_S_FMT, S_PARM), maps the buffers (REQBUFS, QUERYBUF, mmap),
    /// queues them (QBUF) and starts the stream (STREAMON).
    ///
    /// - Throws: ``CaptureError/deviceBusy(_:)`` when another process streams from the camera,
    ///   ``CaptureError/formatNotSupported(_:)`` when the driver will not take the active format,
    ///   ``CaptureError/deviceDisconnected(_:)`` when the camera is gone.
    public func startStreaming() async throws(CaptureError) {
        let (running, format, duration) = state.withLock { ($0.stream != nil, $0.format, $0.frameDuration) }
        guard !running else { return }
        let stream = try openStream(format: format, frameDuration: duration)
        state.withLock { s in
            s.stream = stream
            s.needsRestart = false
        }
    }

    /// Stops the stream (STREAMOFF), unmaps and frees the buffers.
    public func stopStreaming() async {
        guard
            let stream = state.withLock({ s -> Stream? in
                defer { s.stream = nil }
                return s.stream
            })
        else { return }
        closeStream(stream)
    }

    /// The next frame: waits (`poll`) for a filled buffer, dequeues it, copies and decodes it, and queues it again.
    ///
    /// Presentation times come from the buffers' monotonic timestamps, relative to the first frame.
    ///
    /// - Throws: ``CaptureError/notRunning(_:)`` before ``startStreaming()``, ``CaptureError/timedOut(_:)`` when no
    ///   frame arrives within ``Configuration/frameTimeout``, ``CaptureError/deviceDisconnected(_:)`` when the
    ///   camera was unplugged.
    public func nextFrame(_ configuration: StreamConfiguration) async throws(CaptureError) -> CaptureFrame {
        try restartIfNeeded()
        guard let decoder = state.withLock({ $0.stream?.decoder }) else {
            throw .notRunning("\(localizedName) is not streaming")
        }
        let (bytes, timestamp) = try dequeue()
        let decoded = try decoder.decode(
            bytes, processed: configuration.deliversProcessedFrames || !decoder.format.isBayer)
        let live = status
        return state.withLock { s in
            let time: MediaTime
            if var stream = s.stream {
                let origin = stream.firstTimestamp ?? timestamp
                stream.firstTimestamp = origin
                s.stream = stream
                let elapsed = timestamp - origin
                time =
                    stream.timeOffset
                    + MediaTime(
                        value: elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds
                            / 1_000_000_000_000, timescale: 1_000_000)
            } else {
                time = s.lastTime
            }
            defer {
                s.frameIndex += 1
                s.lastTime = time
                s.hasDelivered = true
            }
            return CaptureFrame(
                index: s.frameIndex, presentationTime: time, duration: s.frameDuration,
                image: configuration.deliversProcessedFrames ? decoded.image : nil,
                raw: configuration.deliversRAW ? decoded.raw : nil, metadata: metadata(live, decoder: decoder))
        }
    }

    /// Takes a still from the stream at the highest resolution of the active pixel format, with the request's
    /// exposure; the stream returns to the active format afterwards.
    ///
    /// ``StillCapture/raw`` holds the Bayer mosaic for a Bayer format, else the decoded image (a V4L2 camera without a
    /// Bayer format has no RAW).
    ///
    /// - Throws: What ``nextFrame(_:)`` and the exposure setters throw.
    public func captureStill(_ request: StillRequest) async throws(CaptureError) -> StillCapture {
        switch request.exposure {
        case .current: break
        case .auto(let bias):
            if bias != status.exposureTargetBias { try await setExposureTargetBias(bias) }
        case .manual(let duration, let iso):
            try await setExposureModeCustom(duration: .value(duration), iso: .value(iso))
        }
        let active = activeFormat
        let largest =
            formats.filter { $0.mediaSubType == active.mediaSubType }.max {
                $0.width * $0.height < $1.width * $1.height
            }
            ?? active
        let wasStreaming = state.withLock { $0.stream != nil }
        let switches = largest != active
        if switches { try setActiveFormat(largest) }
        defer {
            if switches { try? setActiveFormat(active) }
        }
        if !wasStreaming { try await startStreaming() }
        let warmUp = switches || !wasStreaming ? self.configuration.stillWarmUpFrames : 0
        let config = StreamConfiguration(deliversProcessedFrames: true, deliversRAW: true)
        var frame = try await nextFrame(config)
        for _ in 0..<warmUp { frame = try await nextFrame(config) }
        if !wasStreaming { await stopStreaming() }
        guard let pixels = frame.raw ?? frame.image else { throw .processing("the still has no pixels") }
        var image = frame.image
        if let format = request.processedFormat, let i = image, i.format != format { image = i.converted(to: format) }
        return StillCapture(
            presentationTime: frame.presentationTime, raw: pixels, image: image, metadata: frame.metadata)
    }

    // MARK: Buffers

    func openStream(format: DeviceFormat, frameDuration: MediaTime) throws(CaptureError) -> Stream {
        guard let pixel = V4L2PixelFormat.all[format.mediaSubType] else {
            throw .formatNotSupported(format.description)
        }
        var f = V4L2Struct(size: V4L2.Layout.format)
        f.set(0, V4L2.bufferTypeVideoCapture)
        f.set(8, UInt32(format.width))
        f.set(12, UInt32(format.height))
        f.set(16, V4L2.fourCC(pixel.fourCC))
        f.set(20, V4L2.fieldNone)
        try ioctl(V4L2.setFormat, "VIDIOC_S_FMT", &f)
        guard f.u32(8) == UInt32(format.width), f.u32(12) == UInt32(format.height),
            f.u32(16) == V4L2.fourCC(pixel.fourCC)
        else {
            throw .formatNotSupported("\(path) gave \(f.u32(8))x\(f.u32(12)) instead of \(format)")
        }
        let sampleBytes =
            switch pixel.layout {
            case .yuyv: 2
            case .nv12, .mjpeg: 1
            case .bayer(_, let bits): bits > 8 ? 2 : 1
            }
        let bytesPerLine = max(Int(f.u32(24)), format.width * sampleBytes)
        setFrameInterval(frameDuration)
        var req = V4L2Struct(size: V4L2.Layout.requestBuffers)
        req.set(0, UInt32(configuration.bufferCount))
        req.set(4, V4L2.bufferTypeVideoCapture)
        req.set(8, V4L2.memoryMMAP)
        try ioctl(V4L2.requestBuffers, "VIDIOC_REQBUFS", &req)
        let count = Int(req.u32(0))
        guard count > 0 else { throw .systemCall(name: "VIDIOC_REQBUFS(\(path))", errno: ENOMEM) }
        var buffers: [MappedBuffer] = []
        do throws(CaptureError) {
            for index in 0..<count {
                var b = bufferStruct(index: index)
                try ioctl(V4L2.queryBuffer, "VIDIOC_QUERYBUF", &b)
                let length = Int(b.u32(72))
                let address = try driver.map(fd, length: length, offset: Int(b.u32(64)))
                buffers.append(MappedBuffer(address: address, length: length))
            }
            for index in 0..<count {
                var b = bufferStruct(index: index)
                try ioctl(V4L2.queueBuffer, "VIDIOC_QBUF", &b)
            }
            var type = V4L2Struct(size: 4)
            type.set(0, V4L2.bufferTypeVideoCapture)
            try ioctl(V4L2.streamOn, "VIDIOC_STREAMON", &type)
        } catch {
            closeStream(Stream(buffers: buffers, decoder: decoder(pixel, format, bytesPerLine), timeOffset: .zero))
            throw error
        }
        let offset = state.withLock { $0.hasDelivered ? $0.lastTime + $0.frameDuration : .zero }
        return Stream(buffers: buffers, decoder: decoder(pixel, format, bytesPerLine), timeOffset: offset)
    }

    func decoder(_ pixel: V4L2PixelFormat, _ format: DeviceFormat, _ bytesPerLine: Int) -> V4L2FrameDecoder {
        let black = controls[.blackLevel] == nil ? 0 : (try? readControl(.blackLevel)).map(Int.init) ?? 0
        return V4L2FrameDecoder(
            format: pixel, width: format.width, height: format.height, bytesPerLine: bytesPerLine, blackLevel: black)
    }

    /// Asks for a frame interval (VIDIOC_S_PARM) where the driver lets it be set; drivers without it run at their
    /// own rate.
    func setFrameInterval(_ duration: MediaTime) {
        var p = V4L2Struct(size: V4L2.Layout.streamParameters)
        p.set(0, V4L2.bufferTypeVideoCapture)
        guard driver.ioctl(fd, V4L2.getParameters, &p.bytes) == 0, p.u32(4) & V4L2.capabilityTimePerFrame != 0 else {
            return
        }
        p.set(12, UInt32(clamping: duration.value))
        p.set(16, UInt32(duration.timescale))
        _ = driver.ioctl(fd, V4L2.setParameters, &p.bytes)
    }

    /// Stops streaming and frees the buffers (STREAMOFF, munmap, REQBUFS 0); errors are ignored, as the camera may
    /// be gone.
    func closeStream(_ stream: Stream) {
        var type = V4L2Struct(size: 4)
        type.set(0, V4L2.bufferTypeVideoCapture)
        _ = driver.ioctl(fd, V4L2.streamOff, &type.bytes)
        stream.release(driver: driver)
        var req = V4L2Struct(size: V4L2.Layout.requestBuffers)
        req.set(4, V4L2.bufferTypeVideoCapture)
        req.set(8, V4L2.memoryMMAP)
        _ = driver.ioctl(fd, V4L2.requestBuffers, &req.bytes)
    }

    /// Restarts the stream when the format or frame rate changed while it ran.
    func restartIfNeeded() throws(CaptureError) {
        let old = state.withLock { s -> Stream? in
            guard s.needsRestart, let stream = s.stream else { return nil }
            s.stream = nil
            s.needsRestart = false
            return stream
        }
        guard let old else { return }
        closeStream(old)
        let (format, duration) = state.withLock { ($0.format, $0.frameDuration) }
        let stream = try openStream(format: format, frameDuration: duration)
        state.withLock { $0.stream = stream }
    }

    func bufferStruct(index: Int) -> V4L2Struct {
        var b = V4L2Struct(size: V4L2.Layout.buffer)
        b.set(0, UInt32(index))
        b.set(4, V4L2.bufferTypeVideoCapture)
        b.set(60, V4L2.memoryMMAP)
        return b
    }

    /// Waits for a filled buffer, copies its bytes out and queues it again.
    ///
    /// Returns the bytes and the buffer's timestamp. Buffers flagged V4L2_BUF_FLAG_ERROR are queued again and skipped.
    func dequeue() throws(CaptureError) -> ([UInt8], Duration) {
        let timeout = configuration.frameTimeout
        let deadline = driver.monotonicTime() + timeout
        while true {
            let left = deadline - driver.monotonicTime()
            let ready = left > .zero ? driver.poll(fd, timeout: left) : []
            if ready.isEmpty { throw .timedOut("\(path) delivered no frame within \(timeout)") }
            if ready.contains(.hangUp) { throw .deviceDisconnected(path) }
            var b = bufferStruct(index: 0)
            let err = driver.ioctl(fd, V4L2.dequeueBuffer, &b.bytes)
            if err == EAGAIN || err == EINTR { continue }
            guard err == 0 else { throw Self.error(errno: err, call: "VIDIOC_DQBUF", path: path) }
            let index = Int(b.u32(0))
            let used = Int(b.u32(8))
            let flags = b.u32(12)
            let timestamp = Duration.seconds(b.s64(24)) + .microseconds(b.s64(32))
            let bytes = state.withLock { s -> [UInt8] in
                guard let buffer = s.stream?.buffers[safe: index] else { return [] }
                let n = min(used, buffer.length)
                return [UInt8](UnsafeRawBufferPointer(start: buffer.address, count: n))
            }
            var again = bufferStruct(index: index)
            try ioctl(V4L2.queueBuffer, "VIDIOC_QBUF", &again)
            if flags & V4L2.BufferFlag.error != 0 { continue }
            return (bytes, timestamp)
        }
    }

    /// The metadata of a frame: the control values the device reports, the Bayer levels, and the generic colour
    /// calibration (``CameraCalibration/linearSRGB``: the sensor's own is unknown) with the neutral of the device's
    /// white-balance gains.
    func metadata(_ s: DeviceStatus, decoder: V4L2FrameDecoder) -> FrameMetadata {
        var cfa = CFAPattern.rggb
        if case .bayer(let pattern, _) = decoder.format.layout { cfa = pattern }
        let calibration = CameraCalibration.linearSRGB
        let g = s.deviceWhiteBalanceGains
        let inverse = SIMD3(1 / g.red, 1 / g.green, 1 / g.blue)
        let neutral = inverse / inverse.max()
        return FrameMetadata(
            exposureDuration: s.exposureDuration, iso: s.iso, lensPosition: s.lensPosition, focusDistance: 0,
            fNumber: 2, focalLength: 4, whiteBalanceGains: g, exposureTargetOffset: 0,
            exposureTargetBias: s.exposureTargetBias, flashFired: false, focusScore: nil,
            raw: RAWDescription(
                cfaPattern: cfa, blackLevel: decoder.blackLevel, whiteLevel: decoder.whiteLevel,
                calibration: calibration, asShotNeutral: neutral,
                asShotWhite: calibration.chromaticity(ofCameraNeutral: neutral), noiseProfile: SIMD2(0, 0), binning: 1))
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
