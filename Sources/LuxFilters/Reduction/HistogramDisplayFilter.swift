import LuxPixels
public import LuxRender

extension Filters {
    /// Draws a histogram (the output of ``AreaHistogram``) as bars: the result is `count` pixels wide and `height`
    /// high, at the origin; in column `k` the red, green and blue bars rise from the bottom to `height·(v −
    /// lowLimit)/(highLimit − lowLimit)` (clamped), `v` that channel's value in bin `k`.
    ///
    /// Overlapping bars add up (all three make white); the background is black.
    public struct HistogramDisplayFilter: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "HistogramDisplayFilter", displayName: "Histogram Display", categories: [.reduction, .stillImage, .video],
            summary: "Draws a histogram as red, green and blue bars.",
            .image(\.image, summary: "A histogram: one row of bins, as AreaHistogram makes."),
            .parameter(
                "height", \.height, slider: 1...200, allowed: 1...4096, unit: .pixels, summary: "Bar area height."),
            .parameter(
                "highLimit", \.highLimit, slider: 0...1, allowed: -1e9...1e9, summary: "The value of a full bar."),
            .parameter(
                "lowLimit", \.lowLimit, slider: 0...1, allowed: -1e9...1e9, summary: "The value of an empty bar."))

        public var image: Image = .empty
        public var height: Double = 100
        public var highLimit: Double = 1
        public var lowLimit: Double = 0

        public init() {}

        public var outputImage: Image {
            let e = image.extent
            guard !e.isInfinite, !e.isEmpty else { return .empty }
            let bins = Int(e.integral.width)
            let x0 = Int(e.integral.minX)
            let y0 = Int(e.integral.minY)
            let h = max(Int(height.rounded()), 1)
            let lo = Float(lowLimit)
            let span = Float(highLimit - lowLimit)
            let scale = span != 0 ? Float(h) / span : 0
            let kernel = GeneralKernel(name: "histogramDisplay") { row in
                let s = row.sampler(0)
                let src = s.row(y0)
                // Row y shows a bar when its height exceeds h − y (y grows downwards from the top).
                let level = Float(h - row.y) - 0.5
                for i in 0..<row.count {
                    let k = 4 * (row.x + i + x0 - s.minX)
                    let a = src[k + 3]
                    let inv: Float = a > 0 ? 1 / a : 0
                    var p = SIMD4<Float>(0, 0, 0, 1)
                    for c in 0..<3 { p[c] = (src[k + c] * inv - lo) * scale > level ? 1 : 0 }
                    row.store(p, at: i)
                }
            }
            return kernel.apply(
                extent: Rect(x: 0, y: 0, width: bins, height: h), inputs: [image],
                arguments: "height=\(h) high=\(highLimit) low=\(lowLimit)"
            ) { _, r in
                Rect(minX: Double(x0) + r.minX, minY: Double(y0), maxX: Double(x0) + r.maxX, maxY: Double(y0 + 1))
            }
        }
    }
}

extension Image {
    /// This histogram (from ``Filters/AreaHistogram``) drawn as bars (see ``Filters/HistogramDisplayFilter``).
    public func histogramDisplay(height: Double = 100, highLimit: Double = 1, lowLimit: Double = 0) -> Image {
        applyingFilter(
            Filters.HistogramDisplayFilter {
                $0.height = height
                $0.highLimit = highLimit
                $0.lowLimit = lowLimit
            })
    }
}
