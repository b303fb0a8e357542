public import LuxPixels
public import LuxRender

extension Filters {
    /// Histograms of red, green and blue over a region, as an opaque `count`×1 image at the origin: pixel `k` holds,
    /// per channel, the fraction of the region's pixels whose straight value falls in bin `k` (values clamped to 0…1,
    /// bin = ⌊v·count⌋, 1 in the last bin), times `scale`.
    ///
    /// Alpha is 1, so the fractions survive any render unchanged (transparent pixels count as black).
    ///
    /// Values are those of the working space (linear light by default); histogram
    /// `image.matchedFromWorkingSpace(to: .sRGB)` for encoded values as photo editors show them. Render the
    /// result with `colorSpace: nil` to read the fractions unchanged, or show it with ``HistogramDisplayFilter``.
    public struct AreaHistogram: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "AreaHistogram", categories: [.reduction, .stillImage, .video, .highDynamicRange],
            summary: "Histograms of red, green and blue over a region, as a one-row image.", .image(\.image),
            .reductionExtent(\.extent),
            .parameter("scale", \.scale, slider: 0...100, allowed: 0...1e9, summary: "Multiplies every fraction."),
            .parameter("count", \.count, slider: 1...256, allowed: 1...2048, summary: "The number of bins."))

        public var image: Image = .empty
        /// The region; empty means the image's extent.
        public var extent: Rect = .zero
        public var scale: Double = 1
        public var count: Int = 64

        public init() {}

        public var outputImage: Image {
            guard let area = Reduction.area(extent, of: image), count >= 1 else { return .empty }
            let bins = count
            let k = scale / Double(area.width * area.height)
            // Integer counts per band (exact, so thread count cannot matter), summed at the end.
            let processor = ImageProcessor(
                description: "areaHistogram", argumentDigest: "\(area) bins=\(bins) scale=\(scale)",
                inputFormat: .rgbaFloat,
                outputFormat: .rgbaFloat, reducing: area, bandRows: Reduction.bandRows, partialCount: 3 * bins,
                band: { input, partial in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * bins) { tally in
                        let t = tally.baseAddress!
                        t.initialize(repeating: 0, count: 3 * bins)
                        Reduction.forEachRow(input) { _, row in
                            HistogramRows.count(row, input.width, bins: bins, into: t)
                        }
                        for i in 0..<(3 * bins) { partial[i] = Double(t[i]) }
                    }
                },
                combine: { counts, output in
                    // Tallies are channel-major; output pixel x (of the requested bins) holds bin x, channels in
                    // order.
                    let bandCount = counts.count / (3 * bins)
                    let out = output.row(0, as: Float.self)
                    let first = Int(output.region.minX)
                    for x in 0..<output.width {
                        for c in 0..<3 {
                            var total = 0.0
                            for b in 0..<bandCount { total += counts[b * 3 * bins + c * bins + first + x] }
                            out[4 * x + c] = Float(total * k)
                        }
                        out[4 * x + 3] = 1
                    }
                })
            return processor.apply(to: [image], extent: Rect(width: bins, height: 1))
        }
    }
}

/// The counting loop of ``Filters/AreaHistogram``.
enum HistogramRows {
    /// Adds `n` interleaved premultiplied pixels, unpremultiplied here, to `tally` (channel-major:
    /// `tally[c·bins + bin]`, red, green, blue).
    @inline(never)
    static func count(_ s: UnsafePointer<Float>, _ n: Int, bins: Int, into tally: UnsafeMutablePointer<Int32>) {
        let scale = Float(bins)
        let last = bins - 1
        for i in 0..<n {
            let a = s[4 * i + 3]
            let inv: Float = a > 0 ? 1 / a : 0
            for c in 0..<3 {
                let v = s[4 * i + c] * inv
                let b = min(Int(clampFloat(v, 0, 1) * scale), last)
                tally[c * bins + b] &+= 1
            }
        }
    }
}

extension Image {
    /// Histograms of each channel over `extent` (default: the whole image) as a `count`×1 image (see
    /// ``Filters/AreaHistogram``).
    public func areaHistogram(extent: Rect = .null, scale: Double = 1, count: Int = 64) -> Image {
        applyingFilter(
            Filters.AreaHistogram {
                $0.extent = extent
                $0.scale = scale
                $0.count = count
            })
    }
}
