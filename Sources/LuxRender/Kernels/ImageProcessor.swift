public import LuxPixels

/// Arbitrary code over whole regions: the CIImageProcessor role.
///
/// Use a processor for algorithms that are not data-parallel per pixel (integral images, recursive
/// filters, separable resampling, reductions) or that call into other libraries. For each output tile
/// the engine materialises the region of each input that ``RegionOfInterest`` names, in
/// ``inputFormat``, hands them to the body with an output buffer for the tile in ``outputFormat``, and
/// treats the result as an intermediate that following kernels read.
///
/// ```swift
/// let integral = ImageProcessor(
///     description: "integralImage", inputFormat: .rgbaFloat, outputFormat: .rgbaFloat,
///     roi: { _, rect in Rect(minX: extent.minX, minY: extent.minY, maxX: rect.maxX, maxY: rect.maxY) },
///     process: { inputs, output in
///         // read inputs[0], write output
///     }
/// )
/// let image = integral.apply(to: [source], extent: source.extent)
/// ```
///
/// Values are premultiplied and in the working space. If an algorithm needs another colour space, match
/// the input with ``Image/matchedFromWorkingSpace(to:)`` and the output with
/// ``Image/matchedToWorkingSpace(from:)``, as the seed recommends.
public struct ImageProcessor: Sendable {
    /// The region of input `index` needed to produce `rect` of the output.
    public typealias RegionOfInterest = @Sendable (_ index: Int, _ rect: Rect) -> Rect
    /// The body.
    ///
    /// It may throw; the render then fails with ``RenderError/processorFailed(_:reason:)``.
    public typealias Body = @Sendable (_ inputs: [ImageProcessorInput], _ output: ImageProcessorOutput) throws -> Void

    /// The formats processors can read and write.
    public static let supportedFormats: [PixelFormat] = [.rgbaFloat, .rgbaHalf, .rgba8, .bgra8, .rgba16]

    /// A name for tree printing.
    public let processorDescription: String
    /// The parameters, for printing and the cache key (must change whenever the body's behaviour does).
    public let argumentDigest: String
    /// The format of input buffers; `nil` means the render's working format (``PixelFormat/rgbaHalf``,
    /// ``PixelFormat/rgbaFloat`` or ``PixelFormat/rgba8``, see ``RenderOptions/workingFormat``), which keeps large
    /// input regions compact.
    ///
    /// Check ``ImageProcessorInput/format``.
    public let inputFormat: PixelFormat?
    /// The format of the output buffer.
    public let outputFormat: PixelFormat
    /// The arrangement of the input buffers' components (``PixelLayout/interleaved`` unless the processor asked for
    /// planes).
    public let inputLayout: PixelLayout
    /// The arrangement of the output buffer's components.
    public let outputLayout: PixelLayout
    let roi: RegionOfInterest
    let body: Body
    /// Set for a reducing processor: the engine then reduces the input band by band on all workers instead of
    /// calling ``body`` with the whole region.
    let reduction: ImageReduction?

    /// Creates a processor.
    ///
    /// A processor that computes on planes can ask for ``PixelLayout/planarRows`` buffers and reach them through
    /// ``ImageProcessorInput/planes(_:)`` (read-only, ``ReadOnlyPlanarPixels``) and
    /// ``ImageProcessorOutput/planes(_:)`` (``PlanarPixels``): the rows it exchanges with row programs and with other
    /// planar processors then need no interleaving.
    ///
    /// - Parameters:
    ///   - inputFormat: The format of the input buffers, or `nil` for the render's working format (`.rgba8` instead
    ///     of half floats for an input that holds 8-bit values exactly, such as an opaque 8-bit source).
    ///   - inputLayout: The arrangement of the input buffers' components.
    ///   - outputLayout: The arrangement of the output buffer's components.
    /// - Precondition: both formats are in ``supportedFormats``; a ``PixelLayout/planarRows`` layout goes with the
    ///   format ``PixelFormat/rgbaFloat``.
    public init(
        description: String, argumentDigest: String = "", inputFormat: PixelFormat? = .rgbaFloat,
        inputLayout: PixelLayout = .interleaved, outputFormat: PixelFormat = .rgbaFloat,
        outputLayout: PixelLayout = .interleaved, roi: @escaping RegionOfInterest, process body: @escaping Body
    ) {
        self.init(
            description, argumentDigest, inputFormat, outputFormat, roi, body, reduction: nil,
            layouts: (inputLayout, outputLayout))
    }

    /// Creates a reducing processor: one that summarises `area` of its single input into a few output pixels
    /// (averages, extremes, histograms) without the whole area ever being in memory.
    ///
    /// The engine splits `area` into full-width bands of `bandRows` rows (a grid fixed by `area`, so results do
    /// not depend on the thread count), materialises and reduces them in parallel on all workers — `band` writes
    /// the band's `partialCount` values, zeroed beforehand — and then calls `combine` for the output tile with
    /// the partial values of every band, band after band from the top.
    ///
    /// ```swift
    /// let rows = 64
    /// let sums = ImageProcessor(
    ///     description: "rowSums", outputFormat: .rgbaFloat, reducing: area, bandRows: rows, partialCount: rows,
    ///     band: { input, partial in /* partial[j] = the sum of the band's row j */ },
    ///     combine: { partials, output in /* partials[y] is row y's sum: add them in order */ })
    /// let total = sums.apply(to: [image], extent: Rect(width: 1, height: 1))
    /// ```
    ///
    /// - Parameters:
    ///   - inputFormat: The format of the band buffers, or `nil` for the render's working format (`.rgba8` instead
    ///     of half floats for an input that holds 8-bit values exactly, such as an opaque 8-bit source).
    ///   - area: The region reduced (rounded out to whole pixels; finite).
    ///   - bandRows: Rows per band (the last band may be shorter).
    ///   - partialCount: Values each band writes.
    /// - Precondition: the formats are in ``supportedFormats``; `bandRows` and `partialCount` are positive.
    public init(
        description: String, argumentDigest: String = "", inputFormat: PixelFormat? = .rgbaFloat,
        outputFormat: PixelFormat = .rgbaFloat, reducing area: Rect, bandRows: Int, partialCount: Int,
        band: @escaping ImageReduction.Band, combine: @escaping ImageReduction.Combine
    ) {
        precondition(bandRows > 0 && partialCount > 0, "a reduction needs positive band rows and partial counts")
        precondition(!area.isInfinite, "a reduction needs a finite area")
        let region = area.integral
        let reduction = ImageReduction(
            area: PixelRect(enclosing: region), bandRows: bandRows, partialCount: partialCount, band: band,
            combine: combine)
        self.init(
            description, argumentDigest, inputFormat, outputFormat, { _, _ in region },
            { _, _ in preconditionFailure("the engine runs reductions band by band") }, reduction: reduction)
    }

    private init(
        _ description: String, _ argumentDigest: String, _ inputFormat: PixelFormat?, _ outputFormat: PixelFormat,
        _ roi: @escaping RegionOfInterest, _ body: @escaping Body, reduction: ImageReduction?,
        layouts: (input: PixelLayout, output: PixelLayout) = (.interleaved, .interleaved)
    ) {
        precondition(inputFormat.map(Self.supportedFormats.contains) ?? true, "processors cannot read \(inputFormat!)")
        precondition(Self.supportedFormats.contains(outputFormat), "processors cannot write \(outputFormat)")
        precondition(
            layouts.input == .interleaved || inputFormat == .rgbaFloat, "planar rows need the input format rgbaFloat")
        precondition(
            layouts.output == .interleaved || outputFormat == .rgbaFloat,
            "planar rows need the output format rgbaFloat")
        inputLayout = layouts.input
        outputLayout = layouts.output
        processorDescription = description
        self.argumentDigest = argumentDigest
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.roi = roi
        self.body = body
        self.reduction = reduction
    }

    /// Applies the processor to `inputs`, producing an image with the given extent.
    ///
    /// - Parameter isOpaque: Pass `true` when the body writes alpha exactly 1 everywhere in `extent` (a blur of an
    ///   opaque image with an infinite extent, for example): the engine then skips alpha work after it, such as
    ///   unpremultiplying for the output. A wrong `true` gives wrong colours where alpha is not 1.
    public func apply(to inputs: [Image], extent: Rect, isOpaque: Bool = false) -> Image {
        Image(node: Node(.processor(self), inputs: inputs.map(\.node), extent: extent, isOpaque: isOpaque))
    }
}

/// A region of one processor input (read-only).
///
/// Pixel `(i, j)` of the buffer is image pixel `(region.minX + i, region.minY + j)`.
public struct ImageProcessorInput: @unchecked Sendable {
    // @unchecked: a pointer wrapper valid only during the processor call.
    /// The image region held.
    public let region: Rect
    /// The pixel format.
    public let format: PixelFormat
    /// The arrangement of each row's components (the processor's ``ImageProcessor/inputLayout``).
    public let layout: PixelLayout
    /// The first byte of row 0 (of its red plane for ``PixelLayout/planarRows``).
    public let baseAddress: UnsafeRawPointer
    /// Bytes between rows.
    public let bytesPerRow: Int
    /// Floats from one plane of a row to the next (``PixelLayout/planarRows``).
    @usableFromInline let planeStride: Int
    /// Width in pixels.
    public var width: Int { Int(region.width) }
    /// Height in pixels.
    public var height: Int { Int(region.height) }

    init(
        region: Rect, format: PixelFormat, layout: PixelLayout, baseAddress: UnsafeRawPointer, bytesPerRow: Int,
        planeStride: Int
    ) {
        self.region = region
        self.format = format
        self.layout = layout
        self.baseAddress = baseAddress
        self.bytesPerRow = bytesPerRow
        self.planeStride = planeStride
    }

    /// Row `j` (0-based within the region) as components of type `T`.
    @inlinable
    public func row<T>(_ j: Int, as type: T.Type) -> UnsafePointer<T> {
        (baseAddress + j * bytesPerRow).assumingMemoryBound(to: T.self)
    }

    /// The four planes of row `j` (0-based within the region) of a ``PixelLayout/planarRows`` input.
    ///
    /// Each holds ``width`` values. They are read-only: the input can be a cached intermediate that later renders
    /// read again.
    @inlinable
    public func planes(_ j: Int) -> ReadOnlyPlanarPixels {
        precondition(layout == .planarRows, "planes of an interleaved input")
        let red = (baseAddress + j * bytesPerRow).assumingMemoryBound(to: Float.self)
        return ReadOnlyPlanarPixels(
            red: red, green: red + planeStride, blue: red + 2 * planeStride, alpha: red + 3 * planeStride, count: width)
    }
}

/// The output region of a processor.
///
/// Pixel `(i, j)` of the buffer is image pixel `(region.minX + i, region.minY + j)`.
public struct ImageProcessorOutput: @unchecked Sendable {
    // @unchecked: a pointer wrapper valid only during the processor call.
    let scratchSpace: ProcessorScratch?

    init(
        region: Rect, format: PixelFormat, layout: PixelLayout, baseAddress: UnsafeMutableRawPointer, bytesPerRow: Int,
        planeStride: Int, scratch: ProcessorScratch?
    ) {
        self.region = region
        self.format = format
        self.layout = layout
        self.planeStride = planeStride
        self.baseAddress = baseAddress
        self.bytesPerRow = bytesPerRow
        scratchSpace = scratch
    }

    /// Temporary memory for the processor (at least `byteCount` bytes, 64-byte aligned, contents unspecified), valid
    /// until the processor returns.
    ///
    /// It comes from the worker's reusable blocks, so large per-tile buffers cost no allocation after the first tile.
    public func scratch(byteCount: Int) -> UnsafeMutableRawPointer {
        guard let scratchSpace else {
            preconditionFailure("scratch memory is only available inside a processor call")
        }
        return scratchSpace.acquire(byteCount)
    }

    /// The image region to fill.
    public let region: Rect
    /// The pixel format.
    public let format: PixelFormat
    /// The arrangement of each row's components (the processor's ``ImageProcessor/outputLayout``).
    public let layout: PixelLayout
    /// The first byte of row 0 (of its red plane for ``PixelLayout/planarRows``).
    public let baseAddress: UnsafeMutableRawPointer
    /// Bytes between rows.
    public let bytesPerRow: Int
    /// Floats from one plane of a row to the next (``PixelLayout/planarRows``).
    @usableFromInline let planeStride: Int
    /// Width in pixels.
    public var width: Int { Int(region.width) }
    /// Height in pixels.
    public var height: Int { Int(region.height) }

    /// Row `j` (0-based within the region) as components of type `T`.
    @inlinable
    public func row<T>(_ j: Int, as type: T.Type) -> UnsafeMutablePointer<T> {
        (baseAddress + j * bytesPerRow).assumingMemoryBound(to: T.self)
    }

    /// The four planes of row `j` (0-based within the region) of a ``PixelLayout/planarRows`` output.
    ///
    /// Each holds ``width`` values; the body writes all four (alpha too).
    @inlinable
    public func planes(_ j: Int) -> PlanarPixels {
        precondition(layout == .planarRows, "planes of an interleaved output")
        let red = (baseAddress + j * bytesPerRow).assumingMemoryBound(to: Float.self)
        return PlanarPixels(
            red: red, green: red + planeStride, blue: red + 2 * planeStride, alpha: red + 3 * planeStride, count: width)
    }
}

/// Scratch blocks lent to one processor call.
final class ProcessorScratch {
    private let arena: BufferArena
    private var blocks: [BufferArena.Block] = []

    init(arena: BufferArena) { self.arena = arena }

    func acquire(_ bytes: Int) -> UnsafeMutableRawPointer {
        let b = arena.acquire(bytes)
        blocks.append(b)
        return b.pointer
    }

    func releaseAll() {
        for b in blocks { arena.release(b) }
        blocks = []
    }
}
