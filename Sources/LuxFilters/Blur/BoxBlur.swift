import LuxPixels
public import LuxRender

extension Filters {
    /// Blurs with a square box: each pixel becomes the mean of the `(2r + 1)²` pixels around it, `r` the radius
    /// rounded to a whole pixel.
    ///
    /// Running sums along rows and then columns make the cost independent of the radius. The extent grows by
    /// `r`; outside the input's extent the image is transparent (blur `image.clampedToExtent()` and crop to avoid
    /// dark edges).
    public struct BoxBlur: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "BoxBlur", categories: [.blur, .stillImage, .video, .highDynamicRange],
            summary: "Blurs with a square box average.", .image(\.image),
            .parameter(
                "radius", \.radius, slider: 1...100, allowed: 0...2000, unit: .pixels,
                summary: "Half the box width (rounded to whole pixels)."))

        public var image: Image = .empty
        public var radius: Double = 10

        public init() {}

        public var outputImage: Image {
            let r = Int(radius.rounded())
            guard r >= 1 else { return image }
            let d = Double(r)
            let processor = ImageProcessor(
                description: "boxBlur", argumentDigest: "r=\(r)", inputFormat: nil, outputFormat: .rgbaFloat,
                roi: { _, rect in rect.insetBy(dx: -d, dy: -d) },
                process: { inputs, output in
                    try BoxSums.run(inputs[0], output, radius: r)
                }
            )
            return processor.apply(to: [image], extent: image.extent.insetBy(dx: -d, dy: -d))
        }
    }
}

/// Box means by running sums: horizontal window sums per input row into a ring, then a running column sum.
///
/// Sums are exact (``ExactSum``), so every output pixel is the same whatever tile computed it.
enum BoxSums {
    static func run(_ input: ImageProcessorInput, _ output: ImageProcessorOutput, radius r: Int) throws {
        let w = output.width
        let h = output.height
        guard Int(output.region.minX - input.region.minX) == r, Int(output.region.minY - input.region.minY) == r,
            input.width == w + 2 * r, input.height == h + 2 * r
        else {
            throw SeparableBlur.RegionMismatch(
                description: "box blur input \(input.region) does not surround output \(output.region) by \(r)")
        }
        let k = 2 * r + 1
        let inW = input.width
        let rowValues = 4 * w
        let ringRows = k + 1
        let bytes = 4 * 4 * inW + 8 * (4 * (inW + 1) + rowValues * (ringRows + 1))
        let raw = output.scratch(byteCount: bytes)
        let line = raw.assumingMemoryBound(to: Float.self)
        let prefix = (raw + 16 * inW).assumingMemoryBound(to: Double.self)
        let ring = prefix + 4 * (inW + 1)
        let column = ring + rowValues * ringRows
        column.update(repeating: 0, count: rowValues)
        let scale = 1 / (Double(k * k) * ExactSum.unit)
        func horizontal(_ j: Int) -> UnsafeMutablePointer<Double> {
            let dst = ring + (j % ringRows) * rowValues
            ProcessorRows.loadInterleaved(input, row: j, into: line)
            ExactSum.prefix4(line, inW, into: prefix)
            ExactSum.difference(prefix + 4 * k, prefix, into: dst, rowValues)
            return dst
        }
        for j in 0..<k { ExactSum.add(column, horizontal(j), rowValues) }
        for y in 0..<h {
            ExactSum.store(column, scale, into: output.row(y, as: Float.self), rowValues)
            if y + 1 < h {
                let incoming = horizontal(y + k)
                let outgoing = ring + (y % ringRows) * rowValues
                ExactSum.addDifference(column, incoming, outgoing, rowValues)
            }
        }
    }
}

extension Image {
    /// The image blurred with a square box of half-width `radius` (see ``Filters/BoxBlur``).
    public func boxBlur(radius: Double = 10) -> Image { applyingFilter(Filters.BoxBlur { $0.radius = radius }) }
}
