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
