/// A small deterministic random generator (SplitMix64) for test data.
public struct SplitMix: Sendable {
    public var state: UInt64

    /// Creates a generator.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1) with 24 bits.
    public mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }
}
