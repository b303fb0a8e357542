public import LuxPixels
import LuxRender
import RealModule
import Synchronization

/// Video stabilisation of a frame sequence (a Live Photo movie): the camera path is measured frame to frame, smoothed,
/// and every frame is warped so it follows the smooth path, inside a fixed crop.
///
/// Motion between consecutive frames is a ``GlobalMotion`` (translation or similarity) fitted robustly to a
/// ``TileAligner`` field computed on reduced grey frames (moving objects do not pull it). The camera path — the
/// composition of those motions — is smoothed with a Gaussian over time in its translation, rotation and log-scale,
/// and each frame's correction is limited so the crop never reveals the frame's edge.
///
/// ```swift
/// let stabilizer = VideoStabilizer()
/// let plan = try stabilizer.plan(frames)              // transforms only
/// let steady = try stabilizer.render(frames, plan: plan)  // cropped, warped frames
/// ```
public struct VideoStabilizer: Sendable {
    /// What the stabiliser does.
    public struct Settings: Hashable, Sendable, Codable {
        /// The motion model between frames.
        public var model: GlobalMotion.Model
        /// The standard deviation of the temporal smoothing, in frames (larger: steadier, more crop needed).
        public var smoothing: Double
        /// The fraction of the width and height cut away (centred): the room the correction may use.
        public var crop: Double
        /// Frames are reduced to at most this width for motion analysis.
        public var analysisWidth: Int
        /// Worker threads (`nil`: one per core).
        public var threads: Int?

        /// Creates settings.
        public init(
            model: GlobalMotion.Model = .similarity, smoothing: Double = 12, crop: Double = 0.1,
            analysisWidth: Int = 960, threads: Int? = nil
        ) {
            self.model = model
            self.smoothing = smoothing
            self.crop = crop
            self.analysisWidth = analysisWidth
            self.threads = threads
        }

        var threadCount: Int { max(1, threads ?? Parallel.defaultThreadCount) }

        func validate() throws(FusionError) {
            guard smoothing.isFinite, smoothing >= 0, smoothing <= 1000 else {
                throw .invalidParameter(name: "smoothing", value: "\(smoothing)", allowed: "0…1000 frames")
            }
            guard crop.isFinite, crop >= 0, crop <= 0.5 else {
                throw .invalidParameter(name: "crop", value: "\(crop)", allowed: "0…0.5")
            }
            guard analysisWidth >= 64 else {
                throw .invalidParameter(name: "analysisWidth", value: "\(analysisWidth)", allowed: "≥ 64")
            }
        }
    }

    /// The stabilisation of a sequence: what to do with each frame.
    public struct Plan: Hashable, Sendable {
        /// The size of the stabilised frames (the crop).
        public var outputWidth: Int
        /// The size of the stabilised frames (the crop).
        public var outputHeight: Int
        /// Per frame: maps stabilised-frame pixel coordinates to input-frame coordinates.
        public var transforms: [AffineTransform]
        /// Per frame: the measured camera position (frame 0's coordinates → this frame's).
        public var cameraPath: [AffineTransform]
        /// Per frame after the first: the motion from the previous frame.
        public var frameMotions: [GlobalMotion]
        /// Per frame: how much of the smoothing correction was kept (1 = all; less where the crop ran out).
        public var correctionKept: [Double]
    }

    /// The settings.
    public var settings: Settings

    /// Creates a stabiliser.
    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Measures and smooths the camera path of `frames` (same size; RGBA8, BGRA8, RGBA16, RGBAh, RGBAf or Y′CbCr).
    ///
    /// - Throws: ``FusionError`` for no frames, mismatched sizes, frames smaller than 64 pixels, bad settings.
    /// - Complexity: O(frames × analysis pixels).
    public func plan(_ frames: [PixelBuffer]) throws(FusionError) -> Plan {
        try settings.validate()
        guard let first = frames.first else { throw .notEnoughFrames(count: 0, minimum: 1) }
        for (i, f) in frames.enumerated().dropFirst() where f.width != first.width || f.height != first.height {
            throw .mismatchedFrame(
                index: i, expected: "\(first.width)×\(first.height)", found: "\(f.width)×\(f.height)")
        }
        guard first.width >= 64, first.height >= 64 else {
            throw .imageTooSmall(width: first.width, height: first.height, minimum: 64)
        }
        if first.format.isBayer {
            throw .unsupportedFormat(first.format, operation: "stabilisation", allowed: "RGB or Y′CbCr frames")
        }
        let threads = settings.threadCount
        let factor = max(1, Int((Double(first.width) / Double(settings.analysisWidth)).rounded(.up)))
        let aligner = {
            var a = TileAligner.Settings.standard
            a.threads = 1
            a.maximumDisplacement = 0.1
            return a
        }()
        // Frame-to-frame motion on reduced greys. Each motion needs only its two frames: the pairs are split into
        // runs of consecutive pairs measured side by side, one thread each (a reduced frame is too small to split
        // well), at the cost of one more reference frame per run.
        let measured = Mutex([GlobalMotion?](repeating: nil, count: frames.count - 1))
        Parallel.forEachBand(frames.count - 1, threads: threads, minimumBand: 4, bandsPerThread: 2) { pairs in
            var run: [GlobalMotion] = []
            var previous: AlignmentReference? = nil
            for i in pairs.lowerBound...pairs.upperBound {
                let grey = LumaReader.grey(frames[i], factor: factor, threads: 1)
                if let ref = previous {
                    let field = ref.align(ref.pyramid(of: grey)).scaled(by: factor)
                    run.append(GlobalMotion(fitting: field, model: settings.model))
                }
                guard i < pairs.upperBound else { break }
                let noise = GreyNoise(scale: 0, offset: max(NoiseEstimate.variance(grey, channel: 0), 1e-8))
                previous = AlignmentReference(grey: grey, settings: aligner, noise: noise)
            }
            measured.withLock { $0.replaceSubrange(pairs, with: run) }
        }
        let motions = measured.withLock { $0.map { $0! } }
        return try plan(motions: motions, width: first.width, height: first.height)
    }

    /// Smooths a camera path given as frame-to-frame motions (measured by ``plan(_:)`` earlier, or known from
    /// motion sensors) for frames of `width × height`.
    ///
    /// Use it to re-plan with other ``Settings/smoothing`` or ``Settings/crop`` without measuring again:
    /// `stabilizer.plan(motions: first.frameMotions, width: w, height: h)`.
    ///
    /// - Parameter motions: For each frame after the first, the ``GlobalMotion`` from the previous frame (its
    ///   transform maps the previous frame's coordinates to this frame's).
    /// - Throws: ``FusionError`` for bad settings, frames smaller than 64 pixels or a non-invertible motion.
    public func plan(motions: [GlobalMotion], width: Int, height: Int) throws(FusionError) -> Plan {
        try settings.validate()
        guard width >= 64, height >= 64 else { throw .imageTooSmall(width: width, height: height, minimum: 64) }
        for (i, m) in motions.enumerated() where m.transform.inverted == nil {
            throw .invalidParameter(name: "motions[\(i)]", value: "\(m.transform)", allowed: "an invertible transform")
        }
        let frameCount = motions.count + 1
        // Camera path: frame 0 → frame i.
        var path = [AffineTransform.identity]
        for m in motions { path.append(path[path.count - 1].concatenating(m.transform)) }
        let centre = SIMD2(Double(width) / 2, Double(height) / 2)
        let parameters = path.map { PathParameters($0, centre: centre) }
        let smooth = PathParameters.smoothed(parameters, sigma: settings.smoothing)
        // Corrections inside the crop.
        let ow = max(1, Int((Double(width) * (1 - settings.crop)).rounded()))
        let oh = max(1, Int((Double(height) * (1 - settings.crop)).rounded()))
        let crop = AffineTransform(
            translationX: Double(width - ow) / 2, y: Double(height - oh) / 2)
        var transforms: [AffineTransform] = []
        var kept: [Double] = []
        for i in 0..<frameCount {
            func transform(_ alpha: Double) -> AffineTransform? {
                let s = PathParameters.mix(parameters[i], smooth[i], alpha).transform(centre: centre)
                guard let inverse = s.inverted else { return nil }
                return crop.concatenating(inverse).concatenating(path[i])
            }
            var alpha = 1.0
            if !Self.fits(transform(1), ow, oh, width, height) {
                var lo = 0.0
                var hi = 1.0
                for _ in 0..<20 {
                    let mid = (lo + hi) / 2
                    if Self.fits(transform(mid), ow, oh, width, height) { lo = mid } else { hi = mid }
                }
                alpha = lo
            }
            transforms.append(transform(alpha) ?? crop)
            kept.append(alpha)
        }
        return Plan(
            outputWidth: ow, outputHeight: oh, transforms: transforms, cameraPath: path, frameMotions: motions,
            correctionKept: kept)
    }

    /// Whether the crop's corners map inside the frame.
    static func fits(_ t: AffineTransform?, _ ow: Int, _ oh: Int, _ w: Int, _ h: Int) -> Bool {
        guard let t else { return false }
        for (x, y) in [(0.0, 0.0), (Double(ow), 0), (0, Double(oh)), (Double(ow), Double(oh))] {
            let p = t.apply(to: Point(x: x, y: y))
            if p.x < 0 || p.y < 0 || p.x > Double(w - 1) || p.y > Double(h - 1) { return false }
        }
        return true
    }

    /// Warps every frame by its plan transform into the crop (bilinear in linear light, edges clamped), keeping the
    /// frames' format and colour space.
    ///
    /// Each frame is rendered from ``stabilized(_:at:plan:)`` by a ``LuxRender/RenderContext`` on
    /// ``Settings/threads`` threads.
    ///
    /// - Throws: ``FusionError`` when the plan does not match the frames or a frame cannot be rendered (Bayer).
    public func render(_ frames: [PixelBuffer], plan: Plan) throws(FusionError) -> [PixelBuffer] {
        guard frames.count == plan.transforms.count else {
            throw .invalidParameter(
                name: "plan", value: "\(plan.transforms.count) transforms", allowed: "one per frame (\(frames.count))")
        }
        let context = RenderContext(options: RenderOptions(cacheIntermediates: false, threadCount: settings.threads))
        var out: [PixelBuffer] = []
        out.reserveCapacity(frames.count)
        for (i, frame) in frames.enumerated() {
            let image = try stabilized(Image(buffer: frame), at: i, plan: plan)
            do {
                var b = try context.createBuffer(image, format: frame.format, colorSpace: frame.colorSpace)
                b.metadata = frame.metadata
                out.append(b)
            } catch {
                throw .rendering(error)
            }
        }
        return out
    }

    /// Plans and renders in one call.
    public func stabilize(_ frames: [PixelBuffer]) throws(FusionError) -> (frames: [PixelBuffer], plan: Plan) {
        let p = try plan(frames)
        return (try render(frames, plan: p), p)
    }
}

/// A similarity about a centre as translation, rotation and log-scale (for smoothing camera paths).
struct PathParameters {
    var t: SIMD2<Double>
    var angle: Double
    var logScale: Double

    init(t: SIMD2<Double>, angle: Double, logScale: Double) {
        self.t = t
        self.angle = angle
        self.logScale = logScale
    }

    /// Decomposes `m` (its linear part read as a similarity) about `centre`.
    init(_ m: AffineTransform, centre: SIMD2<Double>) {
        angle = Double.atan2(y: m.b - m.c, x: m.a + m.d)
        let s = ((m.a * m.d - m.b * m.c).magnitude).squareRoot()
        logScale = Double.log(max(s, 1e-9))
        let q = m.apply(to: Point(x: centre.x, y: centre.y))
        t = SIMD2(q.x - centre.x, q.y - centre.y)
    }

    /// The similarity `p ↦ s·R·(p − centre) + centre + t`.
    func transform(centre: SIMD2<Double>) -> AffineTransform {
        let s = Double.exp(logScale)
        let a = s * Double.cos(angle)
        let b = s * Double.sin(angle)
        return AffineTransform(
            a: a, b: b, c: -b, d: a, tx: centre.x + t.x - (a * centre.x - b * centre.y),
            ty: centre.y + t.y - (b * centre.x + a * centre.y))
    }

    static func mix(_ a: PathParameters, _ b: PathParameters, _ alpha: Double) -> PathParameters {
        PathParameters(
            t: a.t + (b.t - a.t) * alpha, angle: a.angle + (b.angle - a.angle) * alpha,
            logScale: a.logScale + (b.logScale - a.logScale) * alpha)
    }

    /// Gaussian smoothing over time (`sigma` frames).
    ///
    /// Beyond the ends the path is reflected through its end points (`p(−k) = 2·p(0) − p(k)`), so a steady pan stays a
    /// steady pan up to the last frame.
    static func smoothed(_ p: [PathParameters], sigma: Double) -> [PathParameters] {
        guard sigma > 0, p.count > 1 else { return p }
        let n = p.count
        let r = Int((3 * sigma).rounded(.up))
        func at(_ j: Int) -> PathParameters {
            if j < 0 { return mix(p[0], p[min(-j, n - 1)], -1) }
            if j >= n { return mix(p[n - 1], p[max(2 * (n - 1) - j, 0)], -1) }
            return p[j]
        }
        return p.indices.map { i in
            var sum = PathParameters(t: .zero, angle: 0, logScale: 0)
            var wsum = 0.0
            for j in (i - r)...(i + r) {
                let d = Double(j - i)
                let w = Double.exp(-d * d / (2 * sigma * sigma))
                let q = at(j)
                sum.t += q.t * w
                sum.angle += q.angle * w
                sum.logScale += q.logScale * w
                wsum += w
            }
            return PathParameters(t: sum.t / wsum, angle: sum.angle / wsum, logScale: sum.logScale / wsum)
        }
    }
}
