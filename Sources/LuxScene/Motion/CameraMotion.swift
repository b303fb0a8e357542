import RealModule

/// How the camera moves while frames are exposed: hand-held shake (turning and sliding) and panning, as functions of
/// time.
///
/// Angles are in radians about the camera's axes: yaw (turning left/right moves the image horizontally),
/// pitch (moves it vertically) and roll (rotates it about the frame centre). Turning moves every layer of the scene
/// alike; sliding the camera sideways by `T` moves a layer at distance `Z` by `T·f/Z` on the sensor (parallax), so near
/// layers move more than far ones. Shake is a deterministic sum of sinusoids whose amplitudes fall as 1/f between
/// 0.5 Hz and 15 Hz — the low-frequency sway and the 8–12 Hz physiological tremor of a hand-held phone — with phases
/// drawn from `seed`.
public struct CameraMotion: Hashable, Sendable, Codable {
    /// RMS shake angle per axis (yaw and pitch) in degrees; roll uses a third of it.
    public var shakeRMSDegrees: Double
    /// RMS shake translation per axis (sideways and vertical, in the sensor's plane) in millimetres.
    ///
    /// A camera that slides renders every layer for each frame (each layer moves by its own parallax), so frames
    /// cost more than with rotation alone, which reuses one rendering of the still layers.
    public var shakeTranslationRMSMillimetres: Double
    /// Pan rate in degrees per second (yaw, pitch).
    public var panDegreesPerSecond: SIMD2<Double>
    /// The seed of the shake phases.
    public var seed: UInt64

    /// Creates a camera motion.
    public init(
        shakeRMSDegrees: Double = 0, shakeTranslationRMSMillimetres: Double = 0,
        panDegreesPerSecond: SIMD2<Double> = .zero, seed: UInt64 = 1
    ) {
        self.shakeRMSDegrees = shakeRMSDegrees
        self.shakeTranslationRMSMillimetres = shakeTranslationRMSMillimetres
        self.panDegreesPerSecond = panDegreesPerSecond
        self.seed = seed
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            shakeRMSDegrees: try c.decode(Double.self, forKey: .shakeRMSDegrees),
            shakeTranslationRMSMillimetres: try c.decodeIfPresent(Double.self, forKey: .shakeTranslationRMSMillimetres)
                ?? 0,
            panDegreesPerSecond: try c.decode(SIMD2<Double>.self, forKey: .panDegreesPerSecond),
            seed: try c.decode(UInt64.self, forKey: .seed))
    }

    /// A camera on a tripod: no motion at all.
    public static let tripod = CameraMotion()
    /// A phone held in the hand: 0.03° RMS shake (about 1.1 pixels RMS at full resolution on the default sensor).
    public static let handheld = CameraMotion(shakeRMSDegrees: 0.03)
    /// A phone held in the hand that also slides: 0.03° and 0.5 mm RMS shake, so near layers move against far ones
    /// (at 0.5 m, 0.5 mm is about 3 pixels at full resolution on the default sensor).
    public static let handheldWithParallax = CameraMotion(shakeRMSDegrees: 0.03, shakeTranslationRMSMillimetres: 0.5)

    /// Whether the camera moves at all.
    public var isStill: Bool { shakeRMSDegrees == 0 && !translates && panDegreesPerSecond == .zero }

    /// Whether the camera slides (so layers at different distances move differently).
    public var translates: Bool { shakeTranslationRMSMillimetres != 0 }

    static let componentCount = 12

    /// The camera orientation (yaw, pitch, roll) in radians at `time` seconds.
    public func angles(at time: Double) -> SIMD3<Double> {
        let pan = panDegreesPerSecond * (Double.pi / 180) * time
        guard shakeRMSDegrees > 0 else { return SIMD3(pan.x, pan.y, 0) }
        let sum = shake(at: time, axes: 0..<3, rms: shakeRMSDegrees * Double.pi / 180)
        return SIMD3(pan.x + sum.x, pan.y + sum.y, sum.z / 3)
    }

    /// The camera's displacement (sideways, vertical) in its sensor's plane in metres at `time` seconds.
    public func translation(at time: Double) -> SIMD2<Double> {
        guard translates else { return .zero }
        let sum = shake(at: time, axes: 3..<5, rms: shakeTranslationRMSMillimetres / 1000)
        return SIMD2(sum.x, sum.y)
    }

    /// Shake of `rms` on up to three `axes` (0–2: rotation, 3–4: translation; each has its own phases) at `time`.
    private func shake(at time: Double, axes: Range<Int>, rms: Double) -> SIMD3<Double> {
        var sum = SIMD3<Double>.zero
        var power = 0.0
        for k in 0..<Self.componentCount {
            // Log-spaced frequencies 0.5…15 Hz, amplitude ∝ 1/f.
            let f = 0.5 * Double.pow(30, Double(k) / Double(Self.componentCount - 1))
            let amplitude = 1 / f
            power += amplitude * amplitude / 2
            for (i, axis) in axes.enumerated() {
                let bits = CounterRandom.hash(seed, UInt64(k), UInt64(axis))
                let phase = Double(bits >> 11) * (2 * Double.pi / 9_007_199_254_740_992)
                sum[i] += amplitude * Double.sin(2 * Double.pi * f * time + phase)
            }
        }
        return sum * (rms / power.squareRoot())
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
