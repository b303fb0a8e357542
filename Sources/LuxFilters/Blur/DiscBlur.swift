import LuxPixels
public import LuxRender

extension Filters {
    /// Blurs with a flat disc: each pixel becomes the mean of the pixels whose centres lie within `radius` of its
    /// own (`dx² + dy² ≤ radius²`), like an out-of-focus lens.
    ///
    /// Each row of the disc is a horizontal run read from exact row prefix sums, so the cost grows with the
    /// radius, not its square. The extent grows by the radius.
    public struct DiscBlur: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "DiscBlur", categories: [.blur, .stillImage, .video, .highDynamicRange],
            summary: "Blurs with a flat disc, like defocus.", .image(\.image),
            .parameter(
                "radius", \.radius, slider: 0...100, allowed: 0...1000, unit: .pixels,
                summary: "The radius of the disc."))

        public var image: Image = .empty
        public var radius: Double = 8

        public init() {}

        /// The half-widths of the disc's rows, `dy = −R…R`.
        static func halfWidths(radius: Double) -> [Int] {
            let big = Int(radius.rounded(.down))
            return (-big...big).map { dy in Int((radius * radius - Double(dy * dy)).squareRoot().rounded(.down)) }
        }

        public var outputImage: Image {
            let widths = Self.halfWidths(radius: radius)
            let r = widths.count / 2
            guard r >= 1 else { return image }
            let d = Double(r)
            let processor = ImageProcessor(
                description: "discBlur", argumentDigest: "r=\(radius)", inputFormat: nil, outputFormat: .rgbaFloat,
                roi: { _, rect in rect.insetBy(dx: -d, dy: -d) },
                process: { inputs, output in
                    try DiscSums.run(inputs[0], output, halfWidths: widths)
                }
            )
            return processor.apply(to: [image], extent: image.extent.insetBy(dx: -d, dy: -d))
        }
    }
}

/// Disc means from a ring of exact row prefix sums.
enum DiscSums {
    static func run(_ input: ImageProcessorInput, _ output: ImageProcessorOutput, halfWidths: [Int]) throws {
        let r = halfWidths.count / 2
        let w = output.width
        let h = output.height
        guard Int(output.region.minX - input.region.minX) == r, Int(output.region.minY - input.region.minY) == r,
            input.width == w + 2 * r, input.height == h + 2 * r
        else {
            throw SeparableBlur.RegionMismatch(
                description: "disc blur input \(input.region) does not surround output \(output.region) by \(r)")
        }
        let inW = input.width
        let prefixValues = 4 * (inW + 1)
        let ringRows = 2 * r + 1
        let rowValues = 4 * w
        let raw = output.scratch(byteCount: 16 * inW + 8 * (prefixValues * ringRows + rowValues))
        let line = raw.assumingMemoryBound(to: Float.self)
        let ring = (raw + 16 * inW).assumingMemoryBound(to: Double.self)
        let acc = ring + prefixValues * ringRows
        let count = halfWidths.reduce(0) { $0 + 2 * $1 + 1 }
        let scale = 1 / (Double(count) * ExactSum.unit)
        func load(_ j: Int) {
            ProcessorRows.loadInterleaved(input, row: j, into: line)
            ExactSum.prefix4(line, inW, into: ring + (j % ringRows) * prefixValues)
        }
        for j in 0..<(2 * r) { load(j) }
        for y in 0..<h {
            load(y + 2 * r)
            acc.update(repeating: 0, count: rowValues)
            for (t, half) in halfWidths.enumerated() {
                let p = ring + ((y + t) % ringRows) * prefixValues
                // Output x reads input columns x + r − half … x + r + half.
                ExactSum.addDifference(acc, p + 4 * (r + half + 1), p + 4 * (r - half), rowValues)
            }
            ExactSum.store(acc, scale, into: output.row(y, as: Float.self), rowValues)
        }
    }
}

extension Image {
    /// The image blurred with a flat disc of `radius` pixels (see ``Filters/DiscBlur``).
    public func discBlur(radius: Double = 8) -> Image { applyingFilter(Filters.DiscBlur { $0.radius = radius }) }
}
