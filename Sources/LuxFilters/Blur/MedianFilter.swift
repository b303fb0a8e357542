public import LuxRender

extension Filters {
    /// Replaces each component by the median of its 3×3 neighbourhood (on premultiplied values; edge pixels
    /// repeat beyond the extent), removing speckle noise while keeping edges.
    ///
    /// Each column of three is sorted once and shared by the three outputs that read it; the median of nine is
    /// then the median of (the largest column minimum, the median column median, the smallest column maximum) —
    /// 17 branch-free min/max per value, vectorised over the row.
    public struct MedianFilter: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "MedianFilter", displayName: "Median", categories: [.blur, .stillImage, .video, .highDynamicRange],
            summary: "Replaces each pixel by the median of its 3×3 neighbourhood.", .image(\.image))

        public var image: Image = .empty

        public init() {}

        public var outputImage: Image {
            let kernel = GeneralKernel(name: "median3x3") { row in
                let s = row.sampler(0)
                let n = 4 * row.count
                let left = 4 * (row.x - 1 - s.minX)
                median3x3(
                    s.row(row.y - 1) + left, s.row(row.y) + left, s.row(row.y + 1) + left, into: row.output, count: n)
            }
            let e = image.extent
            return kernel.apply(extent: e, inputs: [image.clampedToExtent()]) { _, r in r.insetBy(dx: -1, dy: -1) }
        }
    }
}

/// Median of each 3×3 neighbourhood over `n` interleaved floats; `top`, `middle`, `bottom` point one pixel
/// (4 floats) left of the first output.
@inline(never)
func median3x3(
    _ top: UnsafePointer<Float>, _ middle: UnsafePointer<Float>, _ bottom: UnsafePointer<Float>,
    into out: UnsafeMutablePointer<Float>, count n: Int
) {
    // Sorted columns (low, mid, high) for the n + 8 floats the outputs read, in a small stack buffer per call.
    let m = n + 8
    withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * m) { buffer in
        let lo = buffer.baseAddress!
        let mid = lo + m
        let hi = mid + m
        for k in 0..<m {
            let a = top[k]
            let b = middle[k]
            let c = bottom[k]
            let l1 = min(a, b)
            let h1 = max(a, b)
            let l = min(l1, c)
            let h2 = max(l1, c)
            lo[k] = l
            mid[k] = min(h1, h2)
            hi[k] = max(h1, h2)
        }
        for k in 0..<n {
            let maxLow = max(lo[k], max(lo[k + 4], lo[k + 8]))
            let minHigh = min(hi[k], min(hi[k + 4], hi[k + 8]))
            let a = mid[k]
            let b = mid[k + 4]
            let c = mid[k + 8]
            let medMid = max(min(a, b), min(max(a, b), c))
            out[k] = max(min(maxLow, medMid), min(max(maxLow, medMid), minHigh))
        }
    }
}

extension Image {
    /// The image with each pixel replaced by its 3×3 median (see ``Filters/MedianFilter``).
    public func medianFilter() -> Image { applyingFilter(Filters.MedianFilter()) }
}
