/// A planar `Float` image: `planeCount` planes of `width × height`, rows contiguous.
///
/// The renderer's working memory (radiance channels, layer cards, alpha).
package final class PlanarImage: @unchecked Sendable {
    // @unchecked: a plain allocation handed to row-band workers that write disjoint rows or columns.
    package let width: Int
    package let height: Int
    package let planeCount: Int
    package let base: UnsafeMutablePointer<Float>

    /// Creates a zeroed image.
    package init(width: Int, height: Int, planes: Int) {
        precondition(width > 0 && height > 0 && planes > 0, "a planar image needs a positive size")
        self.width = width
        self.height = height
        self.planeCount = planes
        let count = width * height * planes
        base = .allocate(capacity: count)
        base.initialize(repeating: 0, count: count)
    }

    deinit { base.deallocate() }

    /// The first sample of `plane`.
    @inline(__always)
    package func plane(_ p: Int) -> UnsafeMutablePointer<Float> { base + p * width * height }

    /// Row `y` of `plane`.
    @inline(__always)
    package func row(_ p: Int, _ y: Int) -> UnsafeMutablePointer<Float> { base + (p * height + y) * width }

    /// Sets every sample to zero.
    package func clear() { base.update(repeating: 0, count: width * height * planeCount) }

    /// The value of `plane` at `(x, y)`.
    package func value(plane p: Int, x: Int, y: Int) -> Float { row(p, y)[x] }
}

/// A scene's radiance on a pixel grid, as seen by one ``SpectralResponse``: three planar channels in absolute
/// units (for the CIE observer, XYZ with Y in cd/m²).
public struct RadianceImage: Sendable {
    package let storage: PlanarImage

    package init(storage: PlanarImage) { self.storage = storage }

    /// Width in pixels.
    public var width: Int { storage.width }
    /// Height in pixels.
    public var height: Int { storage.height }

    /// The three channel values at a pixel.
    public func value(x: Int, y: Int) -> SIMD3<Float> {
        SIMD3(storage.row(0, y)[x], storage.row(1, y)[x], storage.row(2, y)[x])
    }

    /// The mean of each channel over a rectangle of pixels.
    public func mean(x: Int, y: Int, width w: Int, height h: Int) -> SIMD3<Double> {
        var sum = SIMD3<Double>.zero
        for yy in y..<(y + h) {
            for c in 0..<3 {
                let r = storage.row(c, yy)
                var s = 0.0
                for xx in x..<(x + w) { s += Double(r[xx]) }
                sum[c] += s
            }
        }
        return sum / Double(w * h)
    }
}
