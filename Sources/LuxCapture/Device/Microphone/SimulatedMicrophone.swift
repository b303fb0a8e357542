public import LuxPixels
public import LuxScene
import Synchronization

/// A block of PCM audio on the device clock.
public struct AudioBuffer: Hashable, Sendable {
    /// The time of the first sample.
    public var presentationTime: MediaTime
    /// Samples per second.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channelCount: Int
    /// Signed 16-bit samples, interleaved.
    public var samples: [Int16]

    /// Sample frames (samples per channel).
    public var frameCount: Int { samples.count / max(channelCount, 1) }
    /// The duration of the buffer.
    public var duration: MediaTime { MediaTime(value: Int64(frameCount), timescale: Int32(sampleRate)) }
}

/// A microphone that hears a scene's ``SoundSource``: deterministic 16-bit PCM on the same ``MediaTime``
/// clock as the simulated camera (sample `n` is at `n / sampleRate` seconds), so Live Photo movies get audio
/// that lines up with their frames.
///
/// ```swift
/// let mic = SimulatedMicrophone(source: Scene.stillLife().sound)
/// let first = mic.nextBuffer(frameCount: 1024)   // 0 s … 21.3 ms
/// let again = mic.buffer(at: .zero, frameCount: 1024)   // the same samples
/// ```
public final class SimulatedMicrophone: Sendable {
    /// A stable identifier.
    public let uniqueID = "lux.simulated.microphone"
    /// A name for people.
    public let localizedName = "Simulated Microphone"
    /// Samples per second.
    public let sampleRate: Int
    /// Channels (the same signal on each).
    public let channelCount: Int
    private let state: Mutex<(source: SoundSource, next: Int64)>

    /// Creates a microphone.
    public init(source: SoundSource, sampleRate: Int = 48_000, channelCount: Int = 1) {
        precondition(sampleRate > 0 && channelCount > 0, "a microphone needs a positive rate and channel count")
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        state = Mutex((source, 0))
    }

    /// What the microphone hears.
    public var source: SoundSource {
        get { state.withLock { $0.source } }
        set { state.withLock { $0.source = newValue } }
    }

    /// The time of the next sample ``nextBuffer(frameCount:)`` returns.
    public var nextTime: MediaTime { state.withLock { MediaTime(value: $0.next, timescale: Int32(sampleRate)) } }

    /// The next `frameCount` sample frames of the stream.
    public func nextBuffer(frameCount: Int = 1024) -> AudioBuffer {
        let (source, start) = state.withLock { s -> (SoundSource, Int64) in
            let start = s.next
            s.next += Int64(frameCount)
            return (s.source, start)
        }
        return render(source: source, start: start, frameCount: frameCount)
    }

    /// `frameCount` sample frames starting at `time` (rounded to a sample), without moving the stream.
    public func buffer(at time: MediaTime, frameCount: Int) -> AudioBuffer {
        let start = time.converted(toTimescale: Int32(sampleRate), rounding: .down).value
        return render(source: source, start: start, frameCount: frameCount)
    }

    func render(source: SoundSource, start: Int64, frameCount: Int) -> AudioBuffer {
        let mono = source.samples(startingAt: start, count: frameCount, sampleRate: Double(sampleRate))
        var pcm = [Int16](repeating: 0, count: frameCount * channelCount)
        for i in 0..<frameCount {
            let v = (min(max(mono[i], -1), 1) * 32767).rounded()
            for c in 0..<channelCount { pcm[i * channelCount + c] = Int16(v) }
        }
        return AudioBuffer(
            presentationTime: MediaTime(value: start, timescale: Int32(sampleRate)), sampleRate: sampleRate,
            channelCount: channelCount, samples: pcm)
    }
}
