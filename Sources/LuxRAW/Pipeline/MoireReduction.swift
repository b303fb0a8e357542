public import LuxRender

/// Stage 3b: false colour removed from fine repeating detail.
///
/// Demosaicing cannot tell a pattern near the photosite pitch from colour, so stripes, fabric and screens come out
/// with coloured fringes while their luminance is right. This stage keeps green (the luminance's main part) and
/// replaces the colour differences `R − G` and `B − G` by their 3×3 median taken twice (a 5×5 reach, robust to the
/// fringes' alternation), blended by ``amount``: fringes a few pixels wide lose their colour; the colour of areas and
/// edges, which the median keeps, stays.
public struct MoireReduction: Hashable, Sendable {
    /// 0…1 (0 leaves the image unchanged).
    public var amount: Float

    /// Creates the stage.
    public init(amount: Float) { self.amount = amount }

    /// Applies the filter (the image itself at amount 0).
    public func apply(to image: Image) -> Image {
        guard amount > 0 else { return image }
        let a = min(amount, 1)
        let processor = ImageProcessor(
            description: "moireReduction", argumentDigest: "amount=\(a)", inputFormat: .rgbaFloat,
            inputLayout: .planarRows, outputFormat: .rgbaFloat, outputLayout: .planarRows,
            roi: { _, r in r.insetBy(dx: -2, dy: -2) },
            process: { inputs, output in
                let input = inputs[0]
                let w = input.width
                let h = input.height
                let n = w * h
                let base = output.scratch(byteCount: 4 * 3 * n).assumingMemoryBound(to: Float.self)
                let cr = base
                let cb = base + n
                let tmp = base + 2 * n
                for j in 0..<h {
                    let p = input.planes(j)
                    for i in 0..<w {
                        cr[j * w + i] = p.red[i] - p.green[i]
                        cb[j * w + i] = p.blue[i] - p.green[i]
                    }
                }
                for plane in [cr, cb] {
                    for _ in 0..<2 {
                        Self.median3x3(plane, into: tmp, width: w, height: h)
                        plane.update(from: tmp, count: n)
                    }
                }
                let ox = Int(output.region.minX - input.region.minX)
                let oy = Int(output.region.minY - input.region.minY)
                for j in 0..<output.height {
                    let p = input.planes(j + oy)
                    let o = output.planes(j)
                    for i in 0..<output.width {
                        let k = (j + oy) * w + i + ox
                        let g = p.green[i + ox]
                        let r0 = p.red[i + ox] - g
                        let b0 = p.blue[i + ox] - g
                        o.red[i] = g + r0 + a * (cr[k] - r0)
                        o.green[i] = g
                        o.blue[i] = g + b0 + a * (cb[k] - b0)
                        o.alpha[i] = 1
                    }
                }
            }
        )
        return processor.apply(to: [image.clampedToExtent()], extent: image.extent, isOpaque: true)
    }

    /// The 3×3 median of a dense plane (edges clamped).
    static func median3x3(_ s: UnsafePointer<Float>, into d: UnsafeMutablePointer<Float>, width w: Int, height h: Int) {
        @inline(__always) func sort(_ a: inout Float, _ b: inout Float) {
            let lo = min(a, b)
            b = max(a, b)
            a = lo
        }
        for y in 0..<h {
            let r0 = s + max(y - 1, 0) * w
            let r1 = s + y * w
            let r2 = s + min(y + 1, h - 1) * w
            for x in 0..<w {
                let xl = max(x - 1, 0)
                let xr = min(x + 1, w - 1)
                var (p0, p1, p2) = (r0[xl], r0[x], r0[xr])
                var (p3, p4, p5) = (r1[xl], r1[x], r1[xr])
                var (p6, p7, p8) = (r2[xl], r2[x], r2[xr])
                // Paeth's 19-exchange median network.
                sort(&p1, &p2)
                sort(&p4, &p5)
                sort(&p7, &p8)
                sort(&p0, &p1)
                sort(&p3, &p4)
                sort(&p6, &p7)
                sort(&p1, &p2)
                sort(&p4, &p5)
                sort(&p7, &p8)
                sort(&p0, &p3)
                sort(&p5, &p8)
                sort(&p4, &p7)
                sort(&p3, &p6)
                sort(&p1, &p4)
                sort(&p2, &p5)
                sort(&p4, &p7)
                sort(&p4, &p2)
                sort(&p6, &p4)
                sort(&p4, &p2)
                d[y * w + x] = p4
            }
        }
    }
}
