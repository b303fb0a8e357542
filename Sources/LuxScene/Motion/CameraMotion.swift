import RealModule

/// How the camera moves while frames are exposed: hand-held shake and panning, as functions of time.
///
/// Angles are in radians about the camera's axes: yaw (turning left/right moves the image horizontally),
/// pitch (moves it vertically) and roll (rotates it about the frame centre). Shake is a deterministic sum of
/// sinusoids whose amplitudes fall as 1/f between 0.5 Hz and 15 Hz — the low-frequency sway and the 8–12 Hz
/// physiological tremor of a hand-held phone — with phases drawn from `seed`.
public struct CameraMotion: Hashable, Sendable, Codable {
    /// RMS shake angle per axis (yaw and pitch) in degrees; roll uses a third of it.
    public var shakeRMSDegrees: Double
    /// Pan rate in degrees per second (yaw, pitch).
    public var panDegreesPerSecond: SIMD2<Double>
    /// The seed of the shake phases.
    public var seed: UInt64

    /// Creates a camera motion.
    public init(shakeRMSDegrees: Double = 0, panDegreesPerSecond: SIMD2<Double> = .zero, seed: UInt64 = 1) {
        self.shakeRMSDegrees = shakeRMSDegrees
        self.panDegreesPerSecond = panDegreesPerSecond
        self.seed = seed
    }

    /// A camera on a tripod: no motion at all.
    public static let tripod = CameraMotion()
    /// A phone held in the hand: 0.03° RMS shake (about 1.1 pixels RMS at full resolution on the default sensor).
    public static let handheld = CameraMotion(shakeRMSDegrees: 0.03)

    /// Whether the camera moves at all.
    public var isStill: Bool { shakeRMSDegrees == 0 && panDegreesPerSecond == .zero }

    static let componentCount = 12

    /// The camera orientation (yaw, pitch, roll) in radians at `time` seconds.
    public func angles(at time: Double) -> SIMD3<Double> {
        let pan = panDegreesPerSecond * (Double.pi / 180) * time
        guard shakeRMSDegrees > 0 else { return SIMD3(pan.x, pan.y, 0) }
        let rms = shakeRMSDegrees * Double.pi / 180
        var sum = SIMD3<Double>.zero
        var power = 0.0
        for k in 0..<Self.componentCount {
            // Log-spaced frequencies 0.5…15 Hz, amplitude ∝ 1/f.
            let f = 0.5 * Double.pow(30, Double(k) / Double(Self.componentCount - 1))
            let amplitude = 1 / f
            power += amplitude * amplitude / 2
            for axis in 0..<3 {
                let bits = CounterRandom.hash(seed, UInt64(k), UInt64(axis))
                let phase = Double(bits >> 11) * (2 * Double.pi / 9_007_199_254_740_992)
                sum[axis] += amplitude * Double.sin(2 * Double.pi * f * time + phase)
            }
        }
        let scale = rms / power.squareRoot()
        return SIMD3(pan.x + sum.x * scale, pan.y + sum.y * scale, sum.z * scale / 3)
    }
}

/// How one layer of a scene moves in the image, as a function of time: a constant velocity plus an optional
/// oscillation.
///
/// Units are frame widths (the scene's horizontal extent is 1).
public struct LayerMotion: Hashable, Sendable, Codable {
    /// Velocity in frame widths per second.
    public var velocity: SIMD2<Double>
    /// Oscillation amplitude in frame widths.
    public var oscillationAmplitude: SIMD2<Double>
    /// Oscillation frequency in hertz.
    public var oscillationFrequency: Double

    /// Creates a motion.
    public init(
        velocity: SIMD2<Double> = .zero, oscillationAmplitude: SIMD2<Double> = .zero, oscillationFrequency: Double = 0
    ) {
        self.velocity = velocity
        self.oscillationAmplitude = oscillationAmplitude
        self.oscillationFrequency = oscillationFrequency
    }

    /// No motion.
    public static let none = LayerMotion()

    /// Whether the layer moves at all.
    public var isStill: Bool { velocity == .zero && (oscillationAmplitude == .zero || oscillationFrequency == 0) }

    /// The displacement in frame widths at `time` seconds.
    public func offset(at time: Double) -> SIMD2<Double> {
        var o = velocity * time
        if oscillationFrequency != 0 {
            o += oscillationAmplitude * Double.sin(2 * Double.pi * oscillationFrequency * time)
        }
        return o
    }
}
