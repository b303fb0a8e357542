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

        /// The nearest site to each pixel of a row span: its position in pixels into `siteX`, `siteY` and its squared
        /// distance, in squares, into `distanceSquared` (when given).
        ///
        /// A site two squares away is at least one square away and the own square's is within √2, so the nearest site
        /// lies in the 5 × 5 block around the pixel's square, and in the 3 × 3 block when one there is nearer than one
        /// square. The sites of the row's five rows of squares are drawn once per span, not per pixel.
        static func nearestSites(
            y: Int, x: Int, count: Int, center c: Point, size: Double, siteX: UnsafeMutablePointer<Float>,
            siteY: UnsafeMutablePointer<Float>, distanceSquared: UnsafeMutablePointer<Float>?
        ) {
            let v = (Double(y) + 0.5 - c.y) / size
            let j = Int(v.rounded(.down))
            let u0 = (Double(x) + 0.5 - c.x) / size
            let first = Int(u0.rounded(.down)) - 2
            let columns = Int(((Double(x + count) - 0.5 - c.x) / size).rounded(.down)) + 3 - first
            // Per square of the block: the site's u, its v and its squared distance from the row in v.
            withUnsafeTemporaryAllocation(of: SIMD3<Double>.self, capacity: columns * 5) { sites in
                for column in 0..<columns {
                    for row in 0..<5 {
                        let s = site(first + column, j - 2 + row)
                        sites[column * 5 + row] = SIMD3(s.0, s.1, (s.1 - v) * (s.1 - v))
                    }
                }
                for k in 0..<count {
                    let u = (Double(x + k) + 0.5 - c.x) / size
                    let own = Int(u.rounded(.down)) - first
                    var best = sites[own * 5 + 2]
                    var bestDistance = Double.infinity
                    // The 3 × 3 block, then the ring of 16 around it unless a site nearer than one square was found.
                    for column in (own - 1)...(own + 1) {
                        for row in 1...3 {
                            let s = sites[column * 5 + row]
                            let d = (s.x - u) * (s.x - u) + s.z
                            if d < bestDistance { (best, bestDistance) = (s, d) }
                        }
                    }
                    if bestDistance > 1 {
                        for column in (own - 2)...(own + 2) {
                            for row in 0..<5 where row == 0 || row == 4 || column == own - 2 || column == own + 2 {
                                let s = sites[column * 5 + row]
                                let d = (s.x - u) * (s.x - u) + s.z
                                if d < bestDistance { (best, bestDistance) = (s, d) }
                            }
                        }
                    }
                    siteX[k] = Float(c.x + best.x * size)
                    siteY[k] = Float(c.y + best.y * size)
                    distanceSquared?[k] = Float(bestDistance)
                }
            }
        }

        public var outputImage: Image {
            let size = max(radius, 1)
            let c = center
            let kernel = WarpKernel(name: "crystallize") { row in
                Self.nearestSites(
                    y: row.y, x: row.x, count: row.count, center: c, size: size, siteX: row.sourceX,
                    siteY: row.sourceY, distanceSquared: nil)
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
