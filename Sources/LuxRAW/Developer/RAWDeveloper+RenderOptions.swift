public import LuxRender

extension RAWDeveloper {
    /// The tile size, in pixels, that the raw pipeline renders fastest with.
    ///
    /// At 256 pixels the per-tile working set of demosaicing, noise reduction and sharpening (about 12 MB per
    /// worker) stays cache- and allocator-friendly; on a 12-megapixel raw, 512-pixel tiles cost about 20 % more CPU
    /// and twice the memory despite their smaller margins.
    public static let renderTileSize = 256

    /// Render options tuned for rendering ``outputImage``: ``renderTileSize`` tiles and no cached intermediates
    /// (a development reads each intermediate once).
    ///
    /// When writing a file, render strips a whole tile tall (`rowsPerStrip: RAWDeveloper.renderTileSize`) rather
    /// than the default half tile: every tile recomputes the margins its stages need (RCD 13, noise reduction 6–62,
    /// sharpening 3 pixels per side), and half-height tiles pay about 20 % more CPU for them.
    ///
    /// ```swift
    /// let context = RenderContext(options: RAWDeveloper.renderOptions())
    /// try context.write(
    ///     try developer.outputImage, to: folder.appending(path: "developed.tif"), pixelFormat: .rgba16,
    ///     rowsPerStrip: RAWDeveloper.renderTileSize)
    /// ```
    ///
    /// - Parameter threadCount: Render threads (`nil`: one per processor).
    public static func renderOptions(threadCount: Int? = nil) -> RenderOptions {
        RenderOptions(cacheIntermediates: false, threadCount: threadCount, tileSize: renderTileSize)
    }
}
