public import LuxPixels
public import LuxRender

extension Filters {
    /// Blurs radially, like zooming during the exposure: each pixel `p` becomes the mean of the image sampled
    /// (bilinearly) along the segment from `p` towards `center`, at the points `center + (p − center)·s` for `s`
    /// evenly spaced from `1 − amount/100` to 1 (so the streak is `amount` % of the distance to the centre).
    ///
    /// One sample per pixel of streak length (2 to 128). The extent is the input's, enlarged about the centre by
    /// `1/(1 − amount/100)`.
    public struct ZoomBlur: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ZoomBlur", categories: [.blur, .stillImage, .video, .highDynamicRange],
            summary: "Blurs towards a centre, like zooming during the exposure.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the zoom."),
            .parameter(
                "amount", \.amount, slider: 0...90, allowed: 0...95, unit: FilterParameter.Unit.none,
                summary: "The streak length in percent of the distance to the centre."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var amount: Double = 20

        public init() {}

        /// `r` scaled by `s` about `c`.
        static func scaled(_ r: Rect, _ s: Double, about c: Point) -> Rect {
            Rect(
                minX: c.x + (r.minX - c.x) * s, minY: c.y + (r.minY - c.y) * s, maxX: c.x + (r.maxX - c.x) * s,
                maxY: c.y + (r.maxY - c.y) * s)
        }

        public var outputImage: Image {
            let a = amount / 100
            if a <= 0 { return image }
            let lowest = 1 - a
            let e = image.extent
            let extent = e.isInfinite ? e : Self.scaled(e, 1 / lowest, about: center).integral
            let fx = Float(center.x)
            let fy = Float(center.y)
            let fa = Float(a)
            let kernel = GeneralKernel(name: "zoomBlur") { row in
                let s = row.sampler(0)
                let py = Float(row.y) + 0.5 - fy
                for i in 0..<row.count {
                    let px = Float(row.x + i) + 0.5 - fx
                    let length = (px * px + py * py).squareRoot() * fa
                    let n = min(max(Int(length.rounded(.up)) + 1, 2), 128)
                    var sum = SIMD4<Float>()
                    for k in 0..<n {
                        let f = 1 - fa * Float(k) / Float(n - 1)
                        sum += s.sample(x: fx + px * f, y: fy + py * f)
                    }
                    row.store(sum / Float(n), at: i)
                }
            }
            return kernel.apply(
                extent: extent, inputs: [image], arguments: "center=\(describe(center)) amount=\(amount)"
            ) { _, r in Self.scaled(r, lowest, about: center).union(r).insetBy(dx: -2, dy: -2) }
        }
    }
}

extension Image {
    /// The image blurred towards `center` (see ``Filters/ZoomBlur``).
    public func zoomBlur(center: Point, amount: Double = 20) -> Image {
        applyingFilter(
            Filters.ZoomBlur {
                $0.center = center
                $0.amount = amount
            })
    }
}
