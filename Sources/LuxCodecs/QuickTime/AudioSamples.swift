public import LuxPixels

/// Interleaved signed 16-bit PCM audio with its rate, channel count and place on a movie timeline.
public struct AudioSamples: Hashable, Sendable {
    /// Frames per second.
    public var sampleRate: Int
    /// Channels per frame.
    public var channelCount: Int
    /// When the first frame plays on the movie timeline.
    public var startTime: MediaTime
    /// The samples, `channelCount` per frame.
    public var samples: [Int16]

    /// Creates audio.
    public init(sampleRate: Int, channelCount: Int, startTime: MediaTime = .zero, samples: [Int16]) {
        precondition(channelCount > 0 && samples.count % channelCount == 0, "samples must be whole frames")
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.startTime = startTime
        self.samples = samples
    }

    /// The number of frames.
    public var frameCount: Int { samples.count / channelCount }

    /// How long the audio plays.
    public var duration: MediaTime { MediaTime(value: Int64(frameCount), timescale: Int32(sampleRate)) }

    /// The audio with every sample multiplied by `volume` (0 silences, 1 keeps), rounded and clipped to 16 bits.
    public func withVolume(_ volume: Double) -> AudioSamples {
        if volume == 1 { return self }
        var out = self
        let g = Float(max(0, volume))
        out.samples.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count {
                let v = (Float(p[i]) * g).rounded()
                p[i] = Int16(max(-32768, min(32767, v)))
            }
        }
        return out
    }

    /// The part of the audio that plays within `range` of the movie timeline, starting at `range.lowerBound`
    /// re-timed to zero when `rebasing` is set.
    public func trimmed(to range: Range<MediaTime>, rebasing: Bool = true) -> AudioSamples {
        let rate = Int32(sampleRate)
        let first = max(0, (range.lowerBound - startTime).converted(toTimescale: rate).value)
        let last = min(Int64(frameCount), (range.upperBound - startTime).converted(toTimescale: rate).value)
        let slice = first < last ? Array(samples[(Int(first) * channelCount)..<(Int(last) * channelCount)]) : []
        let start = max(range.lowerBound, startTime)
        return AudioSamples(
            sampleRate: sampleRate, channelCount: channelCount,
            startTime: rebasing ? max(.zero, start - range.lowerBound) : start, samples: slice)
    }
}
