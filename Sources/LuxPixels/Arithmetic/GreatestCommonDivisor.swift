/// The greatest common divisor of `a` and `b` (Euclid's algorithm on their magnitudes; 0 when both are 0).
package func greatestCommonDivisor<T: SignedInteger>(_ a: T, _ b: T) -> T {
    var (x, y) = (a < 0 ? -a : a, b < 0 ? -b : b)
    while y != 0 { (x, y) = (y, x % y) }
    return x
}
