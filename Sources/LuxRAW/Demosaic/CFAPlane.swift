public import LuxPixels

/// A Bayer mosaic as one plane of `Float` samples in memory, with the colour layout at its first pixel.
///
/// This is what the demosaicers read: linear (or, for the quality benchmarks, gamma-encoded) values, one per
/// photosite. The plane may be a window of a larger mosaic; ``redRow`` and ``greenParity`` then describe the
/// window's own top-left pixel.
public struct CFAPlane {
    /// The first sample of row 0.
    public let base: UnsafePointer<Float>
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Floats between the starts of consecutive rows.
    public let rowStride: Int
    /// The Bayer layout of pixel (0, 0).
    public let pattern: CFAPattern

    /// Creates a view of a mosaic plane.
    ///
    /// - Precondition: `width` and `height` are positive and `rowStride >= width`.
    public init(base: UnsafePointer<Float>, width: Int, height: Int, rowStride: Int, pattern: CFAPattern) {
        precondition(width > 0 && height > 0 && rowStride >= width, "a CFA plane needs a positive size")
        self.base = base
        self.width = width
        self.height = height
        self.rowStride = rowStride
        self.pattern = pattern
    }

    /// The parity of `x + y` at green photosites (0 for GRBG/GBRG, 1 for RGGB/BGGR).
    public var greenParity: Int {
        switch pattern {
        case .rggb, .bggr: 1
        case .grbg, .gbrg: 0
        }
    }

    /// The parity of the rows that hold red photosites.
    public var redRow: Int {
        switch pattern {
        case .rggb, .grbg: 0
        case .bggr, .gbrg: 1
        }
    }

    /// The parity of the columns that hold red photosites.
    public var redColumn: Int { (redRow + greenParity + 1) & 1 }

    /// Row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafePointer<Float> { base + y * rowStride }
}

/// Three planes of `Float` (red, green, blue) that a demosaicer fills.
public struct RGBPlanes {
    /// Red samples.
    public let red: UnsafeMutablePointer<Float>
    /// Green samples.
    public let green: UnsafeMutablePointer<Float>
    /// Blue samples.
    public let blue: UnsafeMutablePointer<Float>
    /// Floats between the starts of consecutive rows (the same in all three planes).
    public let rowStride: Int

    /// Creates a view of three planes.
    public init(
        red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>,
        rowStride: Int
    ) {
        self.red = red
        self.green = green
        self.blue = blue
        self.rowStride = rowStride
    }

    /// Plane `c` (0 red, 1 green, 2 blue).
    @inline(__always)
    func plane(_ c: Int) -> UnsafeMutablePointer<Float> { c == 0 ? red : (c == 1 ? green : blue) }
}
