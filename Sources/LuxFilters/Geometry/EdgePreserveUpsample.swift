import LuxColor
import LuxPixels
public import LuxRender

extension Filters {
    /// Upsamples a small image to the size of a full-resolution guide image while keeping the guide's edges.
    ///
    /// This is joint bilateral upsampling (Kopf et al., 2007): a depth map, mask or low-resolution result stays
    /// sharp where the photo is sharp.
    ///
    /// Output pixel `p` of the guide's extent is the mean of the small image's pixels `q` around `p`'s position in
    /// the small image, weighted by
    /// `exp(−|q − p↓|²/(2·spatialSigma²)) · exp(−(Y(p) − Y(q↑))²/(2·lumaSigma²))`: distance in small-image pixels,
    /// and the difference between the guide's luma (sRGB-encoded) at `p` and at `q`'s centre in the guide. The
    /// window reaches `⌈2·spatialSigma⌉` small pixels each way.
    public struct EdgePreserveUpsample: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "EdgePreserveUpsample", coreImageName: "CIEdgePreserveUpsampleFilter",
            categories: [.geometryAdjustment, .stillImage, .video],
            summary: "Upsamples a small image to a guide image's size, following the guide's edges.",
            .image(\.image, summary: "The full-resolution guide; the result has its extent."),
            .image(\.smallImage, "smallImage", summary: "The low-resolution image to upsample."),
            .parameter(
                "spatialSigma", \.spatialSigma, slider: 0.5...5, allowed: 0.1...50, unit: .pixels,
                summary: "Spatial falloff, in pixels of the small image."),
            .parameter(
                "lumaSigma", \.lumaSigma, slider: 0.01...1, allowed: 0.001...10,
                summary: "Falloff with the guide's luma difference."))

        public var image: Image = .empty
        public var smallImage: Image = .empty
        public var spatialSigma: Double = 3
        public var lumaSigma: Double = 0.15

        public init() {}

        public var outputImage: Image {
            let g = image.extent
            let s = smallImage.extent
            guard !g.isInfinite, !g.isEmpty, !s.isInfinite, !s.isEmpty else { return .empty }
            let guide = PixelRectBounds(g)
            let small = PixelRectBounds(s)
            let sx = Double(small.width) / Double(guide.width)
            let sy = Double(small.height) / Double(guide.height)
            let sigma = max(spatialSigma, 0.1)
            let reach = Int((2 * sigma).rounded(.up))
            // exp(−x) = 2^(−x·log2 e): the weights use the fast vectorisable exp2.
            let spatialK = Float(1.4426950408889634 / (2 * sigma * sigma))
            let lumaK = Float(1.4426950408889634 / (2 * lumaSigma * lumaSigma))
            let kernel = GeneralKernel(name: "edgePreserveUpsample", inputCount: 2) { row in
                let gs = row.sampler(0)
                let ss = row.sampler(1)
                let gy = row.y
                let v = Double(gy - guide.minY) + 0.5
                let vs = v * sy - 0.5  // continuous small row (pixel centres at integers)
                let j0 = max(Int(vs.rounded(.down)) - reach + 1, 0)
                let j1 = min(Int(vs.rounded(.down)) + reach, small.height - 1)
                for i in 0..<row.count {
                    let gx = row.x + i
                    let u = Double(gx - guide.minX) + 0.5
                    let us = u * sx - 0.5
                    let i0 = max(Int(us.rounded(.down)) - reach + 1, 0)
                    let i1 = min(Int(us.rounded(.down)) + reach, small.width - 1)
                    let yp = Self.luma(gs.clampedPixel(x: gx, y: gy))
                    var sum = SIMD4<Float>()
                    var total: Float = 0
                    if i0 <= i1 && j0 <= j1 {
                        for j in j0...j1 {
                            let dy = Float(Double(j) - vs)
                            // The guide pixel under small pixel (i, j)'s centre.
                            let qy = guide.minY + Int(((Double(j) + 0.5) / sy).rounded(.down))
                            for k in i0...i1 {
                                let dx = Float(Double(k) - us)
                                let qx = guide.minX + Int(((Double(k) + 0.5) / sx).rounded(.down))
                                let dl = yp - Self.luma(gs.clampedPixel(x: qx, y: qy))
                                let w = fastExp2(-(dx * dx + dy * dy) * spatialK - dl * dl * lumaK)
                                sum += w * ss.pixel(x: small.minX + k, y: small.minY + j)
                                total += w
                            }
                        }
                    }
                    row.store(total > 0 ? sum / total : .zero, at: i)
                }
            }
            let margin = Double(reach + 1)
            let args = "spatialSigma=\(spatialSigma) lumaSigma=\(lumaSigma)"
            return kernel.apply(
                extent: g, inputs: [image.matchedFromWorkingSpace(to: .extendedSRGB), smallImage], arguments: args
            ) { index, r in
                // Small-image pixels under the window, and the guide pixels under their centres.
                let (gx, gy) = (Double(guide.minX), Double(guide.minY))
                let (smx, smy) = (Double(small.minX), Double(small.minY))
                let x0 = smx + ((r.minX - gx) * sx - margin).rounded(.down)
                let y0 = smy + ((r.minY - gy) * sy - margin).rounded(.down)
                let x1 = smx + ((r.maxX - gx) * sx + margin).rounded(.up)
                let y1 = smy + ((r.maxY - gy) * sy + margin).rounded(.up)
                let lo = Rect(minX: x0, minY: y0, maxX: x1, maxY: y1).intersection(s)
                if index == 1 { return lo }
                let ux0 = gx + (lo.minX - smx) / sx - 1
                let uy0 = gy + (lo.minY - smy) / sy - 1
                let ux1 = gx + (lo.maxX - smx) / sx + 1
                let uy1 = gy + (lo.maxY - smy) / sy + 1
                let up = Rect(minX: ux0, minY: uy0, maxX: ux1, maxY: uy1)
                return up.union(r).intersection(g)
            }
        }

        /// Luma of a premultiplied pixel's straight colour.
        @inline(__always)
        static func luma(_ p: SIMD4<Float>) -> Float {
            let inv: Float = p.w > 0 ? 1 / p.w : 0
            return (Luma.red * p.x + Luma.green * p.y + Luma.blue * p.z) * inv
        }
    }
}

extension Image {
    /// `small` upsampled to this image's extent, following this image's edges (see
    /// ``Filters/EdgePreserveUpsample``).
    public func edgePreserveUpsample(_ small: Image, spatialSigma: Double = 3, lumaSigma: Double = 0.15) -> Image {
        applyingFilter(
            Filters.EdgePreserveUpsample {
                $0.smallImage = small
                $0.spatialSigma = spatialSigma
                $0.lumaSigma = lumaSigma
            })
    }
}
