/// A 2-D affine transform mapping `(x, y)` to `(a·x + c·y + tx, b·x + d·y + ty)`.
public struct AffineTransform: Hashable, Sendable, Codable, CustomStringConvertible {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    /// Creates a transform from its six coefficients.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity transform.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation.
    public init(translationX tx: Double, y ty: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// A scale about the origin.
    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation about the origin by `angle` radians (positive turns +x towards +y).
    public init(rotationAngle angle: Double) {
        let (s, co) = (sine(angle), cosine(angle))
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    /// Whether this is the identity.
    public var isIdentity: Bool { self == .identity }

    /// Whether the transform is a pure translation by whole pixels.
    public var isIntegerTranslation: Bool {
        a == 1 && b == 0 && c == 0 && d == 1 && tx.rounded() == tx && ty.rounded() == ty
    }

    /// The transform that applies `self` first, then `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// The transform that translates after `self`.
    public func translatedBy(x: Double, y: Double) -> AffineTransform {
        concatenating(AffineTransform(translationX: x, y: y))
    }

    /// The transform that scales after `self`.
    public func scaledBy(x: Double, y: Double) -> AffineTransform {
        concatenating(AffineTransform(scaleX: x, y: y))
    }

    /// The determinant of the linear part.
    public var determinant: Double { a * d - b * c }

    /// The inverse, or `nil` when the transform is singular.
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det
        let ib = -b / det
        let ic = -c / det
        let id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    /// The image of a point.
    public func apply(to p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// The bounding box of the image of a rectangle (infinite rectangles stay infinite, except under pure
    /// translations and axis-aligned scales, which keep unbounded edges on the matching sides).
    public func apply(to r: Rect) -> Rect {
        if r.isEmpty { return r }
        if r.isInfinite {
            if b == 0 && c == 0 && a > 0 && d > 0 {
                return Rect(minX: a * r.minX + tx, minY: d * r.minY + ty, maxX: a * r.maxX + tx, maxY: d * r.maxY + ty)
            }
            return .infinite
        }
        let corners = [
            apply(to: Point(x: r.minX, y: r.minY)), apply(to: Point(x: r.maxX, y: r.minY)),
            apply(to: Point(x: r.minX, y: r.maxY)), apply(to: Point(x: r.maxX, y: r.maxY)),
        ]
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        return Rect(minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!)
    }

    public var description: String { "[\(a) \(b) \(c) \(d) \(tx) \(ty)]" }
}
