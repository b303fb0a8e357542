import LuxRender

/// The two passes of a separable symmetric blur inside one processor call.
enum SeparableBlur {
    struct RegionMismatch: Error, CustomStringConvertible {
        let description: String
    }

    static func run(input: ImageProcessorInput, output: ImageProcessorOutput, weights: [Float], radius r: Int) throws {
        let w = output.width
        let h = output.height
        guard Int(output.region.minX - input.region.minX) == r, Int(output.region.minY - input.region.minY) == r,
            input.width == w + 2 * r, input.height == h + 2 * r
        else {
            throw RegionMismatch(
                description: "blur input \(input.region) does not surround output \(output.region) by \(r)")
        }
        // Opaque regions (alpha exactly 1 everywhere) skip the alpha channel: a quarter of the work. Each loaded
        // row's alpha is checked as it arrives; the alpha plane is only allocated and filtered from the first
        // row that is not opaque.
        let inW = w + 2 * r
        // Planar scratch: one input row as four planes, then three colour planes of (h + 2r) × w after the
        // horizontal pass, then two planar output rows of one column block; the alpha plane (and a row of ones)
        // on demand.
        let rowStride = (w + 15) & ~15
        let planeFloats = rowStride * (h + 2 * r)
        let scratch = output.scratch(byteCount: 4 * (4 * inW + 3 * planeFloats + 8 * 64))
            .assumingMemoryBound(to: Float.self)
        let line = scratch
        let tmp = scratch + 4 * inW
        let outLine = tmp + 3 * planeFloats
        var alphaPlane: UnsafeMutablePointer<Float>?
        weights.withUnsafeBufferPointer { wp in
            let wt = wp.baseAddress!
            for j in 0..<(h + 2 * r) {
                ProcessorRows.load(input, row: j, count: inW, into: line, stride: inW, planes: 4)
                for c in 0..<3 {
                    symmetricFIR(
                        line + c * inW + r, step: 1, weights: wt, radius: r,
                        into: tmp + c * planeFloats + j * rowStride, count: w)
                }
                if alphaPlane == nil, ProcessorRows.alphaBits(line + 3 * inW, inW) != 0 {
                    let a = output.scratch(byteCount: 4 * (planeFloats + inW)).assumingMemoryBound(to: Float.self)
                    if j > 0 {
                        // The rows before were opaque: their filtered alpha is the filtered row of ones.
                        let ones = a + planeFloats
                        ones.update(repeating: 1, count: inW)
                        symmetricFIR(ones + r, step: 1, weights: wt, radius: r, into: a, count: w)
                        for k in 1..<j { (a + k * rowStride).update(from: a, count: w) }
                    }
                    alphaPlane = a
                }
                if let a = alphaPlane {
                    symmetricFIR(line + 3 * inW + r, step: 1, weights: wt, radius: r, into: a + j * rowStride, count: w)
                }
            }
            // The vertical pass in column blocks, two rows at a time: the blocks' windows of 2r + 2 rows in every
            // plane stay in a 32 KB L1 cache while the block moves down, and each input row is loaded once for both
            // output rows.
            let planes = alphaPlane == nil ? 3 : 4
            let block = r > 12 ? 32 : 64
            let pairLine = outLine + 4 * block
            for x0 in stride(from: 0, to: w, by: block) {
                let n = min(block, w - x0)
                var y = 0
                while y < h {
                    let pair = y + 1 < h
                    for c in 0..<planes {
                        let plane = (c < 3 ? tmp + c * planeFloats : alphaPlane!) + (y + r) * rowStride + x0
                        if pair {
                            symmetricFIRPair(
                                plane, step: rowStride, weights: wt, radius: r, into: outLine + c * block,
                                and: pairLine + c * block, count: n)
                        } else {
                            symmetricFIR(
                                plane, step: rowStride, weights: wt, radius: r, into: outLine + c * block, count: n)
                        }
                    }
                    ProcessorRows.interleave(outLine, block, n, planes, into: output.row(y, as: Float.self) + 4 * x0)
                    if pair {
                        ProcessorRows.interleave(
                            pairLine, block, n, planes, into: output.row(y + 1, as: Float.self) + 4 * x0)
                    }
                    y += 2
                }
            }
        }
    }
}
