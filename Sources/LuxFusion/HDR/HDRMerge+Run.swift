import LuxPixels

extension HDRMerge {
    func run(_ brackets: [Bracket], rawModel: RawNoiseModel?) throws(FusionError) -> Result {
        guard !brackets.isEmpty else { throw .notEnoughFrames(count: 0, minimum: 1) }
        for (i, b) in brackets.enumerated() {
            guard b.exposure.isFinite, b.exposure > 0 else {
                throw .invalidParameter(
                    name: "brackets[\(i)] exposure", value: "\(b.exposureDuration) at ISO \(b.iso)",
                    allowed: "a positive duration and ISO")
            }
            if let n = b.noise { try n.validate("brackets[\(i)].noise") }
        }
        guard settings.saturationLevel > 0.1, settings.saturationLevel <= 1 else {
            throw .invalidParameter(
                name: "saturationLevel", value: "\(settings.saturationLevel)", allowed: "0.1…1 (of the white level)")
        }
        guard settings.robustness >= 0.1, settings.robustness <= 10 else {
            throw .invalidParameter(name: "robustness", value: "\(settings.robustness)", allowed: "0.1…10")
        }
        try settings.alignment?.validate()
        let frames = brackets.map(\.frame)
        let input = try FusionInput(
            frames: frames, rawModel: rawModel, noise: brackets[0].noise, operation: "HDR merge")
        let threads = settings.threadCount
        let exposures = brackets.map(\.exposure)
        let reference: Int
        if let r = settings.reference {
            guard brackets.indices.contains(r) else {
                throw .invalidParameter(name: "reference", value: "\(r)", allowed: "0..<\(brackets.count)")
            }
            reference = r
        } else {
            reference = brackets.indices.sorted { exposures[$0] < exposures[$1] }[(brackets.count - 1) / 2]
        }
        // Each bracket's plane noise.
        let planeNoise: [[(scale: Float, offset: Float)]] = brackets.indices.map { k in
            if let n = brackets[k].noise {
                let channels: [CFAPattern.Channel] =
                    input.isBayer ? frames[0].format.cfaPattern!.quadChannels : [.red, .green, .blue]
                return channels.map { (Float(n[$0].scale), Float(n[$0].offset)) }
            }
            if input.isBayer || k == 0 { return input.planeNoise }
            return NoiseEstimate.profiles(input.readers[k])
        }

        // Alignment on exposure-normalised grey images clipped to the range both frames hold.
        var fields = [AlignmentField?](repeating: nil, count: brackets.count)
        if var alignment = settings.alignment, brackets.count > 1 {
            alignment.threads = threads
            let sat = Float(settings.saturationLevel)
            for k in brackets.indices where k != reference {
                // Values (per channel) both frames hold: up to where the brighter-exposed one clips.
                let scale = Float(exposures[reference] / exposures[k])
                let clip = sat * min(1, scale)
                let a = input.readers[reference].grey(threads: threads, clip: clip)
                let b = input.readers[k].grey(threads: threads, scale: scale, clip: clip)
                var noise = input.greyNoise
                let n = Float(planeNoise[k].count)
                let ks = planeNoise[k].reduce(0) { $0 + $1.scale } / (n * n) * scale
                let ko = planeNoise[k].reduce(0) { $0 + $1.offset } / (n * n) * scale * scale
                noise = GreyNoise(scale: max(noise.scale, ks), offset: max(noise.offset, ko))
                let prepared = AlignmentReference(grey: a, settings: alignment, noise: noise)
                fields[k] = prepared.align(prepared.pyramid(of: b))
            }
        }

        let first = frames[0]
        var output = PixelBuffer(
            width: first.width, height: first.height, format: input.isBayer ? .grayFloat : .rgbaFloat,
            colorSpace: first.colorSpace, metadata: frames[reference].metadata)
        if let p = first.format.cfaPattern { output.metadata["cfaPattern"] = .string(p.rawValue) }
        let kernel = HDRKernel(
            input: input, reference: reference, fields: fields, exposures: exposures, planeNoise: planeNoise,
            saturation: Float(settings.saturationLevel), rejectsMotion: settings.rejectsMotion,
            robustness: Float(settings.robustness), resample: true)
        let stats = kernel.run(into: output, threads: threads)
        return Result(
            output: output, cfaPattern: first.format.cfaPattern, referenceIndex: reference,
            alignments: fields.map { $0?.scaled(by: input.pixelScale) }, rejectedFractions: stats.rejected,
            clippedFraction: stats.clipped)
    }
}
