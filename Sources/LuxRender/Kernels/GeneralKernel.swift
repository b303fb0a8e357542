public import LuxPixels

/// A kernel that reads arbitrary neighbourhoods of one or more inputs (the CIKernel role).
///
/// For each output tile the engine asks the ROI callback which region of each input is needed,
/// materialises those regions (tile plus margin) and then calls the body once per row span with a
/// ``Sampler`` per input. The body writes interleaved, premultiplied RGBA `Float` to `row.output`.
///
/// ```swift
/// let boxBlur = GeneralKernel(name: "box3") { row in
///     let s = row.sampler(0)
///     for i in 0..<row.count {
///         var sum = SIMD4<Float>()
///         for dy in -1...1 { for dx in -1...1 { sum += s.pixel(x: row.x + i + dx, y: row.y + dy) } }
///         row.store(sum / 9, at: i)
///     }
/// }
/// let blurred = boxBlur.apply(extent: image.extent.insetBy(dx: -1, dy: -1), inputs: [image]) { _, r in
///     r.insetBy(dx: -1, dy: -1)
/// }
/// ```
///
/// Hot kernels should read through ``Sampler/row(_:)`` pointers and loop over floats, which LLVM
/// vectorises; ``Sampler/pixel(x:y:)`` is convenient but checks bounds on every call.
public struct GeneralKernel: Sendable {
    /// The body: fills one output row span.
    public typealias Body = @Sendable (_ row: GeneralKernelRow) -> Void
    /// The region of input `index` needed to produce `rect` of the output.
    public typealias RegionOfInterest = @Sendable (_ index: Int, _ rect: Rect) -> Rect

    /// The kernel's name (shown by `LUX_PRINT_TREE`).
    public let name: String
    /// The number of image inputs.
    public let inputCount: Int
    let body: Body

    /// Creates a kernel.
    public init(name: String, inputCount: Int = 1, body: @escaping Body) {
        precondition(inputCount >= 1, "a general kernel needs at least one input; use a ColorKernel generator")
        self.name = name
        self.inputCount = inputCount
        self.body = body
    }

    /// Applies the kernel.
    ///
    /// - Parameters:
    ///   - extent: The output extent.
    ///   - inputs: Exactly ``inputCount`` images.
    ///   - arguments: A description of the captured parameters (printing and cache key).
    ///   - colors: Colours the body reads with ``GeneralKernelRow/color(_:)`` (working space, unpremultiplied).
    ///   - roi: The region of each input needed for an output rectangle. Required, as in Core Image: it is
    ///     what keeps a render of a small region from touching the whole input.
    public func apply(
        extent: Rect, inputs: [Image], arguments: String = "", colors: [Color] = [],
        roi: @escaping RegionOfInterest
    ) -> Image {
        precondition(inputs.count == inputCount, "kernel \(name) takes \(inputCount) inputs, not \(inputs.count)")
        return Image(
            node: Node(
                .generalKernel(self, arguments: arguments, colors: colors, roi: roi), inputs: inputs.map(\.node),
                extent: extent, isOpaque: false))
    }
}

/// One row span handed to a ``GeneralKernel`` body.
public struct GeneralKernelRow {
    /// The number of pixels in the span.
    public let count: Int
    /// The column of the first pixel (its centre is at `x + 0.5`).
    public let x: Int
    /// The row (centres at `y + 0.5`).
    public let y: Int
    /// Where to write `count` interleaved RGBA pixels (premultiplied, working space).
    public let output: UnsafeMutablePointer<Float>
    let samplerBase: UnsafePointer<Sampler>
    let colorBase: UnsafePointer<SIMD4<Float>>?

    /// The sampler of input `index`.
    public func sampler(_ index: Int) -> Sampler { samplerBase[index] }

    /// Colour argument `index` in the working space (unpremultiplied RGBA).
    public func color(_ index: Int) -> SIMD4<Float> { colorBase![index] }

    /// Writes pixel `i` of the span.
    @inlinable
    public func store(_ value: SIMD4<Float>, at i: Int) {
        output[4 * i] = value.x
        output[4 * i + 1] = value.y
        output[4 * i + 2] = value.z
        output[4 * i + 3] = value.w
    }
}
