import RealModule

/// A deterministic sound: a sine tone plus white noise, for the simulated microphone.
///
/// Samples are a pure function of the sample index, so any chunking of the stream gives the same signal.
///
/// ```swift
/// let hum = SoundSource(toneFrequency: 440, toneAmplitude: 0.25, noiseAmplitude: 0.01, seed: 7)
/// let first10ms = hum.samples(startingAt: 0, count: 480, sampleRate: 48_000)
/// ```
public struct SoundSource: Hashable, Sendable, Codable {
    /// The tone frequency in hertz.
    public var toneFrequency: Double
    /// The tone's peak amplitude (full scale = 1).
    public var toneAmplitude: Double
    /// The RMS amplitude of the noise (full scale = 1).
    public var noiseAmplitude: Double
    /// The noise seed.
    public var seed: UInt64

    /// Creates a sound source.
    public init(
        toneFrequency: Double = 440, toneAmplitude: Double = 0.25, noiseAmplitude: Double = 0.01, seed: UInt64 = 1
    ) {
        self.toneFrequency = toneFrequency
        self.toneAmplitude = toneAmplitude
        self.noiseAmplitude = noiseAmplitude
        self.seed = seed
    }

    /// Silence.
    public static let silence = SoundSource(toneAmplitude: 0, noiseAmplitude: 0)

    /// Writes `count` samples starting at `sampleIndex` (time = index ÷ `sampleRate`) into `output`.
    public func render(
        startingAt sampleIndex: Int64, count: Int, sampleRate: Double, into output: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<count {
            let n = sampleIndex + Int64(i)
            // Reduce the phase in Double so long streams keep their accuracy.
            let cycles = Double(n) * toneFrequency / sampleRate
            let phase = (cycles - cycles.rounded(.down)) * 2 * Double.pi
            let tone = toneAmplitude * Double.sin(phase)
            let noise =
                Double(CounterRandom.gaussian(CounterRandom.hash(seed, UInt64(bitPattern: n), 0x50D))) * noiseAmplitude
            output[i] = Float(tone + noise)
        }
    }

    /// `count` samples starting at `sampleIndex`.
    public func samples(startingAt sampleIndex: Int64, count: Int, sampleRate: Double) -> [Float] {
        [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress {
                render(startingAt: sampleIndex, count: count, sampleRate: sampleRate, into: base)
            }
            initialized = count
        }
    }
}
