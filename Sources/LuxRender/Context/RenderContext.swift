import Dispatch
import Glibc
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
    let cache: IntermediateCache
    let pool = WorkerPool()

    /// Creates a context.
    public init(options: RenderOptions = RenderOptions(), logger: Logger? = nil) {
        self.options = options
        self.logger = logger ?? Logger(label: "lux.render")
        cache = IntermediateCache(byteLimit: options.cacheByteLimit)
    }

    /// The worker threads a render uses.
    public var threadCount: Int {
        if let t = options.threadCount { return max(1, t) }
        return options.lowPriority ? 1 : Parallel.defaultThreadCount
    }

    /// Bytes held by the intermediate cache.
    public var cachedBytes: Int { cache.byteCount }

    /// Empties the intermediate cache and frees idle worker memory.
    public func clearCaches() {
        cache.removeAll()
        pool.removeAll()
    }

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
        let prepared = try prepare(image, outputSpace: space, name: "render_to_buffer")
        try printTreeIfRequested(prepared, image, pixels, format: buffer.format)
        var stats: RenderStatistics
        let format = buffer.format
        if PixelIO.storable.contains(format) {
            stats = try buffer.withUnsafeMutablePlane { (plane) throws(RenderError) -> RenderStatistics in
                let target = RowTarget(
                    base: plane.baseAddress, bytesPerRow: plane.bytesPerRow, originX: pixels.minX, originY: pixels.minY,
                    format: format, quantize: nil)
                return try execute(prepared, pixels, target)
            }
        } else {
            guard !buffer.format.isBayer else {
                throw .unsupportedFormat(
                    buffer.format, reason: "renders produce RGB; mosaic with PixelBuffer.converted(to:)")
            }
            var temp = PixelBuffer(width: buffer.width, height: buffer.height, format: .rgbaFloat)
            stats = try render(prepared, pixels, into: &temp)
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
        var preparing = try prepare(image, outputSpace: colorSpace, name: "render_rows")
        preparing.keepsWorkerMemory = true
        let prepared = preparing
        defer { pool.trimIdle(keepBytes: BufferArena.idleLimit) }
        try printTreeIfRequested(prepared, image, pixels, format: format)
        let stripHeight = max(1, rowsPerStrip ?? options.tileSize / 2)
        var bands: [PixelRect] = []
        var y = pixels.minY
        while y < pixels.maxY {
            let h = min(stripHeight, pixels.maxY - y)
            bands.append(PixelRect(minX: pixels.minX, minY: y, maxX: pixels.maxX, maxY: y + h))
            y += h
        }
        // Double buffering: while the consumer handles strip k on this thread, strip k + 1 renders on the
        // workers, so encoding overlaps computing.
        var total = RenderStatistics()
        var spare: PixelBuffer? = nil
        func freshStrip(_ band: PixelRect) -> PixelBuffer {
            if var s = spare {
                spare = nil  // so that `s` is the only reference if the consumer kept none
                // A shorter (last) strip reuses the top rows of a spare one: fresh memory costs page faults.
                if s.height >= band.height && s.isUniquelyReferenced,
                    let reused = try? s.view(x: 0, y: 0, width: band.width, height: band.height)
                {
                    return reused
                }
            }
            return PixelBuffer(width: band.width, height: band.height, format: format, colorSpace: colorSpace)
        }
        var current = StripJob(band: bands[0], buffer: freshStrip(bands[0]))
        current.run(self, prepared)
        for k in 0..<bands.count {
            let next = k + 1 < bands.count ? StripJob(band: bands[k + 1], buffer: freshStrip(bands[k + 1])) : nil
            // A thread of its own, not a dispatch pool thread: see `DetachedThread`.
            let renderer = next.map { next in DetachedThread { next.run(self, prepared) } }
            let result = current.result
            var strip = current.buffer
            current.buffer = PixelBuffer(width: 1, height: 1, format: .rgba8)
            var consumerError: (any Error)? = nil
            do {
                let stats = try result.get()
                total.add(stats)
                strip.colorSpace = colorSpace
                strip.isPremultiplied = options.outputPremultiplied
                let band = bands[k]
                try consumer(
                    RenderedStrip(
                        rows: (band.minY - pixels.minY)..<(band.maxY - pixels.minY), buffer: strip,
                        totalRows: pixels.height))
            } catch {
                consumerError = error
            }
            renderer?.join()
            if let consumerError { throw consumerError }
            spare = strip
            if let next { current = next }
        }
        total.programs = prepared.plan.steps.count
        total.rewrites = prepared.plan.rewrites
        return total
    }

    /// One strip of a streaming render, rendered on another thread.
    final class StripJob: @unchecked Sendable {
        // @unchecked: written by the thread that renders it, read after `DispatchGroup.wait()`.
        let band: PixelRect
        var buffer: PixelBuffer
        var result: Result<RenderStatistics, RenderError> = .success(RenderStatistics())

        init(band: PixelRect, buffer: PixelBuffer) {
            self.band = band
            self.buffer = buffer
        }

        func run(_ context: RenderContext, _ prepared: PreparedRender) {
            do {
                result = .success(try context.render(prepared, band, into: &buffer))
            } catch {
                result = .failure(error)
            }
        }
    }

    /// Renders into a buffer of any format (through a float buffer when the format has no direct writer).
    func render(_ prepared: PreparedRender, _ pixels: PixelRect, into buffer: inout PixelBuffer) throws(RenderError)
        -> RenderStatistics
    {
        let format = buffer.format
        if PixelIO.storable.contains(format) {
            return try buffer.withUnsafeMutablePlane { (plane) throws(RenderError) -> RenderStatistics in
                let target = RowTarget(
                    base: plane.baseAddress, bytesPerRow: plane.bytesPerRow, originX: pixels.minX, originY: pixels.minY,
                    format: format, quantize: nil)
                return try execute(prepared, pixels, target)
            }
        }
        var temp = PixelBuffer(
            width: buffer.width, height: buffer.height, format: .rgbaFloat, colorSpace: buffer.colorSpace)
        let stats = try render(prepared, pixels, into: &temp)
        let converted = temp.converted(to: buffer.format, threads: threadCount)
        buffer = converted
        return stats
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
        var prepared = try prepare(image, outputSpace: colorSpace, name: "render_to_buffer")
        prepared.isCancelled = { Task.isCancelled }
        try printTreeIfRequested(prepared, image, pixels, format: format)
        var buffer = PixelBuffer(width: pixels.width, height: pixels.height, format: format, colorSpace: colorSpace)
        _ = try render(prepared, pixels, into: &buffer)
        buffer.colorSpace = colorSpace
        buffer.isPremultiplied = options.outputPremultiplied
        return buffer
    }

    // MARK: Compilation and execution

    struct PreparedRender: @unchecked Sendable {
        // @unchecked: the plan is immutable once built and only read while rendering.
        let plan: Plan
        let outputSpace: ColorSpace?
        let name: String
        /// Checked between tiles (set by the async entry points).
        var isCancelled: (@Sendable () -> Bool)? = nil
        /// Set while strips of one render follow each other: workers keep the blocks their tiles needed (instead of
        /// trimming to ``BufferArena/idleLimit``), so the next strip does not map and zero-fill them again.
        ///
        /// Peak memory is the same; the streaming render trims once at the end.
        var keepsWorkerMemory = false
    }

    /// Compiles `image` for output in `outputSpace`.
    func prepare(_ image: Image, outputSpace: ColorSpace?, name: String) throws(RenderError) -> PreparedRender {
        guard RenderOptions.workingFormats.contains(options.workingFormat) else {
            throw .invalidOptions(
                "working format \(options.workingFormat) is not one of \(RenderOptions.workingFormats)")
        }
        guard options.tileSize >= 16 else { throw .invalidOptions("tile size \(options.tileSize) is below 16") }
        var lowering = Lowering(workingSpace: options.workingColorSpace)
        var ir = try lowering.lower(image.node)
        let toOutput = try lowering.converter(from: options.workingColorSpace, to: outputSpace)
        ir = IRNode(unary: .unpremultiply, ir)
        if let toOutput { ir = IRNode(unary: .colorMatch(toOutput), ir) }
        if options.outputPremultiplied { ir = IRNode(unary: .premultiply, ir) }
        var optimizer = Optimizer()
        ir = optimizer.optimize(ir)
        let plan = PlanBuilder(workingFormat: options.workingFormat).build(root: ir, rewrites: optimizer.rewrites)
        return PreparedRender(plan: plan, outputSpace: outputSpace, name: name)
    }

    func execute(_ prepared: PreparedRender, _ rect: PixelRect, _ target: RowTarget) throws(RenderError)
        -> RenderStatistics
    {
        let isCancelled = prepared.isCancelled
        let plan = prepared.plan
        let threads = threadCount
        var size = options.tileSize
        let list: [PixelRect]
        if plan.root.slots.isEmpty {
            // A single fused pass with no intermediates: full-width bands stream memory best (long
            // contiguous rows for the prefetcher); they hold about as many pixels as a tile.
            let rows = max(1, min(rect.height, options.tileSize * options.tileSize / max(rect.width, 1)))
            let bandRows = max(1, min(rows, (rect.height + 3 * threads - 1) / (3 * threads)))
            list = rect.tiles(width: rect.width, height: bandRows)
            size = bandRows
        } else {
            while size > 64 && rect.tiles(width: size, height: size).count < 3 * threads && rect.area > 256 * 256 {
                size /= 2
            }
            list = rect.tiles(width: size, height: size)
        }
        let workers = pool.take(min(threads, max(list.count, 1)), registers: plan.registerDemand + 1)
        defer { pool.give(workers, keepBytes: prepared.keepsWorkerMemory ? .max : BufferArena.idleLimit) }
        for w in workers { w.beginRender(sources: plan.sources.count) }
        let executor = Executor(
            plan: plan, cache: cache, cacheAll: options.cacheIntermediates, pool: pool, threads: threads)
        var target = target
        target.streaming = rect.area * target.format.bytesPerPixel() > 8 << 20
        try forEachTile(list, workers: workers, isCancelled: isCancelled) { (tile, w) throws(RenderError) in
            try executor.renderTile(tile, into: target, worker: w)
        }
        var stats = RenderStatistics()
        var regions = [PixelRect](repeating: .empty, count: plan.sources.count)
        for w in workers {
            stats.add(w.stats)
            for (i, r) in w.sourceReads.enumerated() { regions[i] = regions[i].union(r) }
        }
        stats.sourceRegions = regions.map(\.rect)
        stats.programs = plan.steps.count
        stats.rewrites = plan.rewrites
        logger.debug(
            "rendered \(rect)", metadata: ["stats": "\(stats)", "threads": "\(workers.count)", "tile": "\(size)"])
        return stats
    }

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
        let prepared = try prepare(image, outputSpace: colorSpace, name: "describe")
        return text(prepared, image, pixels, format: format, detail: detail)
    }

    private func text(
        _ prepared: PreparedRender, _ image: Image, _ rect: PixelRect, format: PixelFormat, detail: TreeDescription
    ) -> String {
        var out = ""
        if detail.contains(.graph) {
            out += TreePrinter.graph(
                root: image.node, rect: rect.rect, outputSpace: prepared.outputSpace,
                workingSpace: options.workingColorSpace, name: prepared.name)
        }
        if detail.contains(.programs) {
            out += TreePrinter.programs(plan: prepared.plan, rect: rect, storeFormat: format, name: prepared.name)
        }
        if detail.contains(.graphviz) {
            out += TreePrinter.graphviz(plan: prepared.plan, rect: rect, storeFormat: format, name: prepared.name)
        }
        return out
    }

    private func printTreeIfRequested(
        _ prepared: PreparedRender, _ image: Image, _ rect: PixelRect, format: PixelFormat
    ) throws(RenderError) {
        guard let raw = getenv("LUX_PRINT_TREE") else { return }
        let detail = TreeDescription(environmentValue: String(cString: raw))
        guard !detail.isEmpty else { return }
        var message = text(prepared, image, rect, format: format, detail: detail)
        message.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
