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

    init(frames: [PixelBuffer], rawModel: RawNoiseModel?, noise: NoiseProfile?, operation: String) throws(FusionError) {
        guard let first = frames.first else { throw .notEnoughFrames(count: 0, minimum: 1) }
        for (i, f) in frames.enumerated().dropFirst()
        where f.format != first.format || f.width != first.width || f.height != first.height {
            throw .mismatchedFrame(
                index: i, expected: "\(first.format) \(first.width)×\(first.height)",
                found: "\(f.format) \(f.width)×\(f.height)")
        }
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
                let estimate = NoiseEstimate.planes(readers[0])
                planeNoise = estimate.map { (0, max($0, 1e-10)) }
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
    static func variance(_ image: PlanarImage, channel c: Int) -> Float {
        var samples: [Float] = []
        let rowStep = max(1, image.height / 256)
        samples.reserveCapacity((image.height / rowStep + 1) * image.width)
        var y = 1
        while y < image.height - 1 {
            let r = image.row(c, y)
            for x in 1..<(image.width - 1) { samples.append(abs(r[x - 1] - 2 * r[x] + r[x + 1])) }
            y += rowStep
        }
        guard !samples.isEmpty else { return 0 }
        let k = samples.count / 2
        samples.withUnsafeMutableBufferPointer { select($0, k) }
        let sigma = 1.4826 * samples[k] / 2.449_489_7
        return sigma * sigma
    }

    /// Per-plane variance estimates of a frame (read at full resolution).
    static func planes(_ reader: FrameReader) -> [Float] {
        let image = PlanarImage(width: reader.width, height: reader.height, channels: reader.channels)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: FrameReader.scratchCount(forRowOf: reader.width))
        defer { scratch.deallocate() }
        for y in 0..<reader.height {
            reader.read(
                x: 0, y: y, width: reader.width, height: 1, into: image.row(0, y),
                planeStride: image.stride * image.height, rowStride: image.stride, scratch: scratch)
        }
        return (0..<reader.channels).map { variance(image, channel: $0) }
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
