import CLuxKernels
import LuxPixels

/// The sub-pixel step of an alignment: each finest-level block's whole-pixel displacement refined by a quadratic fit of
/// its L2 cost surface and then Lucas–Kanade iterations, with a confidence from the block's structure tensor.
struct SubpixelRefinement: Sendable {
    /// The finest level.
    let level: AlignmentLevelPlan
    /// The reference's finest level.
    let reference: PlanarBuffer<Float>
    /// The reference's finest blocks.
    let blocks: BlockStructure
    /// See ``AlignmentPlan/gradientNoiseFactor``.
    let gradientNoiseFactor: Float
    /// Whether displacements are refined below a pixel (otherwise only the confidences are computed).
    let refinesToSubpixel: Bool
    /// Lucas–Kanade iterations after the quadratic fit.
    let iterations: Int
    let threads: Int

    /// The refined displacement and the confidence of every finest block, from what `search` found in `alternate`'s
    /// finest level.
    func run(_ search: TileSearch.Result, alternate: PlanarBuffer<Float>) -> (
        displacements: [SIMD2<Float>], confidences: [Float]
    ) {
        let p0 = level
        var displacements = [SIMD2<Float>](repeating: .zero, count: p0.columns * p0.rows)
        var confidences = [Float](repeating: 0, count: p0.columns * p0.rows)
        displacements.withUnsafeMutableBufferPointer { dBuffer in
            confidences.withUnsafeMutableBufferPointer { cBuffer in
                let dOut = SendablePointer(dBuffer.baseAddress!)
                let cOut = SendablePointer(cBuffer.baseAddress!)
                Parallel.forEachBand(p0.rows, threads: threads, minimumBand: 1) { rows in
                    for j in rows {
                        for i in 0..<p0.columns {
                            let index = j * p0.columns + i
                            let known = search.costGrid.withUnsafeBufferPointer { g in
                                SIMD16<Float>(
                                    g[9 * index], g[9 * index + 1], g[9 * index + 2], g[9 * index + 3],
                                    g[9 * index + 4], g[9 * index + 5], g[9 * index + 6], g[9 * index + 7],
                                    g[9 * index + 8], 0, 0, 0, 0, 0, 0, 0)
                            }
                            let (d, confidence) = refine(
                                i, j, search.displacements[index], alt: alternate, known: known,
                                knownCentre: search.starts[index])
                            dOut.pointer[index] = d
                            cOut.pointer[index] = confidence
                        }
                    }
                }
            }
        }
        return (displacements, confidences)
    }

    /// The sub-pixel displacement and confidence of finest block `(i, j)`, starting from integer `d`.
    ///
    /// `known` holds the L2 costs of the 3×3 offsets around `knownCentre` (row by row), reused where they overlap.
    func refine(
        _ i: Int, _ j: Int, _ d: SIMD2<Int32>, alt: PlanarBuffer<Float>, known: SIMD16<Float>, knownCentre: SIMD2<Int32>
    ) -> (SIMD2<Float>, Float) {
        let p0 = level
        let ref = reference
        let t = p0.tile(i, j)
        let dx = Int(d.x)
        let dy = Int(d.y)
        // Quadratic fit of the 3×3 L2 costs: c(u, v) = A·u² + B·v² + C·u·v + D·u + E·v + F.
        let index = j * p0.columns + i
        let tensor = blocks.tensors[index]
        let sigma2 = blocks.noise[index]
        let count = tensor.w
        // Confidence: the smaller eigenvalue of the structure tensor, less its expected noise part.
        let half = (tensor.x + tensor.z) / 2
        let diff = (tensor.x - tensor.z) / 2
        let gradientNoise = count * sigma2 * gradientNoiseFactor
        let lambdaMin = max(half - (diff * diff + tensor.y * tensor.y).squareRoot() - gradientNoise, 0)
        let confidence = count > 0 ? lambdaMin / (lambdaMin + 2 * gradientNoise + 1e-20) : 0
        guard refinesToSubpixel else { return (SIMD2(Float(dx), Float(dy)), confidence) }

        var c = SIMD16<Float>()
        for v in -1...1 {
            for u in -1...1 {
                let ku = dx + u - Int(knownCentre.x)
                let kv = dy + v - Int(knownCentre.y)
                c[(v + 1) * 3 + u + 1] =
                    abs(ku) <= 1 && abs(kv) <= 1
                    ? known[(kv + 1) * 3 + ku + 1] : TileCost.cost(ref, alt, t, dx + u, dy + v, l1: false)
            }
        }
        var s0: Float = 0
        var su: Float = 0
        var sv: Float = 0
        var sU: Float = 0
        var sV: Float = 0
        var sUV: Float = 0
        for v in -1...1 {
            for u in -1...1 {
                let value = c[(v + 1) * 3 + u + 1]
                let fu = Float(u)
                let fv = Float(v)
                s0 += value
                su += fu * fu * value
                sv += fv * fv * value
                sU += fu * value
                sV += fv * value
                sUV += fu * fv * value
            }
        }
        let sumAB = (su + sv) / 2 - s0 * (2.0 / 3.0)
        let a = (sumAB + (su - sv) / 2) / 2
        let b = (sumAB - (su - sv) / 2) / 2
        let cc = sUV / 4
        let dd = sU / 6
        let ee = sV / 6
        var sub = SIMD2<Float>.zero
        let det = 4 * a * b - cc * cc
        if a > 0, b > 0, det > 1e-12 * max(1, a * b) {
            sub = SIMD2((-dd * 2 * b + ee * cc) / det, (-ee * 2 * a + dd * cc) / det)
        } else {
            // Separable parabolas where the surface is not a bowl.
            let cx = c[3] - 2 * c[4] + c[5]
            let cy = c[1] - 2 * c[4] + c[7]
            if cx > 0 { sub.x = (c[3] - c[5]) / (2 * cx) }
            if cy > 0 { sub.y = (c[1] - c[7]) / (2 * cy) }
        }
        sub = Self.clampComponents(sub, -1, 1)
        var disp = SIMD2(Float(dx), Float(dy)) + sub

        if iterations > 0, count > 0 {
            let r = p0.gradientRegion(t)
            let lambda = gradientNoise
            let h00 = tensor.x + lambda
            let h01 = tensor.y
            let h11 = tensor.z + lambda
            let hDet = h00 * h11 - h01 * h01
            if hDet > 0 {
                let start = disp
                for _ in 0..<iterations {
                    let b = Self.gradientMismatch(ref, alt, r, disp)
                    let step = SIMD2((h11 * b.x - h01 * b.y) / hDet, (h00 * b.y - h01 * b.x) / hDet)
                    disp -= Self.clampComponents(step, -0.5, 0.5)
                }
                if abs(disp.x - start.x) > 1 || abs(disp.y - start.y) > 1 { disp = start }
            }
        }
        return (disp, confidence)
    }

    /// Σ∇R·(A(x + d) − R(x)) over region `r` (A sampled bilinearly, coordinates clamped): the C kernel
    /// `lux_gradient_mismatch` where every sample is inside `alt`, a clamped scalar loop otherwise.
    @inline(__always)
    static func gradientMismatch(
        _ ref: PlanarBuffer<Float>, _ alt: PlanarBuffer<Float>, _ r: (x0: Int, y0: Int, x1: Int, y1: Int),
        _ d: SIMD2<Float>
    ) -> SIMD2<Float> {
        let fx = d.x.rounded(.down)
        let fy = d.y.rounded(.down)
        let ix = Int(fx)
        let iy = Int(fy)
        let ax = d.x - fx
        let ay = d.y - fy
        let w00 = (1 - ax) * (1 - ay)
        let w10 = ax * (1 - ay)
        let w01 = (1 - ax) * ay
        let w11 = ax * ay
        let inside =
            r.x0 + ix >= 0 && r.x1 + ix + 1 <= alt.width && r.y0 + iy >= 0 && r.y1 + iy + 1 <= alt.height
        if inside {
            // Each row summed in the order of the 4-wide loop the release build made of the Swift row sum it
            // replaces (`Relaxed.multiplyAdd(gx, e, sx)`): the same bits (see lux_gradient_mismatch).
            var sums = SIMD2<Float>()
            withUnsafeMutableBytes(of: &sums) { out in
                lux_gradient_mismatch(
                    ref.row(0, r.y0) + r.x0, ref.rowStride, alt.row(0, r.y0 + iy) + r.x0 + ix, alt.rowStride,
                    max(r.x1 - r.x0, 0), max(r.y1 - r.y0, 0), w00, w10, w01, w11,
                    out.baseAddress!.assumingMemoryBound(to: Float.self))
            }
            return sums
        }
        var bx: Float = 0
        var by: Float = 0
        for y in r.y0..<r.y1 {
            let up = ref.row(0, y - 1)
            let mid = ref.row(0, y)
            let down = ref.row(0, y + 1)
            let a0 = alt.row(0, min(max(y + iy, 0), alt.height - 1))
            let a1 = alt.row(0, min(max(y + iy + 1, 0), alt.height - 1))
            var sx: Float = 0
            var sy: Float = 0
            for x in r.x0..<r.x1 {
                let xa = min(max(x + ix, 0), alt.width - 1)
                let xb = min(max(x + ix + 1, 0), alt.width - 1)
                let value = w00 * a0[xa] + w10 * a0[xb] + w01 * a1[xa] + w11 * a1[xb]
                let e = value - mid[x]
                sx += (mid[x + 1] - mid[x - 1]) * 0.5 * e
                sy += (down[x] - up[x]) * 0.5 * e
            }
            bx += sx
            by += sy
        }
        return SIMD2(bx, by)
    }

    @inline(__always)
    static func clampComponents(_ v: SIMD2<Float>, _ lo: Float, _ hi: Float) -> SIMD2<Float> {
        SIMD2(min(max(v.x, lo), hi), min(max(v.y, lo), hi))
    }
}
