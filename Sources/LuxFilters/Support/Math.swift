import LuxColor
internal import RealModule

@inline(__always)
func expDouble(_ x: Double) -> Double { Double.exp(x) }

@inline(__always)
func sinDouble(_ x: Double) -> Double { Double.sin(x) }

@inline(__always)
func cosDouble(_ x: Double) -> Double { Double.cos(x) }

@inline(__always)
func powDouble(_ x: Double, _ y: Double) -> Double { Double.pow(x, y) }

@inline(__always)
func atan2Double(y: Double, x: Double) -> Double { Double.atan2(y: y, x: x) }

@inline(__always)
func sqrtFloat(_ x: Float) -> Float { x.squareRoot() }

@inline(__always)
func exp2Float(_ x: Float) -> Float { Float.exp2(x) }

/// `sign(x)·|x|^g`: a power law mirrored through the origin for extended-range (negative) values.
///
/// Branch-free and vectorisable (``fastPow``).
@inline(__always)
func signedPow(_ x: Float, _ g: Float) -> Float {
    let m = fastPow(abs(x), g)
    return x < 0 ? -m : m
}

/// `min(max(x, lo), hi)`, branch-free.
@inline(__always)
func clampFloat(_ x: Float, _ lo: Float, _ hi: Float) -> Float {
    let a = x > lo ? x : lo
    return a < hi ? a : hi
}

/// Hermite smooth step from 0 at `e0` to 1 at `e1`.
@inline(__always)
func smoothStep(_ e0: Float, _ e1: Float, _ x: Float) -> Float {
    let t = clampFloat((x - e0) / (e1 - e0), 0, 1)
    return t * t * (3 - 2 * t)
}
