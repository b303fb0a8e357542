public import LuxPixels
public import LuxRender

extension Filters {
    /// Dots of one colour each, as in a pointillist painting: every pixel near a site takes the image's colour at that
    /// site.
    ///
    /// The sites are scattered as in ``Crystallize``, one in each square of side `1.5·radius` (a corner at
    /// `center`), at a position drawn from a hash of the square's indices, so the pattern is the same in every render
    /// and tile. A pixel within `radius` of its nearest site takes the bilinear sample at that site; where dots
    /// would overlap the nearer site wins (the dots are clipped by the Voronoi diagram of the sites). The dots' rims
    /// are smoothed over one pixel, and between dots the output is clear: composite it over a canvas (for example
    /// ``SourceOverCompositing`` onto a ``ConstantColorGenerator``) for a painted ground. The extent is the input's.
    public struct Pointillize: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Pointillize", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Renders the image as coloured dots.", .image(\.image),
            .parameter(
                "radius", \.radius, slider: 1...100, allowed: 1...1e5, unit: .pixels, summary: "The radius of a dot."),
            .parameter("center", \.center, summary: "A corner of the grid the dots are scattered on."))

        public var image: Image = .empty
        public var radius: Double = 20
        public var center: Point = Point(x: 150, y: 150)

        public init() {}

        /// The side of the squares that each hold one site, in radii.
        static let spacing = 1.5

        public var outputImage: Image {
            let r = max(radius, 1)
            let size = Self.spacing * r
            let c = center
            let kernel = GeneralKernel(name: "pointillize") { row in
                let source = row.sampler(0)
                // Sites and squared distances (in squares) for the span, then one sample per pixel inside a dot.
                withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * row.count) { scratch in
                    let xs = scratch.baseAddress!
                    let (ys, ds) = (xs + row.count, xs + 2 * row.count)
                    Crystallize.nearestSites(
                        y: row.y, x: row.x, count: row.count, center: c, size: size, siteX: xs, siteY: ys,
                        distanceSquared: ds)
                    for k in 0..<row.count {
                        let coverage = min(max(Float(r) - ds[k].squareRoot() * Float(size) + 0.5, 0), 1)
                        row.store(coverage > 0 ? source.sample(x: xs[k], y: ys[k]) * coverage : SIMD4(), at: k)
                    }
                }
            }
            return kernel.apply(extent: image.extent, inputs: [image], arguments: "radius=\(radius) center=\(center)") {
                _, rect in rect.insetBy(dx: -3 * size - 1, dy: -3 * size - 1)
            }
        }
    }
}

extension Image {
    /// The image as dots of `radius` pixels (see ``Filters/Pointillize``).
    public func pointillize(radius: Double = 20, center: Point = Point(x: 150, y: 150)) -> Image {
        applyingFilter(
            Filters.Pointillize {
                $0.radius = radius
                $0.center = center
            })
    }
}
