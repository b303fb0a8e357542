public import LuxPixels

/// A kernel that moves pixels (the CIWarpKernel role).
///
/// It maps each destination position to the source position to read.
///
/// The engine then samples the input there (``SamplingMode``).
///
/// The body fills `row.sourceX[i]`, `row.sourceY[i]` for the pixel centres `(row.x + i + 0.5, row.y + 0.5)`.
///
/// ```swift
/// let mirror = WarpKernel(name: "mirror") { row in
///     for i in 0..<row.count {
///         row.sourceX[i] = 100 - (Float(row.x + i) + 0.5)
///         row.sourceY[i] = Float(row.y) + 0.5
///     }
/// }
/// ```
public struct WarpKernel: Sendable {
    /// The body: fills the source coordinates of one row span.
    public typealias Body = @Sendable (_ row: WarpKernelRow) -> Void

    /// The kernel's name.
    public let name: String
    let body: Body

    /// Creates a kernel.
    public init(name: String, body: @escaping Body) {
        self.name = name
        self.body = body
    }

    /// Applies the kernel to `image`.
    ///
    /// - Parameters:
    ///   - extent: The output extent.
    ///   - image: The image to sample.
    ///   - arguments: A description of the captured parameters.
    ///   - sampling: How to interpolate between pixel centres.
    ///   - roi: The region of `image` that the source positions of an output rectangle fall into
    ///     (the engine adds the interpolation margin).
    public func apply(
        extent: Rect, image: Image, arguments: String = "", sampling: SamplingMode = .linear,
        roi: @escaping @Sendable (_ rect: Rect) -> Rect
    ) -> Image {
        Image(
            node: Node(
                .warpKernel(self, arguments: arguments, sampling: sampling, roi: roi), inputs: [image.node],
                extent: extent, isOpaque: false))
    }
}

extension WarpKernel {
    /// The bounding box of the source positions the body gives the pixels of `rect`: every pixel along its edges and
    /// every `step`-th pixel inside (a probe for a region of interest; `nil` when no position is finite).
    ///
    /// Between the probed pixels positions may reach further: a caller pads the box by how far the map can move over
    /// `step` pixels, and treats separately what the edges cannot reveal (a region of the map wholly inside `rect`).
    public func sourceBounds(of rect: Rect, step: Int) -> Rect? {
        let r = rect.integral
        guard !r.isEmpty, !r.isInfinite, step >= 1 else { return nil }
        let (x0, y0, w, h) = (Int(r.minX), Int(r.minY), Int(r.width), Int(r.height))
        let xs = UnsafeMutablePointer<Float>.allocate(capacity: 2 * w)
        defer { xs.deallocate() }
        let ys = xs + w
        var (minX, minY, maxX, maxY) = (Float.infinity, Float.infinity, -Float.infinity, -Float.infinity)
        func probe(x: Int, y: Int, count: Int) {
            body(WarpKernelRow(count: count, x: x, y: y, sourceX: xs, sourceY: ys))
            for i in 0..<count where xs[i].isFinite && ys[i].isFinite {
                (minX, maxX) = (min(minX, xs[i]), max(maxX, xs[i]))
                (minY, maxY) = (min(minY, ys[i]), max(maxY, ys[i]))
            }
        }
        for y in y0..<(y0 + h) {
            if y == y0 || y == y0 + h - 1 {
                probe(x: x0, y: y, count: w)
                continue
            }
            probe(x: x0, y: y, count: 1)
            probe(x: x0 + w - 1, y: y, count: 1)
            if (y - y0) % step == 0 {
                for x in stride(from: x0 + step, to: x0 + w - 1, by: step) { probe(x: x, y: y, count: 1) }
            }
        }
        guard minX <= maxX, minY <= maxY else { return nil }
        return Rect(minX: Double(minX), minY: Double(minY), maxX: Double(maxX), maxY: Double(maxY))
    }
}

/// One row span handed to a ``WarpKernel`` body.
public struct WarpKernelRow {
    /// The number of pixels.
    public let count: Int
    /// The column of the first destination pixel.
    public let x: Int
    /// The destination row.
    public let y: Int
    /// Source x positions to fill (`count` of them).
    public let sourceX: UnsafeMutablePointer<Float>
    /// Source y positions to fill.
    public let sourceY: UnsafeMutablePointer<Float>
}
