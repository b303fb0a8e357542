import Logging
import LuxPixels

/// Runs compiled renders on a context's workers: splits the output into tiles (or bands), renders them in parallel
/// with an ``Executor``, and sums up what the workers did.
///
/// Owns what renders share: the intermediate cache and the pool of workers with their reusable memory.
final class TileRenderer: Sendable {
    let options: RenderOptions
    let logger: Logger
    /// The worker threads a render uses.
    let threads: Int
    let cache: IntermediateCache
    let pool = WorkerPool()

    init(options: RenderOptions, logger: Logger) {
        self.options = options
        self.logger = logger
        if let t = options.threadCount {
            threads = max(1, t)
        } else {
            threads = options.lowPriority ? 1 : Parallel.defaultThreadCount
        }
        cache = IntermediateCache(byteLimit: options.cacheByteLimit)
    }

    /// Empties the intermediate cache and frees idle worker memory.
    func clearCaches() {
        cache.removeAll()
        pool.removeAll()
    }

    /// The side of the square tiles `rect` is rendered in: the context's tile size, halved (down to 64) until every
    /// worker gets about three tiles.
    func tileSide(_ rect: PixelRect) -> Int {
        var size = options.tileSize
        while size > 64 && rect.tiles(width: size, height: size).count < 3 * threads && rect.area > 256 * 256 {
            size /= 2
        }
        return size
    }

    /// The intermediates of `plan` worth materialising once for a render of `rect` (`nil`: none).
    func sharedIntermediates(_ plan: Plan, _ rect: PixelRect) -> SharedIntermediates? {
        guard !plan.root.slots.isEmpty else { return nil }
        let shared = SharedIntermediates(plan: plan, rect: rect, tileSize: tileSide(rect), threads: threads)
        return shared.choices.isEmpty ? nil : shared
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
        let converted = temp.converted(to: buffer.format, threads: threads)
        buffer = converted
        return stats
    }

    /// Renders `rect` of the prepared recipe into `target`, tile by tile on the workers.
    func execute(_ prepared: PreparedRender, _ rect: PixelRect, _ target: RowTarget) throws(RenderError)
        -> RenderStatistics
    {
        let isCancelled = prepared.isCancelled
        let plan = prepared.plan
        let size: Int
        let list: [PixelRect]
        if plan.root.slots.isEmpty {
            // A single fused pass with no intermediates: full-width bands stream memory best (long
            // contiguous rows for the prefetcher); they hold about as many pixels as a tile.
            let rows = max(1, min(rect.height, options.tileSize * options.tileSize / max(rect.width, 1)))
            let bandRows = max(1, min(rows, (rect.height + 3 * threads - 1) / (3 * threads)))
            list = rect.tiles(width: rect.width, height: bandRows)
            size = bandRows
        } else {
            size = tileSide(rect)
            list = rect.tiles(width: size, height: size)
        }
        let workers = pool.take(min(threads, max(list.count, 1)), registers: plan.registerDemand + 1)
        defer { pool.give(workers, keepBytes: prepared.keepsWorkerMemory ? .max : BufferArena.idleLimit) }
        for w in workers { w.beginRender(sources: plan.sources.count) }
        // A render in strips shares intermediates across its strips; a single call shares them across its tiles.
        let shared = prepared.shared ?? sharedIntermediates(plan, rect)
        let executor = Executor(
            plan: plan, cache: cache, cacheAll: options.cacheIntermediates, pool: pool, threads: threads,
            shared: shared)
        try shared?.build(executor, workers: workers, isCancelled: isCancelled)
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
}
