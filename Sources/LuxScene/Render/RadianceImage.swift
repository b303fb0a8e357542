package import LuxPixels

/// A scene's radiance on a pixel grid, as seen by one ``SpectralResponse``: three planar channels in absolute
/// units (for the CIE observer, XYZ with Y in cd/m²).
public struct RadianceImage: Sendable {
    package let storage: PlanarBuffer<Float>

    package init(storage: PlanarBuffer<Float>) { self.storage = storage }

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
