import LuxPixels

extension Executor {
    /// Runs a reducing processor: its input's bands are materialised and reduced on `w` and borrowed workers in
    /// parallel (each band's partial values in its own slot), then combined in band order into the output tile.
    func runReduction(
        _ r: ImageReduction, _ p: ImageProcessor, _ step: Step, inside: PixelRect, buffer: SlotBuffer, _ w: Worker
    ) throws(RenderError) {
        precondition(step.slots.count == 1, "a reduction reads one input")
        let slot = step.slots[0]
        let bands = r.bands
        let partials = UnsafeMutablePointer<Double>.allocate(capacity: bands.count * r.partialCount)
        defer { partials.deallocate() }
        partials.initialize(repeating: 0, count: bands.count * r.partialCount)
        let shared = ReductionPartials(partials)
        let helpers = pool.take(max(min(threads, bands.count) - 1, 0), registers: plan.registerDemand + 1)
        for h in helpers { h.beginRender(sources: plan.sources.count) }
        defer {
            for h in helpers {
                w.stats.add(h.stats)
                for (i, read) in h.sourceReads.enumerated() { w.sourceReads[i] = w.sourceReads[i].union(read) }
            }
            pool.give(helpers, keepBytes: BufferArena.idleLimit)
        }
        try forEachTile(bands, workers: [w] + helpers) { (band, worker) throws(RenderError) in
            let b = try materialise(slot, band, worker, label: "input of reduction \(p.processorDescription)")
            defer { release(b, worker) }
            r.band(b.processorInput, shared.pointer + (band.minY - r.area.minY) / r.bandRows * r.partialCount)
            worker.stats.programRuns += 1
        }
        let output = buffer.processorOutput(inside, scratch: nil)
        do {
            try r.combine(UnsafeBufferPointer(start: partials, count: bands.count * r.partialCount), output)
        } catch let e as RenderError {
            throw e
        } catch {
            throw .processorFailed(p.processorDescription, reason: "\(error)")
        }
    }
}

/// The partial results of a reduction, written from several threads (each band's slot by one thread only).
private struct ReductionPartials: @unchecked Sendable {
    // @unchecked: bands write disjoint slots; the values are read after the parallel loop returns.
    let pointer: UnsafeMutablePointer<Double>

    init(_ pointer: UnsafeMutablePointer<Double>) { self.pointer = pointer }
}
