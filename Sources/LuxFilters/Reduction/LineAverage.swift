public import LuxPixels
public import LuxRender

/// The shared processor of ``Filters/ColumnAverage`` and ``Filters/RowAverage``.
enum LineAverage {
    /// Column means (a `width`×1 image at the origin) or row means (1×`height`) of `area` of `image`.
    static func apply(_ image: Image, area: Rect, columns: Bool) -> Image {
        let (ax, ay) = (area.minX, area.minY)
        let out =
            columns ? Rect(x: 0, y: 0, width: area.width, height: 1) : Rect(x: 0, y: 0, width: 1, height: area.height)
        let processor = ImageProcessor(
            description: columns ? "columnAverage" : "rowAverage", argumentDigest: "\(area)", inputFormat: nil,
            outputFormat: .rgbaFloat,
            roi: { _, r in
                columns
                    ? Rect(minX: ax + r.minX, minY: area.minY, maxX: ax + r.maxX, maxY: area.maxY)
                    : Rect(minX: area.minX, minY: ay + r.minY, maxX: area.maxX, maxY: ay + r.maxY)
            },
            process: { inputs, output in
                let input = inputs[0]
                if columns {
                    // Column sums over fixed bands of 64 rows (in parallel), then the bands in order: the same sums
                    // whatever the thread count.
                    let w = input.width
                    let h = input.height
                    let bandRows = 64
                    let bandCount = (h + bandRows - 1) / bandRows
                    let bands = Reduction.RowResults(rows: bandCount, stride: 4 * w)
                    Parallel.forEachBand(bandCount, threads: Parallel.defaultThreadCount, minimumBand: 1) { range in
                        let line = UnsafeMutablePointer<Float>.allocate(capacity: 4 * w)
                        defer { line.deallocate() }
                        for b in range {
                            for j in (b * bandRows)..<min(h, (b + 1) * bandRows) {
                                ProcessorRows.loadInterleaved(input, row: j, into: line)
                                Reduction.accumulate(bands.row(b), line, 4 * w)
                            }
                        }
                    }
                    let sum = UnsafeMutablePointer<Double>.allocate(capacity: 4 * w)
                    defer { sum.deallocate() }
                    sum.initialize(repeating: 0, count: 4 * w)
                    for b in 0..<bandCount { ExactSum.add(sum, bands.row(b), 4 * w) }
                    ExactSum.store(sum, 1 / Double(h), into: output.row(0, as: Float.self), 4 * w)
                } else {
                    let rows = Reduction.RowResults(rows: input.height, stride: 4)
                    Reduction.forEachRowInParallel(input) { j, row in
                        let s = Reduction.channelSums(row, input.width)
                        let d = rows.row(j)
                        (d[0], d[1], d[2], d[3]) = (s.x, s.y, s.z, s.w)
                    }
                    let n = Double(input.width)
                    for j in 0..<input.height {
                        let d = rows.row(j)
                        Reduction.store(SIMD4(d[0], d[1], d[2], d[3]) / n, output, y: j)
                    }
                }
            }
        )
        return processor.apply(to: [image], extent: out)
    }
}

/// Columns or rows (the kinds of ``Filters/LineAverageFilter``).
public protocol LineAverageKind: Sendable {
    /// The filter name.
    static var name: String { get }
    /// `true` for column means, `false` for row means.
    static var columns: Bool { get }
}

extension Filters {
    /// The mean of each column (a one-pixel-high image) or row (one pixel wide) of a region, at the origin: column `i`
    /// of the result is column `extent.minX + i` (row `j` is row `extent.minY + j`).
    ///
    /// Premultiplied colour is averaged; pixels outside the image count as transparent.
    public struct LineAverageFilter<Kind: LineAverageKind>: DeclaredFilter {
        public static var declaration: FilterDeclaration<Self> {
            FilterDeclaration<Self>(
                Kind.name, categories: [.reduction, .stillImage, .video, .highDynamicRange],
                summary: Kind.columns
                    ? "The average of each column of a region, as a single row."
                    : "The average of each row of a region, as a single column.", .image(\.image),
                .reductionExtent(\.extent))
        }

        public var image: Image = .empty
        /// The region; empty means the image's extent.
        public var extent: Rect = .zero

        public init() {}

        public var outputImage: Image {
            guard let area = Reduction.area(extent, of: image) else { return .empty }
            return LineAverage.apply(image, area: area, columns: Kind.columns)
        }
    }
}

/// The two line-average kinds.
public enum LineAverageKinds {
    /// Column means.
    public enum Columns: LineAverageKind {
        public static let name = "ColumnAverage"
        public static let columns = true
    }

    /// Row means.
    public enum Rows: LineAverageKind {
        public static let name = "RowAverage"
        public static let columns = false
    }
}

extension Filters {
    /// The mean of each column of a region (see ``LineAverageFilter``).
    public typealias ColumnAverage = LineAverageFilter<LineAverageKinds.Columns>
    /// The mean of each row of a region (see ``LineAverageFilter``).
    public typealias RowAverage = LineAverageFilter<LineAverageKinds.Rows>
}

extension Image {
    /// The mean of each column of `extent` (default: the whole image) as one row (see ``Filters/LineAverageFilter``).
    public func columnAverage(extent: Rect = .null) -> Image {
        applyingFilter(Filters.ColumnAverage { $0.extent = extent })
    }

    /// The mean of each row of `extent` (default: the whole image) as one column (see ``Filters/LineAverageFilter``).
    public func rowAverage(extent: Rect = .null) -> Image {
        applyingFilter(Filters.RowAverage { $0.extent = extent })
    }
}
