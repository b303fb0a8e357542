public import LuxPixels
public import LuxRender

extension Filters {
    /// Polygons of one colour each (the cells of a Voronoi diagram): every pixel takes the image's colour at the
    /// nearest of a scatter of sites.
    ///
    /// The plane is cut into squares of side `radius` with a corner at `center`; each square holds one site at a
    /// position drawn from a hash of its indices, so the pattern is the same in every render and tile. A pixel takes
    /// the bilinear sample at its nearest site. The extent is the input's.
    public struct Crystallize: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Crystallize", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Makes the image out of polygons of one colour.", .image(\.image),
            .parameter(
                "radius", \.radius, slider: 1...100, allowed: 1...1e5, unit: .pixels,
                summary: "The typical distance between sites."),
            .parameter("center", \.center, summary: "A corner of the grid the sites are scattered on."))

        public var image: Image = .empty
        public var radius: Double = 20
        public var center: Point = Point(x: 150, y: 150)

        public init() {}

        /// The site of grid square `(i, j)`, in squares from `center`.
        static func site(_ i: Int, _ j: Int) -> (Double, Double) {
            let seed = PixelHash.mix(
                UInt32(truncatingIfNeeded: i) &* 0x8DA6_B343 ^ UInt32(truncatingIfNeeded: j) &* 0xD816_3841)
            return (
                Double(i) + Double(PixelHash.unit(PixelHash.mix(seed ^ 0x68E3_1DA4))),
                Double(j) + Double(PixelHash.unit(PixelHash.mix(seed ^ 0xB529_7A4D)))
            )
        }

        /// The site nearest to `(u, v)` (in squares from `center`) and its squared distance.
        ///
        /// A site two squares away is at least one square away; the own square's is within √2, so the nearest site
        /// lies in the 5 × 5 block around the point's square.
        static func nearestSite(_ u: Double, _ v: Double) -> (site: (Double, Double), distanceSquared: Double) {
            let i = Int(u.rounded(.down))
            let j = Int(v.rounded(.down))
            var best = (u, v)
            var bestDistance = Double.infinity
            for dj in -2...2 {
                for di in -2...2 {
                    let s = site(i + di, j + dj)
                    let d = (s.0 - u) * (s.0 - u) + (s.1 - v) * (s.1 - v)
                    if d < bestDistance {
                        bestDistance = d
                        best = s
                    }
                }
            }
            return (best, bestDistance)
        }

        public var outputImage: Image {
            let size = max(radius, 1)
            let c = center
            let kernel = WarpKernel(name: "crystallize") { row in
                let v = (Double(row.y) + 0.5 - c.y) / size
                for k in 0..<row.count {
                    let u = (Double(row.x + k) + 0.5 - c.x) / size
                    let best = Self.nearestSite(u, v).site
                    row.sourceX[k] = Float(c.x + best.0 * size)
                    row.sourceY[k] = Float(c.y + best.1 * size)
                }
            }
            return kernel.apply(extent: image.extent, image: image, arguments: "radius=\(radius) center=\(center)") {
                $0.insetBy(dx: -3 * size, dy: -3 * size)
            }
        }
    }
}

extension Image {
    /// The image in polygons about `radius` pixels across (see ``Filters/Crystallize``).
    public func crystallize(radius: Double = 20, center: Point = Point(x: 150, y: 150)) -> Image {
        applyingFilter(
            Filters.Crystallize {
                $0.radius = radius
                $0.center = center
            })
    }
}
