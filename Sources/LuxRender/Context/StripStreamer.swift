import LuxColor
import LuxPixels

/// A streaming render: a prepared recipe rendered a strip of rows at a time, top to bottom, each strip handed to a
/// consumer while the next one renders.
///
/// See ``RenderContext/render(_:bounds:format:colorSpace:rowsPerStrip:rows:)``.
struct StripStreamer {
    let renderer: TileRenderer
    let prepared: PreparedRender
    /// The whole output.
    let pixels: PixelRect
    let format: PixelFormat
    let colorSpace: ColorSpace?
    let isPremultiplied: Bool
    let stripHeight: Int

    /// Renders every strip and hands it to `consumer`; returns what the render did.
    func run(_ consumer: (RenderedStrip) throws -> Void) throws -> RenderStatistics {
        defer { renderer.pool.trimIdle(keepBytes: BufferArena.idleLimit) }
        var prepared = self.prepared
        prepared.shared = renderer.sharedIntermediates(prepared.plan, pixels)
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
            // Mapped: the workers that write the strip fault its zeroed pages in, rather than this thread zeroing
            // it before the strip can start (a serial ~3 ms for a 4 MB strip, twice per render).
            return PixelBuffer(
                width: band.width, height: band.height, format: format, colorSpace: colorSpace, mapsPages: true)
        }
        var current = StripJob(band: bands[0], buffer: freshStrip(bands[0]))
        current.run(renderer, prepared)
        for k in 0..<bands.count {
            let next = k + 1 < bands.count ? StripJob(band: bands[k + 1], buffer: freshStrip(bands[k + 1])) : nil
            // A thread of its own, not a dispatch pool thread: see `DetachedThread`.
            let renderer = renderer
            let prepared = prepared
            let worker = next.map { next in DetachedThread { next.run(renderer, prepared) } }
            let result = current.result
            var strip = current.buffer
            current.buffer = PixelBuffer(width: 1, height: 1, format: .rgba8)
            var consumerError: (any Error)? = nil
            do {
                let stats = try result.get()
                total.add(stats)
                strip.colorSpace = colorSpace
                strip.isPremultiplied = isPremultiplied
                let band = bands[k]
                try consumer(
                    RenderedStrip(
                        rows: (band.minY - pixels.minY)..<(band.maxY - pixels.minY), buffer: strip,
                        totalRows: pixels.height))
            } catch {
                consumerError = error
            }
            worker?.join()
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

        func run(_ renderer: TileRenderer, _ prepared: PreparedRender) {
            do {
                result = .success(try renderer.render(prepared, band, into: &buffer))
            } catch {
                result = .failure(error)
            }
        }
    }
}
