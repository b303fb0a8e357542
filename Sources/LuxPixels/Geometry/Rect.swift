/// An axis-aligned rectangle in image coordinates, possibly infinite.
///
/// Stored as its minimum and maximum corners so infinite extents (generators, clamped images) compose
/// without `∞ − ∞`. `Rect.infinite` contains everything; `Rect.null` (the result of intersecting
/// disjoint rectangles) contains nothing.
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    /// Creates a rectangle from an origin and a size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        minX = x
        minY = y
        maxX = width == .infinity ? .infinity : x + width
        maxY = height == .infinity ? .infinity : y + height
    }

    /// Creates a rectangle from integer origin and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }

    /// Creates a rectangle at the origin with the given size.
    public init(width: Int, height: Int) {
        self.init(x: 0, y: 0, width: width, height: height)
    }

    /// Creates a rectangle from its corners.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The rectangle that contains every point.
    public static let infinite = Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
    /// The empty rectangle with no position.
    public static let null = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    /// The empty rectangle at the origin.
    public static let zero = Rect(minX: 0, minY: 0, maxX: 0, maxY: 0)

    public var x: Double { minX }
    public var y: Double { minY }
    public var width: Double { max(maxX - minX, 0) }
    public var height: Double { max(maxY - minY, 0) }
    public var size: Size { Size(width: width, height: height) }
    public var origin: Point { Point(x: minX, y: minY) }
    public var midX: Double { (minX + maxX) / 2 }
    public var midY: Double { (minY + maxY) / 2 }

    /// Whether the rectangle is unbounded on any side.
    public var isInfinite: Bool { minX.isInfinite || minY.isInfinite || maxX.isInfinite || maxY.isInfinite }

    /// Whether the rectangle has no area (including ``null``).
    public var isEmpty: Bool { !(maxX > minX && maxY > minY) }

    /// Whether every edge lies on an integer.
    public var isIntegral: Bool {
        !isInfinite && minX.rounded(.down) == minX && minY.rounded(.down) == minY && maxX.rounded(.down) == maxX
            && maxY.rounded(.down) == maxY
    }

    /// The smallest rectangle with integer edges that contains this one (infinite edges stay infinite).
    public var integral: Rect {
        if isEmpty {
            return isNullRect
                ? .null
                : Rect(
                    minX: minX.rounded(.down), minY: minY.rounded(.down), maxX: minX.rounded(.down),
                    maxY: minY.rounded(.down))
        }
        return Rect(
            minX: minX.rounded(.down), minY: minY.rounded(.down), maxX: maxX.rounded(.up), maxY: maxY.rounded(.up))
    }

    private var isNullRect: Bool { minX == .infinity && maxX == -.infinity }

    /// The overlap of two rectangles, or ``null`` when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let r = Rect(
            minX: max(minX, other.minX), minY: max(minY, other.minY), maxX: min(maxX, other.maxX),
            maxY: min(maxY, other.maxY))
        return r.isEmpty ? .null : r
    }

    /// The smallest rectangle containing both (an empty rectangle contributes nothing).
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return Rect(
            minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX),
            maxY: max(maxY, other.maxY))
    }

    /// Whether the rectangles overlap with positive area.
    public func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }

    /// Whether `other` lies entirely inside this rectangle.
    public func contains(_ other: Rect) -> Bool {
        other.isEmpty || (other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY)
    }

    /// Whether the point lies inside (min edges inclusive, max edges exclusive).
    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }

    /// The rectangle grown (negative values shrink it) by `dx` on the left and right and `dy` on the top and bottom.
    ///
    /// Infinite edges stay infinite; shrinking past zero gives ``null``.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        if isEmpty { return self }
        let r = Rect(minX: minX + dx, minY: minY + dy, maxX: maxX - dx, maxY: maxY - dy)
        return r.isEmpty ? .null : r
    }

    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        if isEmpty { return self }
        return Rect(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy)
    }

    public var description: String {
        if isNullRect { return "null" }
        if minX == -.infinity && minY == -.infinity && maxX == .infinity && maxY == .infinity { return "infinite" }
        func f(_ v: Double) -> String {
            v.isInfinite ? (v < 0 ? "-inf" : "inf") : (v == v.rounded() ? String(Int(v)) : String(v))
        }
        return "[\(f(minX)) \(f(minY)) \(f(width)) \(f(height))]"
    }
}
