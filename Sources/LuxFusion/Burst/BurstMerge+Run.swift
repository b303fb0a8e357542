import LuxPixels

extension BurstMerge {
    func run(_ frames: [PixelBuffer], rawModel: RawNoiseModel?, noise: NoiseProfile?, pool: BufferPool?)
        throws(FusionError) -> Result
    {
        guard !frames.isEmpty else { throw .notEnoughFrames(count: 0, minimum: 1) }
        try settings.validate(frameCount: frames.count)
        let input = try FusionInput(frames: frames, rawModel: rawModel, noise: noise, operation: "burst merge")
        let threads = settings.threadCount
        var alignment = settings.alignment
        alignment.threads = threads

        // Reference: a given frame, or the sharpest of the first few.
        var greys: [Int: PlanarBuffer<Float>] = [:]
        let referenceIndex: Int
        switch settings.reference {
        case .index(let i): referenceIndex = i
        case .sharpest(let n):
            let candidates = 0..<min(n, frames.count)
            var best = 0
            var bestEnergy = -Double.infinity
            for k in candidates {
                let g = input.readers[k].grey(threads: threads)
                greys[k] = g
                let e = candidates.count > 1 ? Self.gradientEnergy(g) : 0
                if e > bestEnergy {
                    bestEnergy = e
                    best = k
                }
            }
            referenceIndex = best
        }
        let referenceGrey = greys[referenceIndex] ?? input.readers[referenceIndex].grey(threads: threads)
        var fields = [AlignmentField?](repeating: nil, count: frames.count)
        if frames.count > 1 {
            let prepared = AlignmentReference(grey: referenceGrey, settings: alignment, noise: input.greyNoise)
            for k in frames.indices where k != referenceIndex {
                let grey = greys.removeValue(forKey: k) ?? input.readers[k].grey(threads: threads)
                fields[k] = prepared.align(prepared.pyramid(of: grey))
            }
        }

        // Output buffer.
        let first = frames[0]
        let outFormat: PixelFormat = input.isBayer ? .bayer16(first.format.cfaPattern!) : first.format
        var output = try FusionInput.outputBuffer(
            format: outFormat, width: first.width, height: first.height, pool: pool)
        output.colorSpace = first.colorSpace
        output.metadata = frames[referenceIndex].metadata

        let kernel = MergeKernel(
            input: input, reference: referenceIndex,
            alternates: frames.indices.compactMap { k in fields[k].map { (input.readers[k], $0) } },
            resample: settings.variant == .full, robustness: Float(settings.robustness),
            blackLevel: Float(Self.outputBlackLevel))
        let stats = kernel.run(into: output, threads: threads)

        var rejected = [Double](repeating: 0, count: frames.count)
        var altIndex = 0
        for k in frames.indices where fields[k] != nil {
            rejected[k] = stats.rejected[altIndex]
            altIndex += 1
        }
        let mean = frames.count > 1 ? rejected.reduce(0, +) / Double(frames.count - 1) : 0
        var outNoise: NoiseProfile
        var outModel: RawNoiseModel? = nil
        if let rawModel {
            outNoise = rawModel.noise.averaged(over: stats.effectiveFrameCount)
            outModel = RawNoiseModel(blackLevel: Self.outputBlackLevel, whiteLevel: 65535, noise: outNoise)
        } else {
            let p = input.planeNoise
            outNoise = NoiseProfile(
                red: .init(scale: Double(p[0].scale), offset: Double(p[0].offset)),
                green: .init(scale: Double(p[1].scale), offset: Double(p[1].offset)),
                blue: .init(scale: Double(p[2].scale), offset: Double(p[2].offset))
            ).averaged(over: stats.effectiveFrameCount)
        }
        return Result(
            output: output, rawModel: outModel, noise: outNoise, referenceIndex: referenceIndex,
            alignments: fields.map { $0?.scaled(by: input.pixelScale) }, rejectedFractions: rejected,
            rejectedFraction: mean, effectiveFrameCount: stats.effectiveFrameCount)
    }

    /// The mean squared gradient of a grey image (a sharpness measure; noise adds the same amount to every frame).
    static func gradientEnergy(_ g: PlanarBuffer<Float>) -> Double {
        var total = 0.0
        for y in stride(from: 1, to: g.height - 1, by: 2) {
            let up = g.row(0, y - 1)
            let mid = g.row(0, y)
            let down = g.row(0, y + 1)
            var s: Float = 0
            for x in 1..<(g.width - 1) {
                let gx = mid[x + 1] - mid[x - 1]
                let gy = down[x] - up[x]
                s += gx * gx + gy * gy
            }
            total += Double(s)
        }
        return total
    }
}
