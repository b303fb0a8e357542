public import LuxPixels

/// Read access to a materialised region of one kernel input: interleaved, premultiplied RGBA `Float` in
/// the working space.
///
/// The engine materialises exactly the region the kernel's ROI callback asked for (``region``), with
/// transparent pixels wherever that region leaves the input's ``extent``. Row pointers are valid for
/// `region.minX..<region.maxX`; ``pixel(x:y:)`` and ``sample(x:y:)`` return transparent black outside.
public struct Sampler {
    @usableFromInline let base: UnsafePointer<Float>
    /// Floats between the starts of consecutive rows.
    public let rowStride: Int
    /// First materialised column.
    public let minX: Int
    /// First materialised row.
    public let minY: Int
    /// Materialised columns.
    public let width: Int
    /// Materialised rows.
    public let height: Int
    /// The input image's extent (values outside it are transparent).
    public let extent: Rect

    init(base: UnsafePointer<Float>, rowStride: Int, minX: Int, minY: Int, width: Int, height: Int, extent: Rect) {
        self.base = base
        self.rowStride = rowStride
        self.minX = minX
        self.minY = minY
        self.width = width
        self.height = height
        self.extent = extent
    }

    /// The materialised region.
    public var region: Rect { Rect(x: minX, y: minY, width: width, height: height) }
    /// One past the last materialised column.
    public var maxX: Int { minX + width }
    /// One past the last materialised row.
    public var maxY: Int { minY + height }

    /// Row `y` (image coordinates), pointing at the pixel of column ``minX``; pixel `x` starts at
    /// `row(y) + 4 * (x - minX)`.
    ///
    /// - Precondition: `minY <= y < maxY` (checked in debug builds only).
    @inlinable
    public func row(_ y: Int) -> UnsafePointer<Float> {
        assert(y >= minY && y < maxY, "row \(y) is outside the sampled region \(region)")
        return base + (y - minY) * rowStride
    }

    /// A pointer to pixel `(x, y)`, which must lie inside the region.
    @inlinable
    public func pointer(x: Int, y: Int) -> UnsafePointer<Float> {
        assert(x >= minX && x < maxX, "column \(x) is outside the sampled region \(region)")
        return row(y) + 4 * (x - minX)
    }

    /// Pixel `(x, y)`, or transparent black outside the region.
    @inlinable
    public func pixel(x: Int, y: Int) -> SIMD4<Float> {
        guard x >= minX, x < minX + width, y >= minY, y < minY + height else { return .zero }
        let p = base + (y - minY) * rowStride + 4 * (x - minX)
        return SIMD4(p[0], p[1], p[2], p[3])
    }

    /// Pixel `(x, y)` with coordinates clamped into the region (edge pixels repeat).
    @inlinable
    public func clampedPixel(x: Int, y: Int) -> SIMD4<Float> {
        let cx = min(max(x, minX), minX + width - 1)
        let cy = min(max(y, minY), minY + height - 1)
        let p = base + (cy - minY) * rowStride + 4 * (cx - minX)
        return SIMD4(p[0], p[1], p[2], p[3])
    }

    /// Bilinear sample at a continuous position (pixel centres lie at `i + 0.5`).
    @inlinable
    public func sample(x: Float, y: Float) -> SIMD4<Float> {
        let u = x - 0.5
        let v = y - 0.5
        let fu = u.rounded(.down)
        let fv = v.rounded(.down)
        let i = Int(fu)
        let j = Int(fv)
        let ax = u - fu
        let ay = v - fv
        let p00 = pixel(x: i, y: j)
        let p10 = pixel(x: i + 1, y: j)
        let p01 = pixel(x: i, y: j + 1)
        let p11 = pixel(x: i + 1, y: j + 1)
        let top = p00 + (p10 - p00) * ax
        let bottom = p01 + (p11 - p01) * ax
        return top + (bottom - top) * ay
    }
}
