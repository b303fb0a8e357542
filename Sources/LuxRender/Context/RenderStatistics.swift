public import LuxPixels

/// Counters describing what a render did (returned by every render call).
public struct RenderStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Output tiles rendered.
    public var tiles = 0
    /// Distinct compiled programs (fused row programs and image processors).
    ///
    /// A chain of colour kernels over a source renders with one program: a single pass over memory.
    public var programs = 0
    /// Program executions over all tiles (each one pass over a tile-sized region).
    public var programRuns = 0
    /// Intermediate regions materialised (tile plus margin).
    public var intermediates = 0
    /// Pixels in those intermediates.
    public var intermediatePixels = 0
    /// Intermediates served from the context's cache.
    public var cacheHits = 0
    /// Source pixels loaded (counting pixels loaded more than once).
    public var sourcePixelsRead = 0
    /// The bounding region read from each source buffer, in the order the sources were found.
    public var sourceRegions: [Rect] = []
    /// Output pixels written.
    public var pixelsWritten = 0
    /// Graph rewrites the optimiser applied.
    public var rewrites = 0

    /// Creates zeroed statistics.
    public init() {}

    mutating func add(_ o: RenderStatistics) {
        tiles += o.tiles
        programRuns += o.programRuns
        intermediates += o.intermediates
        intermediatePixels += o.intermediatePixels
        cacheHits += o.cacheHits
        sourcePixelsRead += o.sourcePixelsRead
        pixelsWritten += o.pixelsWritten
    }

    public var description: String {
        "\(tiles) tiles, \(programs) programs, \(programRuns) runs, \(intermediates) intermediates "
            + "(\(intermediatePixels) px, \(cacheHits) cached), \(sourcePixelsRead) source px read, "
            + "\(pixelsWritten) px written"
    }
}
