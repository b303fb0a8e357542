import LuxPixels

/// Validated frames of one fusion call, with readers and the noise of each merge plane.
struct FusionInput {
    let readers: [FrameReader]
    let isBayer: Bool
    /// Photosites per merge pixel along each axis (2 for Bayer quads, 1 for RGB).
    let pixelScale: Int
    /// Noise (S, O) of each merge plane (quad sites for Bayer, R G B otherwise), in normalised units.
    let planeNoise: [(scale: Float, offset: Float)]
    let format: PixelFormat
    let width: Int
    let height: Int

    /// The smallest side the fusion operations accept, in merge pixels.
    static let minimumSide = 16

    /// The first of `frames`, after checking there is one and that the others have its size and format.
    static func checkAlike(_ frames: [PixelBuffer]) throws(FusionError) -> PixelBuffer {
        guard let first = frames.first else { throw .notEnoughFrames(count: 0, minimum: 1) }
        for (i, f) in frames.enumerated().dropFirst()
        where f.format != first.format || f.width != first.width || f.height != first.height {
            throw .mismatchedFrame(
                index: i, expected: "\(first.format) \(first.width)×\(first.height)",
                found: "\(f.format) \(f.width)×\(f.height)")
        }
        return first
    }

    /// An output buffer from `pool` (typed error when it is exhausted) or a fresh allocation.
    static func outputBuffer(format: PixelFormat, width: Int, height: Int, pool: BufferPool?) throws(FusionError)
        -> PixelBuffer
    {
        guard let pool else { return PixelBuffer(width: width, height: height, format: format) }
        do {
            return try pool.buffer(format: format, width: width, height: height)
        } catch {
            throw .pixels(error)
        }
    }

    init(frames: [PixelBuffer], rawModel: RawNoiseModel?, noise: NoiseProfile?, operation: String) throws(FusionError) {
        let first = try Self.checkAlike(frames)
        format = first.format
        if let pattern = first.format.cfaPattern {
            guard let rawModel else {
                throw .invalidParameter(
                    name: "rawModel", value: "nil", allowed: "the black/white levels and noise of the Bayer frames")
            }
            try rawModel.validate(for: first.format)
            guard first.width % 2 == 0, first.height % 2 == 0 else {
                throw .invalidParameter(
                    name: "frame size", value: "\(first.width)×\(first.height)",
                    allowed: "even width and height for Bayer frames")
            }
            isBayer = true
            pixelScale = 2
            readers = frames.map { FrameReader(bayer: $0, model: rawModel) }
            planeNoise = pattern.quadChannels.map { ch in
                let c = rawModel.noise[ch]
                return (Float(c.scale), Float(c.offset))
            }
        } else {
            guard FrameReader.rgbFormats.contains(first.format) else {
                throw .unsupportedFormat(
                    first.format, operation: operation,
                    allowed: "linear RGB (RGBAf, RGBAh, RGBA16) or Bayer (Bayer14, Bayer16) frames")
            }
            isBayer = false
            pixelScale = 1
            readers = frames.map { FrameReader(rgb: $0) }
            if let noise {
                try noise.validate("noise")
                planeNoise = [noise.red, noise.green, noise.blue].map { (Float($0.scale), Float($0.offset)) }
            } else {
                planeNoise = NoiseEstimate.profiles(readers[0])
            }
        }
        width = readers[0].width
        height = readers[0].height
        guard width >= Self.minimumSide, height >= Self.minimumSide else {
            throw .imageTooSmall(
                width: first.width, height: first.height, minimum: Self.minimumSide * pixelScale)
        }
    }

    /// The noise variance of the grey image (mean of the planes) at grey level `m`.
    var greyNoise: GreyNoise {
        let n = Float(planeNoise.count)
        let s = planeNoise.reduce(0) { $0 + $1.scale } / (n * n)
        let o = planeNoise.reduce(0) { $0 + $1.offset } / (n * n)
        return GreyNoise(scale: s, offset: o)
    }
}

/// The noise variance of a grey image as a function of its level: `scale·max(m, 0) + offset`.
struct GreyNoise: Sendable {
    var scale: Float
    var offset: Float
    @inline(__always)
    func variance(at m: Float) -> Float { scale * max(m, 0) + offset }
}

/// Robust noise estimates from image data, for frames that come without a noise profile.
enum NoiseEstimate {
    /// The variance of white noise in `plane`, from the median absolute second difference along rows
    /// (σ = 1.4826·median|d| / √6 for d = x₋₁ − 2x₀ + x₁); texture inflates it little because the median ignores
    /// the edges.
    static func variance(_ image: PlanarBuffer<Float>, channel c: Int) -> Float {
        // Rows 1, 1 + step, … before the last, each written whole into the samples.
        let rowStep = max(1, image.height / 256)
        let inner = image.width - 2
        guard image.height > 2, inner > 0 else { return 0 }
        let rowCount = (image.height - 2 + rowStep - 1) / rowStep
        var samples = [Float](unsafeUninitializedCapacity: rowCount * inner) { buffer, count in
            var o = buffer.baseAddress!
            var y = 1
            while y < image.height - 1 {
                let r = image.row(c, y)
                for x in 1...inner { o[x - 1] = abs(r[x - 1] - 2 * r[x] + r[x + 1]) }
                o += inner
                y += rowStep
            }
            count = rowCount * inner
        }
        let k = samples.count / 2
        samples.withUnsafeMutableBufferPointer { select($0, k) }
        let sigma = 1.4826 * samples[k] / 2.449_489_7
        return sigma * sigma
    }

    /// A frame read into planes at full resolution.
    static func planar(_ reader: FrameReader) -> PlanarBuffer<Float> {
        let image = PlanarBuffer<Float>(width: reader.width, height: reader.height, planes: reader.channels)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: FrameReader.scratchCount(forRowOf: reader.width))
        defer { scratch.deallocate() }
        for y in 0..<reader.height {
            reader.read(
                x: 0, y: y, width: reader.width, height: 1, into: image.row(0, y),
                planeStride: image.rowStride * image.height, rowStride: image.rowStride, scratch: scratch)
        }
        return image
    }

    /// Per-plane Poisson–Gaussian noise `S·x + O` estimated from one frame.
    ///
    /// A simplified form of Foi et al. 2008: pixels are binned by their local 3×3 mean, each bin's noise variance is
    /// the robust (median) estimate from second differences along rows, and a line is fitted through the bins,
    /// weighted by their populations. Texture adds to a bin's estimate, so the medians keep it from dominating.
    static func profiles(_ reader: FrameReader) -> [(scale: Float, offset: Float)] {
        let image = planar(reader)
        return (0..<reader.channels).map { c in profile(image, channel: c) }
    }

    static func profile(_ image: PlanarBuffer<Float>, channel c: Int) -> (scale: Float, offset: Float) {
        let bins = 16
        var levels: [[Float]] = Array(repeating: [], count: bins)
        var residuals: [[Float]] = Array(repeating: [], count: bins)
        let rowStep = max(1, image.height / 512)
        var samples: [(Float, Float)] = []
        var y = 1
        while y < image.height - 1 {
            let up = image.row(c, y - 1)
            let r = image.row(c, y)
            let down = image.row(c, y + 1)
            for x in 1..<(image.width - 1) {
                let mean =
                    (up[x - 1] + up[x] + up[x + 1] + r[x - 1] + r[x] + r[x + 1] + down[x - 1] + down[x] + down[x + 1])
                    / 9
                samples.append((mean, abs(r[x - 1] - 2 * r[x] + r[x + 1])))
            }
            y += rowStep
        }
        guard !samples.isEmpty else { return (0, 1e-10) }
        let means = samples.map(\.0).sorted()
        let lo = means[means.count / 100]
        let hi = means[means.count * 99 / 100]
        guard hi > lo else {
            return (0, max(variance(image, channel: c), 1e-10))
        }
        for (m, d) in samples {
            let b = min(max(Int((m - lo) / (hi - lo) * Float(bins)), 0), bins - 1)
            levels[b].append(m)
            residuals[b].append(d)
        }
        var xs: [Double] = []
        var vs: [Double] = []
        var ws: [Double] = []
        for b in 0..<bins where residuals[b].count >= 50 {
            var r = residuals[b]
            let k = r.count / 2
            r.withUnsafeMutableBufferPointer { select($0, k) }
            let sigma = 1.4826 * r[k] / 2.449_489_7
            xs.append(Double(levels[b].reduce(0, +)) / Double(levels[b].count))
            vs.append(Double(sigma * sigma))
            ws.append(Double(residuals[b].count))
        }
        guard xs.count >= 2 else { return (0, max(variance(image, channel: c), 1e-10)) }
        // Weighted least squares v = S·x + O, then clamp to the allowed range.
        let sw = ws.reduce(0, +)
        let mx = zip(xs, ws).map { $0 * $1 }.reduce(0, +) / sw
        let mv = zip(vs, ws).map { $0 * $1 }.reduce(0, +) / sw
        var sxx = 0.0
        var sxv = 0.0
        for i in xs.indices {
            sxx += ws[i] * (xs[i] - mx) * (xs[i] - mx)
            sxv += ws[i] * (xs[i] - mx) * (vs[i] - mv)
        }
        var slope = sxx > 0 ? max(sxv / sxx, 0) : 0
        var offset = mv - slope * mx
        if offset < 1e-10 {
            // Keep the line through the data's mean with a non-negative offset.
            offset = max(offset, 1e-10)
            slope = max((mv - offset) / max(mx, 1e-10), 0)
        }
        return (Float(slope), Float(offset))
    }

    /// Moves the `k`-th smallest value to index `k` (quickselect).
    static func select(_ a: UnsafeMutableBufferPointer<Float>, _ k: Int) {
        var lo = 0
        var hi = a.count - 1
        while lo < hi {
            let pivot = a[(lo + hi) / 2]
            var i = lo
            var j = hi
            while i <= j {
                while a[i] < pivot { i += 1 }
                while a[j] > pivot { j -= 1 }
                if i <= j {
                    a.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return }
        }
    }
}
