public import LuxPixels
public import LuxRender

extension Filters {
    /// The square lattice a symmetry tile repeats on: the base tile has a corner at `center`, sides of `width` pixels
    /// and its first side turned by `angle` (radians, clockwise on screen since y points down).
    public struct TileLattice: Sendable, Hashable {
        /// A corner of the base tile.
        public var center: Point
        /// The rotation of the tiling, in radians.
        public var angle: Double
        /// The side of the base tile, in pixels.
        public var width: Double

        /// A lattice (Core Image's defaults: a corner at (150, 150), unrotated, 100 pixels wide).
        public init(center: Point = Point(x: 150, y: 150), angle: Double = 0, width: Double = 100) {
            self.center = center
            self.angle = angle
            self.width = width
        }
    }
}

/// A tile filter: its input and the lattice it tiles are stored in `image` and `lattice`, whose fields read and write
/// as the filter's own (`tile.center`), so each tile declares only its fold.
@dynamicMemberLookup
public protocol LatticeTileFilter: DeclaredFilter {
    /// The image tiled.
    var image: Image { get set }
    /// The lattice of the tiling.
    var lattice: Filters.TileLattice { get set }
}

extension LatticeTileFilter {
    /// A field of ``lattice``, such as `center`.
    public subscript<V>(dynamicMember keyPath: WritableKeyPath<Filters.TileLattice, V>) -> V {
        get { lattice[keyPath: keyPath] }
        set { lattice[keyPath: keyPath] = newValue }
    }

    /// The infinite tiling whose pixel at tile coordinates `(u, v)` reads `fold(u, v)`, a point of `base` (default
    /// the unit tile).
    func tiling(
        _ name: String, base: Rect = Rect(x: 0, y: 0, width: 1, height: 1),
        fold: @escaping @Sendable (_ u: Double, _ v: Double) -> (Double, Double)
    ) -> Image {
        let l = lattice
        return TileWarp.apply(
            image, name: name, arguments: "center=\(l.center) angle=\(l.angle) width=\(l.width)", center: l.center,
            angle: l.angle, width: l.width, base: base, fold: fold)
    }
}

/// A tile filter on a lattice of parallelograms: the square lattice sheared so that its second side is at
/// `acuteAngle` to the first.
public protocol ParallelogramTileFilter: LatticeTileFilter {
    /// The angle between the tiling's two directions, in radians.
    var acuteAngle: Double { get set }
}

extension ParallelogramTileFilter {
    /// The infinite tiling whose pixel at lattice coordinates `(p, q)` reads `(fold(p), fold(q))` in the base cell.
    func parallelogramTiling(_ name: String, fold: @escaping @Sendable (Double) -> Double) -> Image {
        let l = lattice
        let a = acuteAngle
        return TileWarp.apply(
            image, name: name, arguments: "center=\(l.center) angle=\(l.angle) width=\(l.width) acuteAngle=\(a)",
            center: l.center, angle: l.angle, width: l.width, base: TileWarp.latticeCell(acuteAngle: a)
        ) { u, v in
            let (p, q) = TileWarp.lattice(u, v, acuteAngle: a)
            return TileWarp.unlattice(fold(p), fold(q), acuteAngle: a)
        }
    }
}

extension FilterDeclaration.Parameter where F: LatticeTileFilter {
    /// The main image and the lattice: `image`, `center`, `angle` and `width`.
    static var lattice: Self { .group(latticeParameters(acuteAngle: nil)) }

    fileprivate static func latticeParameters(acuteAngle: (any WritableKeyPath<F, Double> & Sendable)?) -> [Self] {
        [
            .image(\.image), .parameter("center", \.lattice.center, summary: "A corner of the base tile."),
            .parameter(
                "angle", \.lattice.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The rotation of the tiling."),
        ]
            + (acuteAngle.map {
                [
                    .parameter(
                        "acuteAngle", $0, slider: 0...Double.pi, allowed: 0...Double.pi, unit: .radians,
                        summary: "The angle between the tiling's two directions.")
                ]
            } ?? [])
            + [
                .parameter(
                    "width", \.lattice.width, slider: 1...200, allowed: 0.01...1e6, unit: .pixels,
                    summary: "The width of the base tile.")
            ]
    }
}

extension FilterDeclaration.Parameter where F: ParallelogramTileFilter {
    /// The image, the lattice and `acuteAngle` (between `angle` and `width`, in Core Image's order).
    static var parallelogramLattice: Self { .group(latticeParameters(acuteAngle: \F.acuteAngle)) }
}
