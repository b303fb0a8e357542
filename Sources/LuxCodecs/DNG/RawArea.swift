public import LuxPixels

/// An integer rectangle of the stored raw image, in DNG's top/left/bottom/right form (ActiveArea, MaskedAreas).
///
/// `bottom` and `right` are exclusive.
public struct RawArea: Hashable, Sendable, Codable, CustomStringConvertible {
    /// First row.
    public var top: Int
    /// First column.
    public var left: Int
    /// Row after the last.
    public var bottom: Int
    /// Column after the last.
    public var right: Int

    /// Creates an area from its edges.
    public init(top: Int, left: Int, bottom: Int, right: Int) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// Creates an area from an origin and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(top: y, left: x, bottom: y + height, right: x + width)
    }

    /// Width in pixels.
    public var width: Int { right - left }
    /// Height in pixels.
    public var height: Int { bottom - top }
    /// The area as a ``Rect``.
    public var rect: Rect { Rect(x: left, y: top, width: width, height: height) }
    /// Whether the area is empty.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    public var description: String { "top \(top), left \(left), bottom \(bottom), right \(right) (\(width)×\(height))" }
}

/// The default crop of a DNG: the part of the active area a renderer shows, relative to the active area's
/// top-left corner (DefaultCropOrigin/DefaultCropSize; values may be fractional).
public struct DefaultCrop: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Left edge, from the active area's left.
    public var x: Double
    /// Top edge, from the active area's top.
    public var y: Double
    /// Width in pixels.
    public var width: Double
    /// Height in pixels.
    public var height: Double

    /// Creates a crop.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "origin (\(x), \(y)), size \(width)×\(height)" }
}
