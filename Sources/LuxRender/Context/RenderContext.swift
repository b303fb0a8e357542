public import Logging
public import LuxColor
public import LuxPixels

/// Renders ``Image`` recipes into pixels: the CIContext role.
///
/// A context holds configuration (``RenderOptions``), a cache of intermediates and reusable worker
/// memory; it is safe to share between threads and to reuse for many renders (create one and keep it).
/// Each render compiles the recipe — colour matches resolved, graph optimised, per-pixel chains fused
/// into programs — and runs the programs tile by tile on all cores.
///
/// ```swift
/// let context = RenderContext(options: RenderOptions(workingFormat: .rgbaHalf))
/// let out = try context.createBuffer(image, format: .rgba8, colorSpace: .displayP3)
/// try context.render(image, bounds: image.extent, format: .rgba8, colorSpace: .sRGB) { strip in
///     try encoder.write(strip.buffer)            // rows arrive in order, a strip at a time
/// }
/// ```
///
/// Set the environment variable `LUX_PRINT_TREE` to `1` (initial graph), `8` (fused programs) or
/// `"8 graphviz"` (dot) to have every render print its tree to standard error;
/// ``describe(_:bounds:format:colorSpace:detail:)`` returns the same text.
public final class RenderContext: Sendable {
    /// The options every render uses.
    public let options: RenderOptions
    /// Where the context logs (render summaries at `debug`).
    public let logger: Logger
    /// Compiles recipes for ``options``.
    let compiler: RenderCompiler
    /// Runs compiled recipes; holds the intermediate cache and the workers.
    let renderer: TileRenderer

    /// Creates a context.
    public init(options: RenderOptions = RenderOptions(), logger: Logger? = nil) {
        self.options = options
        let logger = logger ?? Logger(label: "lux.render")
        self.logger = logger
        compiler = RenderCompiler(options: options)
        renderer = TileRenderer(options: options, logger: logger)
    }

    /// The worker threads a render uses.
    public var threadCount: Int { renderer.threads }

    /// Bytes held by the intermediate cache.
    public var cachedBytes: Int { renderer.cache.byteCount }

    /// Empties the intermediate cache and frees idle worker memory.
    public func clearCaches() { renderer.clearCaches() }

    // MARK: Rendering

    /// Renders `bounds` of `image` into `buffer` (whose pixel (0, 0) receives `bounds.origin`).
    ///
    /// - Parameters:
    ///   - bounds: An integral rectangle the size of `buffer` (default: `(0, 0, width, height)`).
    ///   - colorSpace: The space to write (default: the buffer's colour space; with neither, working-space
    ///     values are written). The buffer's `colorSpace` and `isPremultiplied` are updated.
    /// - Returns: What the render did.
    /// - Throws: ``RenderError`` for bad bounds, unsupported formats and failing processors.
    @discardableResult
    public func render(
        _ image: Image, to buffer: inout PixelBuffer, bounds: Rect? = nil, colorSpace: ColorSpace? = nil
    ) throws(RenderError) -> RenderStatistics {
        let rect = bounds ?? buffer.bounds
        let pixels = try Self.pixelBounds(rect)
        guard pixels.width == buffer.width, pixels.height == buffer.height else {
            throw .sizeMismatch(bounds: rect, width: buffer.width, height: buffer.height)
        }
        let space = colorSpace ?? buffer.colorSpace
        let prepared = try compiler.compile(image, outputSpace: space, name: "render_to_buffer")
        printTreeIfRequested(prepared, image, pixels, format: buffer.format)
        var stats: RenderStatistics
        if PixelIO.storable.contains(buffer.format) {
            stats = try renderer.render(prepared, pixels, into: &buffer)
        } else {
            guard !buffer.format.isMosaic else {
                throw .unsupportedFormat(
                    buffer.format, reason: "renders produce RGB; mosaic with PixelBuffer.converted(to:)")
            }
            var temp = PixelBuffer(width: buffer.width, height: buffer.height, format: .rgbaFloat)
            stats = try renderer.render(prepared, pixels, into: &temp)
            temp.colorSpace = space
            let converted = temp.converted(to: buffer.format, threads: threadCount)
            let metadata = buffer.metadata
            buffer = converted
            buffer.metadata = metadata
        }
        buffer.colorSpace = space
        buffer.isPremultiplied = options.outputPremultiplied
        return stats
    }

    /// Renders `rect` of `image` into a new buffer.
    ///
    /// - Parameters:
    ///   - rect: The region to render, with whole-pixel edges (default: the image's extent rounded out to
    ///     whole pixels; it must then be finite).
    ///   - format: The buffer's format (any ``PixelFormat`` except Bayer).
    ///   - colorSpace: The space to write; `nil` writes working-space values.
    public func createBuffer(
        _ image: Image, from rect: Rect? = nil, format: PixelFormat = .rgba8, colorSpace: ColorSpace? = .sRGB
    ) throws(RenderError) -> PixelBuffer {
        let r = rect ?? (image.extent.isInfinite ? image.extent : image.extent.integral)
        let pixels = try Self.pixelBounds(r)
        var buffer = PixelBuffer(width: pixels.width, height: pixels.height, format: format, colorSpace: colorSpace)
        try render(image, to: &buffer, bounds: pixels.rect, colorSpace: colorSpace)
        return buffer
    }

    /// Renders `bounds` of `image` a strip of rows at a time, in order, handing each strip to `consumer`
    /// (an encoder writes it and lets it go), so the whole output never has to be in memory.
    ///
    /// Each strip is rendered on all worker threads; memory use is bounded by the strip and the tiles'
    /// intermediates. A strip buffer that the consumer does not keep is reused for the next strip.
    ///
    /// - Parameters:
    ///   - rowsPerStrip: Rows per strip (default: half the tile size; smaller strips overlap rendering and
    ///     encoding more finely and keep less memory in flight).
    ///   - consumer: Called once per strip, top to bottom; throwing stops the render and rethrows.
    @discardableResult
    public func render(
        _ image: Image, bounds: Rect? = nil, format: PixelFormat = .rgba8, colorSpace: ColorSpace? = .sRGB,
        rowsPerStrip: Int? = nil, rows consumer: (RenderedStrip) throws -> Void
    ) throws -> RenderStatistics {
        let rect = bounds ?? image.extent
        let pixels = try Self.pixelBounds(rect)
        var preparing = try compiler.compile(image, outputSpace: colorSpace, name: "render_rows")
        preparing.keepsWorkerMemory = true
        let prepared = preparing
        printTreeIfRequested(prepared, image, pixels, format: format)
        let streamer = StripStreamer(
            renderer: renderer, prepared: prepared, pixels: pixels, format: format, colorSpace: colorSpace,
            isPremultiplied: options.outputPremultiplied, stripHeight: max(1, rowsPerStrip ?? options.tileSize / 2))
        return try streamer.run(consumer)
    }

    // MARK: Async rendering

    /// Renders `rect` of `image` into a new buffer, stopping between tiles if the task is cancelled.
    ///
    /// - Throws: ``RenderError/cancelled`` when the calling task is cancelled, and the errors of
    ///   ``createBuffer(_:from:format:colorSpace:)``.
    public func createBuffer(
        _ image: Image, from rect: Rect? = nil, format: PixelFormat = .rgba8, colorSpace: ColorSpace? = .sRGB
    ) async throws(RenderError) -> PixelBuffer {
        if Task.isCancelled { throw .cancelled }
        let r = rect ?? (image.extent.isInfinite ? image.extent : image.extent.integral)
        let pixels = try Self.pixelBounds(r)
        var prepared = try compiler.compile(image, outputSpace: colorSpace, name: "render_to_buffer")
        prepared.isCancelled = { Task.isCancelled }
        printTreeIfRequested(prepared, image, pixels, format: format)
        var buffer = PixelBuffer(width: pixels.width, height: pixels.height, format: format, colorSpace: colorSpace)
        _ = try renderer.render(prepared, pixels, into: &buffer)
        buffer.colorSpace = colorSpace
        buffer.isPremultiplied = options.outputPremultiplied
        return buffer
    }

    // MARK: Bounds

    /// The pixel rectangle of render bounds: finite, non-empty, whole-pixel and at most 2^20 pixels a side.
    static func pixelBounds(_ rect: Rect) throws(RenderError) -> PixelRect {
        if rect.isInfinite { throw .infiniteExtent }
        if rect.isEmpty { throw .invalidBounds(rect, reason: "it is empty") }
        guard rect.isIntegral else { throw .invalidBounds(rect, reason: "its edges must be whole pixels") }
        let p = PixelRect(enclosing: rect)
        guard p.width <= 1 << 20, p.height <= 1 << 20 else {
            throw .invalidBounds(rect, reason: "at most 1048576 pixels per side")
        }
        return p
    }

    // MARK: Describing

    /// The `LUX_PRINT_TREE` text for a render of `bounds` of `image` to `format` in `colorSpace`.
    public func describe(
        _ image: Image, bounds: Rect? = nil, format: PixelFormat = .rgba8, colorSpace: ColorSpace? = .sRGB,
        detail: TreeDescription = [.graph, .programs]
    ) throws(RenderError) -> String {
        let pixels = try Self.pixelBounds(bounds ?? image.extent)
        let prepared = try compiler.compile(image, outputSpace: colorSpace, name: "describe")
        return TreePrinter.text(
            prepared, image, pixels, format: format, detail: detail, workingSpace: options.workingColorSpace)
    }

    private func printTreeIfRequested(
        _ prepared: PreparedRender, _ image: Image, _ rect: PixelRect, format: PixelFormat
    ) {
        TreePrinter.printIfRequested(prepared, image, rect, format: format, workingSpace: options.workingColorSpace)
    }
}
