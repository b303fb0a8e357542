import LuxPixels

/// Integer pixel bounds `[minX, maxX) × [minY, maxY)` used by the compiler and executor.
///
/// A pixel `(x, y)` belongs to a ``Rect`` when its centre `(x + 0.5, y + 0.5)` lies inside it, so integral
/// rectangles map to themselves. Unbounded edges become ±``far``.
struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    var minX: Int
    var minY: Int
    var maxX: Int
    var maxY: Int

    /// Stands in for an infinite edge (2^40 pixels, far beyond any buffer).
    static let far = 1 << 40
    static let infinite = PixelRect(minX: -far, minY: -far, maxX: far, maxY: far)
    static let empty = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)

    init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    init(x: Int, y: Int, width: Int, height: Int) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    /// The pixels whose centres lie inside `rect`.
    init(covering rect: Rect) {
        if rect.isEmpty {
            self = .empty
            return
        }
        func lower(_ v: Double) -> Int {
            if v <= -Double(Self.far) { return -Self.far }
            if v >= Double(Self.far) { return Self.far }
            return Int((v - 0.5).rounded(.up))
        }
        self.init(minX: lower(rect.minX), minY: lower(rect.minY), maxX: lower(rect.maxX), maxY: lower(rect.maxY))
        if isEmpty { self = .empty }
    }

    /// The smallest pixel rectangle containing every pixel that `rect` touches (edges rounded outwards).
    init(enclosing rect: Rect) {
        if rect.isEmpty {
            self = .empty
            return
        }
        func clampFar(_ v: Double) -> Int {
            if v <= -Double(Self.far) { return -Self.far }
            if v >= Double(Self.far) { return Self.far }
            return Int(v)
        }
        self.init(
            minX: clampFar(rect.minX.rounded(.down)), minY: clampFar(rect.minY.rounded(.down)),
            maxX: clampFar(rect.maxX.rounded(.up)), maxY: clampFar(rect.maxY.rounded(.up)))
    }

    var width: Int { max(maxX - minX, 0) }
    var height: Int { max(maxY - minY, 0) }
    var isEmpty: Bool { maxX <= minX || maxY <= minY }
    var isInfinite: Bool { minX <= -Self.far || minY <= -Self.far || maxX >= Self.far || maxY >= Self.far }
    var area: Int { isEmpty ? 0 : width * height }

    /// The same rectangle as a ``Rect`` (far edges become infinite).
    var rect: Rect {
        if isEmpty { return .null }
        func d(_ v: Int) -> Double { v <= -Self.far ? -.infinity : (v >= Self.far ? .infinity : Double(v)) }
        return Rect(minX: d(minX), minY: d(minY), maxX: d(maxX), maxY: d(maxY))
    }

    func intersection(_ o: PixelRect) -> PixelRect {
        let r = PixelRect(
            minX: max(minX, o.minX), minY: max(minY, o.minY), maxX: min(maxX, o.maxX), maxY: min(maxY, o.maxY))
        return r.isEmpty ? .empty : r
    }

    func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return PixelRect(
            minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }

    func contains(_ o: PixelRect) -> Bool {
        o.isEmpty || (o.minX >= minX && o.minY >= minY && o.maxX <= maxX && o.maxY <= maxY)
    }

    func offsetBy(dx: Int, dy: Int) -> PixelRect {
        if isEmpty { return self }
        func add(_ v: Int, _ d: Int) -> Int { abs(v) >= Self.far ? v : v + d }
        return PixelRect(minX: add(minX, dx), minY: add(minY, dy), maxX: add(maxX, dx), maxY: add(maxY, dy))
    }

    func insetBy(dx: Int, dy: Int) -> PixelRect {
        if isEmpty { return self }
        func add(_ v: Int, _ d: Int) -> Int { abs(v) >= Self.far ? v : v + d }
        let r = PixelRect(minX: add(minX, dx), minY: add(minY, dy), maxX: add(maxX, -dx), maxY: add(maxY, -dy))
        return r.isEmpty ? .empty : r
    }

    var description: String { rect.description }
}
