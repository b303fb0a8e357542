public import LuxRender

extension Filters {
    /// Maps colour through a three-dimensional look-up table (a "3D LUT"), interpolating trilinearly.
    ///
    /// `cubeData` holds `dimension³` RGBA entries (`4·dimension³` numbers), red varying fastest, then green,
    /// then blue: entry `(i, j, k)` is the output for input `(i, j, k)/(dimension − 1)`. Straight colour is
    /// clamped to 0…1 and looked up in the working space (use ``ColorCubeWithColorSpace`` for tables made for
    /// encoded values); the result's alpha is the input's times the table's.
    public struct ColorCube: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorCube", categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Maps colour through a 3-D look-up table.", .image(\.image), .table(\.table, filter: "ColorCube"))

        public var image: Image = .empty
        public var table = ColorCubeTable.identity(dimension: 2)

        public init() {}

        public var outputImage: Image { table.apply(to: image) }
    }
}

extension FilterDeclaration.Parameter {
    /// A colour cube's table, given as `cubeDimension` and `cubeData`.
    static func table(_ keyPath: any WritableKeyPath<F, ColorCubeTable> & Sendable, filter: String) -> Self {
        .combined(
            keyPath,
            [
                FilterParameter(
                    "cubeDimension", kind: .integer, slider: 2...64, allowed: 2...128,
                    summary: "Entries along each axis of the table."),
                FilterParameter(
                    "cubeData", kind: .numbers, summary: "dimension³ RGBA entries, red fastest, then green, then blue."),
            ],
            values: { [.number(Double($0.dimension)), .vector($0.values)] },
            make: { a throws(FilterError) in
                try ColorCubeTable(dimension: a.integer("cubeDimension"), values: a.vector("cubeData"), filter: filter)
            })
    }
}

/// The table of a ``Filters/ColorCube``: `dimension³` RGBA entries, red fastest.
public struct ColorCubeTable: Sendable, Hashable {
    /// Entries along each axis.
    public let dimension: Int
    /// `4·dimension³` values.
    public let values: [Double]

    /// Creates a table.
    ///
    /// - Throws: ``LuxRender/FilterError/wrongType(filter:parameter:expected:got:)`` when `values` does not hold
    ///   `4·dimension³` finite numbers or `dimension` is outside 2…128.
    public init(dimension: Int, values: [Double], filter: String = "ColorCube") throws(FilterError) {
        let n = 4 * dimension * dimension * dimension
        guard (2...128).contains(dimension) else {
            throw .outOfRange(filter: filter, parameter: "cubeDimension", value: Double(dimension), allowed: 2...128)
        }
        guard values.count == n, values.allSatisfy(\.isFinite) else {
            throw .wrongType(
                filter: filter, parameter: "cubeData", expected: "4·\(dimension)³ = \(n) finite numbers",
                got: "\(values.count) numbers")
        }
        self.dimension = dimension
        self.values = values
    }

    /// The table that maps every colour to itself.
    public static func identity(dimension: Int) -> ColorCubeTable {
        var v: [Double] = []
        let s = Double(dimension - 1)
        for b in 0..<dimension {
            for g in 0..<dimension {
                for r in 0..<dimension { v += [Double(r) / s, Double(g) / s, Double(b) / s, 1] }
            }
        }
        // A valid dimension and count by construction.
        return ColorCubeTable(unchecked: dimension, v)
    }

    private init(unchecked dimension: Int, _ values: [Double]) {
        self.dimension = dimension
        self.values = values
    }

    /// A short digest of the values (kernel arguments and cache keys).
    var digest: String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for v in values {
            h = (h ^ v.bitPattern) &* 0x100_0000_01b3
        }
        return "d=\(dimension) data=\(String(h, radix: 16))"
    }

    /// `image` with straight colour mapped through the table (trilinear interpolation).
    func apply(to image: Image) -> Image {
        let d = dimension
        let lut = values.map(Float.init)
        let scale = Float(d - 1)
        let kernel = ColorKernel(name: "colorCube", alphaHandling: .unpremultiplied) { row in
            let p = row.pixels
            let rr = p.red
            let gg = p.green
            let bb = p.blue
            let aa = p.alpha
            lut.withUnsafeBufferPointer { t in
                guard let tb = t.baseAddress else { return }
                let sy = 4 * d
                let sz = 4 * d * d
                for i in 0..<row.count {
                    let x = clampFloat(rr[i], 0, 1) * scale
                    let y = clampFloat(gg[i], 0, 1) * scale
                    let z = clampFloat(bb[i], 0, 1) * scale
                    let ix = min(Int(x), d - 2)
                    let iy = min(Int(y), d - 2)
                    let iz = min(Int(z), d - 2)
                    let fx = x - Float(ix)
                    let fy = y - Float(iy)
                    let fz = z - Float(iz)
                    let o = tb + 4 * ix + sy * iy + sz * iz
                    var out = SIMD4<Float>()
                    for c in 0..<4 {
                        let c00 = o[c] + (o[4 + c] - o[c]) * fx
                        let c10 = o[sy + c] + (o[sy + 4 + c] - o[sy + c]) * fx
                        let c01 = o[sz + c] + (o[sz + 4 + c] - o[sz + c]) * fx
                        let c11 = o[sz + sy + c] + (o[sz + sy + 4 + c] - o[sz + sy + c]) * fx
                        let c0 = c00 + (c10 - c00) * fy
                        let c1 = c01 + (c11 - c01) * fy
                        out[c] = c0 + (c1 - c0) * fz
                    }
                    rr[i] = out.x
                    gg[i] = out.y
                    bb[i] = out.z
                    aa[i] *= out.w
                }
            }
        }
        return image.applying(kernel, arguments: digest)
    }
}

extension Image {
    /// The image mapped through a 3-D look-up table (see ``Filters/ColorCube``).
    public func colorCube(_ table: ColorCubeTable) -> Image { applyingFilter(Filters.ColorCube { $0.table = table }) }
}
