public import LuxPixels

/// A per-pixel kernel written in Swift (the CIColorKernel role).
///
/// Each output pixel depends only on the input pixels at the same position (and, for generators, on the
/// position itself).
///
/// The body runs once per *row span* (up to a few hundred pixels), never once per pixel: it receives the
/// pixels as planes of `Float` (``PlanarPixels``) and loops over them. Consecutive colour kernels, colour
/// matches and alpha conversions are fused by the engine into one program that makes a single pass over
/// memory, so a chain of kernels costs little more than one.
///
/// ```swift
/// let invert = ColorKernel(name: "invert", alphaHandling: .unpremultiplied) { row in
///     let p = row.pixels
///     for i in 0..<row.count {
///         p.red[i] = 1 - p.red[i]; p.green[i] = 1 - p.green[i]; p.blue[i] = 1 - p.blue[i]
///     }
/// }
/// let inverted = image.applying(invert)
/// ```
///
/// Write the body as a plain scalar loop over `0..<row.count` on the plane pointers, with no calls, early
/// exits or allocation inside: LLVM then vectorises it. Capture parameters as `let` constants in the
/// closure and describe them in `arguments` (used for printing and as the cache key).
public struct ColorKernel: Sendable {
    /// Whether the kernel sees premultiplied or straight (unpremultiplied) colour.
    public enum AlphaHandling: Hashable, Sendable {
        /// Values are premultiplied by alpha (the working representation; right for compositing).
        case premultiplied
        /// The engine unpremultiplies inputs and premultiplies the result (right for colour adjustments).
        ///
        /// Adjacent conversions between fused kernels cancel, so chains pay for them once.
        case unpremultiplied
    }

    /// The body: transforms one row span in place.
    public typealias Body = @Sendable (_ row: ColorKernelRow) -> Void

    /// The kernel's name (shown by `LUX_PRINT_TREE`).
    public let name: String
    /// The number of image inputs (0 for generators).
    public let inputCount: Int
    /// How alpha is presented to the body.
    public let alphaHandling: AlphaHandling
    /// Whether the output alpha always equals input 0's alpha (lets the engine keep an image marked opaque).
    public let preservesAlpha: Bool
    /// The affine colour map the kernel applies, when it was made from one (the engine composes these).
    public let transform: ColorTransform?
    let body: Body

    /// Creates a kernel.
    ///
    /// - Parameters:
    ///   - name: A name for tree printing.
    ///   - inputCount: The number of image inputs (0 makes a generator whose body fills `row.pixels`).
    ///   - alphaHandling: Whether the body sees premultiplied values.
    ///   - preservesAlpha: Pass `true` when the body never changes alpha.
    ///   - body: Transforms `row.pixels` (which holds input 0 on entry) in place.
    public init(
        name: String, inputCount: Int = 1, alphaHandling: AlphaHandling = .premultiplied,
        preservesAlpha: Bool = false, body: @escaping Body
    ) {
        precondition(inputCount >= 0, "a kernel cannot have \(inputCount) inputs")
        self.name = name
        self.inputCount = inputCount
        self.alphaHandling = alphaHandling
        self.preservesAlpha = preservesAlpha
        transform = nil
        self.body = body
    }

    /// Creates a kernel that applies an affine colour map to premultiplied colour, alpha unchanged.
    ///
    /// The engine runs it in a vectorised row loop and composes it with adjacent transform kernels, so prefer
    /// this to a body whenever a kernel is a colour matrix.
    ///
    /// - Parameters:
    ///   - name: A name for tree printing.
    ///   - transform: The map.
    public init(name: String, transform: ColorTransform) {
        self.name = name
        inputCount = 1
        alphaHandling = .premultiplied
        preservesAlpha = true
        self.transform = transform
        body = transform.body
    }

    /// Applies the kernel to `inputs`, producing an image of the given extent.
    ///
    /// Outside `extent` the result is transparent; an input read outside its own extent is transparent.
    ///
    /// - Parameters:
    ///   - extent: The output extent (often an input's extent, their union, or `.infinite` for generators).
    ///   - inputs: Exactly ``inputCount`` images.
    ///   - arguments: A description of the captured parameters, e.g. `"intensity=0.8"`. It is printed in
    ///     trees and is part of the cache key, so it must change whenever the body's parameters change.
    ///   - colors: Colours the body reads with ``ColorKernelRow/color(_:)``, converted into the working space
    ///     at render time.
    public func apply(extent: Rect, inputs: [Image], arguments: String = "", colors: [Color] = []) -> Image {
        precondition(inputs.count == inputCount, "kernel \(name) takes \(inputCount) inputs, not \(inputs.count)")
        let opaque = preservesAlpha && (inputs.first?.isOpaque ?? false)
        return Image(
            node: Node(
                .colorKernel(self, arguments: arguments, colors: colors), inputs: inputs.map(\.node), extent: extent,
                isOpaque: opaque))
    }
}

/// One row span handed to a ``ColorKernel`` body.
public struct ColorKernelRow {
    /// The number of pixels in the span.
    public let count: Int
    /// The column of the first pixel.
    ///
    /// Pixel `i` covers `[x + i, x + i + 1)`; its centre is `x + i + 0.5`.
    public let x: Int
    /// The row.
    ///
    /// Its pixel centres lie at `y + 0.5` (y grows downwards).
    public let y: Int
    /// The output planes; they hold input 0 on entry (in place).
    ///
    /// Generators fill them.
    public let pixels: PlanarPixels
    let inputBase: UnsafeMutablePointer<Float>?
    let planeStride: Int
    let colorBase: UnsafePointer<SIMD4<Float>>?

    /// Input `index` at the same positions (input 0 is ``pixels``).
    ///
    /// Treat inputs other than 0 as read-only.
    public func input(_ index: Int) -> PlanarPixels {
        if index == 0 { return pixels }
        let base = inputBase! + (index - 1) * 4 * planeStride
        return PlanarPixels(base: base, stride: planeStride, count: count)
    }

    /// Colour argument `index`, converted into the working space (unpremultiplied RGBA).
    public func color(_ index: Int) -> SIMD4<Float> { colorBase![index] }
}

extension Image {
    /// Applies a one-input colour kernel over this image's extent.
    public func applying(_ kernel: ColorKernel, arguments: String = "", colors: [Color] = []) -> Image {
        kernel.apply(extent: extent, inputs: [self], arguments: arguments, colors: colors)
    }
}
