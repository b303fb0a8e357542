public import LuxPixels
public import LuxRender

/// Which extreme an ``Filters/AreaExtreme`` filter finds.
public enum AreaExtremeMode: Sendable, Hashable {
    /// The largest value of each premultiplied component.
    case maximum
    /// The smallest value of each premultiplied component.
    case minimum
    /// The pixel with the largest alpha (the first in row order on ties).
    case maximumAlpha
    /// The pixel with the smallest alpha (the first in row order on ties).
    case minimumAlpha
}

/// The name and mode of an area-extreme filter (the kinds of ``Filters/AreaExtreme``).
public protocol AreaExtremeKind: Sendable {
    /// The filter name (`AreaMaximum`).
    static var name: String { get }
    /// The name for people.
    static var displayName: String { get }
    /// One sentence on what it returns.
    static var summary: String { get }
    /// What it finds.
    static var mode: AreaExtremeMode { get }
}

extension Filters {
    /// The extreme of a region, as a one-pixel image at (0, 0): per-component maxima or minima, or the pixel with the
    /// largest or smallest alpha.
    ///
    /// Pixels of `extent` outside the image count as transparent.
    public struct AreaExtreme<Kind: AreaExtremeKind>: DeclaredFilter {
        public static var declaration: FilterDeclaration<Self> {
            FilterDeclaration<Self>(
                Kind.name, displayName: Kind.displayName,
                categories: [.reduction, .stillImage, .video, .highDynamicRange], summary: Kind.summary,
                .image(\.image), .reductionExtent(\.extent))
        }

        public var image: Image = .empty
        /// The region to search; empty means the image's extent.
        public var extent: Rect = .zero

        public init() {}

        public var outputImage: Image {
            guard let area = Reduction.area(extent, of: image) else { return .empty }
            let mode = Kind.mode
            let processor = Reduction.rowwise(Kind.name, argumentDigest: "\(area)", area: area) {
                AreaExtremeRows.reduce($0, $1, mode)
            } finish: { rows, output in
                var best = Reduction.rowValue(rows, 0)
                for j in 1..<(rows.count / 4) {
                    best = AreaExtremeRows.combine(best, Reduction.rowValue(rows, j), mode)
                }
                Reduction.store(best, output)
            }
            return processor.apply(to: [image], extent: Rect(width: 1, height: 1))
        }
    }
}

/// The row loops of ``Filters/AreaExtreme``.
enum AreaExtremeRows {
    /// The extreme of `n` interleaved pixels.
    @inline(never)
    static func reduce(_ s: UnsafePointer<Float>, _ n: Int, _ mode: AreaExtremeMode) -> SIMD4<Double> {
        switch mode {
        case .maximum, .minimum:
            let big = mode == .maximum
            var m = (s[0], s[1], s[2], s[3])
            for i in 1..<max(n, 1) {
                let p = (s[4 * i], s[4 * i + 1], s[4 * i + 2], s[4 * i + 3])
                m =
                    big
                    ? (max(m.0, p.0), max(m.1, p.1), max(m.2, p.2), max(m.3, p.3))
                    : (min(m.0, p.0), min(m.1, p.1), min(m.2, p.2), min(m.3, p.3))
            }
            return SIMD4(Double(m.0), Double(m.1), Double(m.2), Double(m.3))
        case .maximumAlpha, .minimumAlpha:
            let big = mode == .maximumAlpha
            var k = 0
            for i in 1..<max(n, 1) where big ? s[4 * i + 3] > s[4 * k + 3] : s[4 * i + 3] < s[4 * k + 3] { k = i }
            return SIMD4(Double(s[4 * k]), Double(s[4 * k + 1]), Double(s[4 * k + 2]), Double(s[4 * k + 3]))
        }
    }

    /// The extreme of two row results (`a` from earlier rows).
    static func combine(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ mode: AreaExtremeMode) -> SIMD4<Double> {
        switch mode {
        case .maximum: pointwiseMax(a, b)
        case .minimum: pointwiseMin(a, b)
        case .maximumAlpha: b.w > a.w ? b : a
        case .minimumAlpha: b.w < a.w ? b : a
        }
    }
}

/// The four area-extreme filters.
public enum AreaExtremes {
    /// Per-component maxima.
    public enum Maximum: AreaExtremeKind {
        public static let name = "AreaMaximum"
        public static let displayName = "Area Maximum"
        public static let summary = "The largest value of each component in a region, as a single pixel."
        public static let mode = AreaExtremeMode.maximum
    }

    /// Per-component minima.
    public enum Minimum: AreaExtremeKind {
        public static let name = "AreaMinimum"
        public static let displayName = "Area Minimum"
        public static let summary = "The smallest value of each component in a region, as a single pixel."
        public static let mode = AreaExtremeMode.minimum
    }

    /// The most opaque pixel.
    public enum MaximumAlpha: AreaExtremeKind {
        public static let name = "AreaMaximumAlpha"
        public static let displayName = "Area Maximum Alpha"
        public static let summary = "The pixel with the largest alpha in a region."
        public static let mode = AreaExtremeMode.maximumAlpha
    }

    /// The most transparent pixel.
    public enum MinimumAlpha: AreaExtremeKind {
        public static let name = "AreaMinimumAlpha"
        public static let displayName = "Area Minimum Alpha"
        public static let summary = "The pixel with the smallest alpha in a region."
        public static let mode = AreaExtremeMode.minimumAlpha
    }
}

extension Filters {
    /// Per-component maxima of a region (see ``AreaExtreme``).
    public typealias AreaMaximum = AreaExtreme<AreaExtremes.Maximum>
    /// Per-component minima of a region (see ``AreaExtreme``).
    public typealias AreaMinimum = AreaExtreme<AreaExtremes.Minimum>
    /// The most opaque pixel of a region (see ``AreaExtreme``).
    public typealias AreaMaximumAlpha = AreaExtreme<AreaExtremes.MaximumAlpha>
    /// The most transparent pixel of a region (see ``AreaExtreme``).
    public typealias AreaMinimumAlpha = AreaExtreme<AreaExtremes.MinimumAlpha>
}

extension Image {
    /// The per-component maxima of `extent` (default: the whole image), as one pixel.
    public func areaMaximum(extent: Rect = .null) -> Image {
        applyingFilter(Filters.AreaMaximum { $0.extent = extent })
    }

    /// The per-component minima of `extent` (default: the whole image), as one pixel.
    public func areaMinimum(extent: Rect = .null) -> Image {
        applyingFilter(Filters.AreaMinimum { $0.extent = extent })
    }

    /// The most opaque pixel of `extent` (default: the whole image).
    public func areaMaximumAlpha(extent: Rect = .null) -> Image {
        applyingFilter(Filters.AreaMaximumAlpha { $0.extent = extent })
    }

    /// The most transparent pixel of `extent` (default: the whole image).
    public func areaMinimumAlpha(extent: Rect = .null) -> Image {
        applyingFilter(Filters.AreaMinimumAlpha { $0.extent = extent })
    }
}
