import LuxPixels

extension V4L2Camera {
    /// A buffer of the stream, mapped into this process.
    ///
    /// `@unchecked Sendable`: the address is only read under the camera's state lock, while the buffer is dequeued.
    struct MappedBuffer: @unchecked Sendable {
        var address: UnsafeMutableRawPointer
        var length: Int
    }

    /// The buffers and format of a running stream.
    struct Stream {
        var buffers: [MappedBuffer]
        var decoder: V4L2FrameDecoder
        /// The monotonic timestamp of the stream's first frame, the origin of presentation times.
        var firstTimestamp: Duration?
        /// The presentation time of the first frame of this stream on the device clock.
        var timeOffset: MediaTime

        /// Unmaps the buffers.
        func release(driver: any V4L2Driver) {
            for b in buffers { driver.unmap(b.address, length: b.length) }
        }
    }

    /// The mutable state of the camera.
    struct State {
        var format: DeviceFormat
        var frameDuration: MediaTime
        var stream: Stream?
        /// The format or frame rate changed while streaming: restart before the next frame.
        var needsRestart = false
        var frameIndex = 0
        /// The presentation time of the last frame delivered.
        var lastTime: MediaTime = .zero
        /// Whether a frame has been delivered yet.
        var hasDelivered = false
        var focusMode: FocusMode
        var lensPosition: Float = 0.5
        var exposureMode: ExposureMode
        var exposureDuration: MediaTime
        var iso: Float = 100
        var bias: Float = 0
        var whiteBalanceMode: WhiteBalanceMode

        init(format: DeviceFormat, controls: [V4L2.Control: V4L2ControlInfo]) {
            self.format = format
            frameDuration = format.minFrameDuration
            exposureDuration = format.minFrameDuration
            focusMode =
                controls[.focusAuto].map { $0.defaultValue != 0 ? .continuousAutoFocus : .locked } ?? .locked
            let autoExposure = controls[.exposureAuto].map { $0.defaultValue != V4L2.ExposureAutoItem.manual } ?? true
            exposureMode = autoExposure ? .continuousAutoExposure : .custom
            whiteBalanceMode =
                controls[.autoWhiteBalance].map { $0.defaultValue != 0 ? .continuousAutoWhiteBalance : .locked }
                ?? .continuousAutoWhiteBalance
            if let e = controls[.exposureAbsolute] {
                exposureDuration = MediaTime(value: Int64(e.defaultValue), timescale: 10_000)
            }
        }

        /// The estimated presentation time of the first frame that shows a control written now.
        func syncTime(latencyFrames: Int) -> MediaTime {
            let next = hasDelivered ? lastTime + frameDuration : lastTime
            return next + frameDuration * latencyFrames
        }
    }

    /// The numeric ranges of the device's controls, written into each ``DeviceFormat``.
    struct ControlRanges {
        var controls: [V4L2.Control: V4L2ControlInfo]

        /// The gain that is ISO 100: the driver's smallest gain, at least 1.
        static func baseGain(_ gain: V4L2ControlInfo) -> Double { Double(max(gain.minimum, 1)) }

        /// The red or blue balance value that is gain 1: the driver's default, at least 1.
        static func unityBalance(_ balance: V4L2ControlInfo) -> Double { Double(max(balance.defaultValue, 1)) }

        /// The largest gain both balance controls reach, at least 1; 1 without them.
        var maxWhiteBalanceGain: Float {
            guard let red = controls[.redBalance], let blue = controls[.blueBalance] else { return 1 }
            let gain = min(Double(red.maximum) / Self.unityBalance(red), Double(blue.maximum) / Self.unityBalance(blue))
            return Float(max(gain, 1))
        }

        func apply(to format: DeviceFormat) -> DeviceFormat {
            var f = format
            f.maxWhiteBalanceGain = maxWhiteBalanceGain
            if let gain = controls[.gain] {
                f.minISO = 100
                f.maxISO = Float(100 * Double(gain.maximum) / Self.baseGain(gain))
            }
            if let e = controls[.exposureAbsolute] {
                f.minExposureDuration = MediaTime(value: Int64(max(e.minimum, 1)), timescale: 10_000)
                f.maxExposureDuration = MediaTime(value: Int64(e.maximum), timescale: 10_000)
            }
            if let bias = controls[.exposureBias], let lo = bias.integerMenuItems.values.min(),
                let hi = bias.integerMenuItems.values.max()
            {
                f.exposureTargetBiasRange = Float(lo) / 1000...Float(hi) / 1000
            }
            return f
        }
    }
}
