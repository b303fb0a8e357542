/// The display matrix of a track header: `x′ = a·x + c·y + tx`, `y′ = b·x + d·y + ty` (QuickTime's row-vector
/// convention).
///
/// Only the eight right-angle rotations and mirrors are produced or recognised.
struct MovieMatrix: Hashable, Sendable {
    var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    static let identity = MovieMatrix(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// The matrix that shows `width` × `height` stored pixels upright for `orientation` (as the Exif tag says).
    init(orientation: Orientation, width: Int, height: Int) {
        let w = Double(width)
        let h = Double(height)
        switch orientation {
        case .up: self = .identity
        case .upMirrored: self.init(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
        case .down: self.init(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case .downMirrored: self.init(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        case .leftMirrored: self.init(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        case .right: self.init(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        case .rightMirrored: self.init(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
        case .left: self.init(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        }
    }

    init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// The orientation this matrix applies (by the signs of its linear part); `nil` for other transforms.
    var orientation: Orientation? {
        func s(_ v: Double) -> Int { v > 0.5 ? 1 : (v < -0.5 ? -1 : (abs(v) < 1e-6 ? 0 : 9)) }
        switch (s(a), s(b), s(c), s(d)) {
        case (1, 0, 0, 1): return .up
        case (-1, 0, 0, 1): return .upMirrored
        case (-1, 0, 0, -1): return .down
        case (1, 0, 0, -1): return .downMirrored
        case (0, 1, 1, 0): return .leftMirrored
        case (0, 1, -1, 0): return .right
        case (0, -1, -1, 0): return .rightMirrored
        case (0, -1, 1, 0): return .left
        default: return nil
        }
    }
}
