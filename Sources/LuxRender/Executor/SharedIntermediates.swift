import LuxPixels
import Synchronization

/// Intermediates materialised once for a whole render and read by every tile, where the tiles' regions of interest
/// overlap so much that materialising them tile by tile would compute the same pixels many times over.
///
/// A kernel whose tiles each read a large part of its input (a tiling seen in perspective shows whole copies of the
/// image in every output tile) would otherwise rebuild that part for every tile. Before the render, the tiles'
/// requests are traced down the plan (regions only, no pixels); a slot is shared when its tiles would materialise at
/// least twice as many pixels as their union holds, and that union is no larger than what the workers would hold at
/// once anyway (the largest tile request on each thread), so sharing saves work without raising peak memory. A shared
/// slot is built on all workers before the first tile that needs it, read-only after, and freed with the render.
final class SharedIntermediates: Sendable {
    /// A slot's identity: slots with the same producer and storage hold the same values.
    struct Key: Hashable {
        let producer: ObjectIdentifier
        let format: PixelFormat
        let layout: PixelLayout
        let quantize: PixelFormat?

        init(_ slot: Slot) {
            producer = ObjectIdentifier(slot.producer)
            format = slot.format
            layout = slot.layout
            quantize = slot.quantize
        }
    }

    /// A shared slot and the region the render reads of it.
    struct Choice: @unchecked Sendable {
        // @unchecked: the slot's step is immutable once the plan is built.
        let slot: Slot
        let region: PixelRect
    }

    /// The shared slots, in the order they are built (each after those its producer reads).
    let choices: [Choice]
    /// The side of the tiles a shared slot is built in.
    let tileSize: Int
    private let built = Mutex<[Key: CachedBuffer]>([:])

    /// Chooses the slots of `plan` to share when rendering `rect` in tiles of `tileSize` on `threads` workers.
    init(plan: Plan, rect: PixelRect, tileSize: Int, threads: Int) {
        self.tileSize = tileSize
        var chosen: [Choice] = []
        // One slot at a time, the one nearest the output first: sharing it removes the demand its tiles made below.
        while chosen.count < 8, let next = Self.nextChoice(plan, rect, tileSize, threads, chosen) {
            chosen.append(next)
        }
        choices = chosen.reversed()
    }

    /// The shallowest slot worth sharing once `chosen` are shared, or `nil`.
    private static func nextChoice(
        _ plan: Plan, _ rect: PixelRect, _ tileSize: Int, _ threads: Int, _ chosen: [Choice]
    ) -> Choice? {
        var trace = DemandTrace(sources: plan.sources.count, shared: Set(chosen.map { Key($0.slot) }))
        for tile in rect.tiles(width: tileSize, height: tileSize) { trace.visit(plan.root, tile, depth: 0) }
        for c in chosen {
            for tile in c.region.tiles(width: tileSize, height: tileSize) {
                trace.visit(c.slot.producer, tile, depth: 1)
            }
        }
        guard !trace.exhausted else { return nil }
        let worth = trace.demands.values.filter { d in
            d.slot.layout == .interleaved && d.total >= 2 * d.union.area && d.union.area <= threads * d.largest
        }
        guard let best = worth.min(by: { $0.depth < $1.depth }) else { return nil }
        return Choice(slot: best.slot, region: best.union)
    }

    /// Builds every shared slot not built yet, splitting it into tiles rendered on `workers`.
    func build(_ executor: Executor, workers: [Worker], isCancelled: (@Sendable () -> Bool)?) throws(RenderError) {
        for choice in choices {
            let key = Key(choice.slot)
            if built.withLock({ $0[key] != nil }) { continue }
            let region = choice.region
            let storage = CachedBuffer(
                byteCount: SlotBuffer.bytesPerRow(width: region.width, format: choice.slot.format) * region.height)
            let whole = Self.whole(choice, storage)
            let parts = region.tiles(width: tileSize, height: tileSize)
            try forEachTile(parts, workers: workers, isCancelled: isCancelled) { (part, w) throws(RenderError) in
                try executor.produce(choice.slot, into: whole.view(part), w)
            }
            workers[0].stats.intermediates += 1
            workers[0].stats.intermediatePixels += region.area
            built.withLock { $0[key] = storage }
        }
    }

    /// `region` of `slot` as a read-only view of its shared buffer, when the slot is shared, built, and holds it.
    func buffer(for slot: Slot, covering region: PixelRect) -> SlotBuffer? {
        let key = Key(slot)
        guard let choice = choices.first(where: { Key($0.slot) == key }), choice.region.contains(region),
            let storage = built.withLock({ $0[key] })
        else { return nil }
        return Self.whole(choice, storage).view(region)
    }

    /// The whole of `choice`'s region in `storage`.
    private static func whole(_ choice: Choice, _ storage: CachedBuffer) -> SlotBuffer {
        SlotBuffer(
            base: storage.pointer,
            bytesPerRow: SlotBuffer.bytesPerRow(width: choice.region.width, format: choice.slot.format),
            region: choice.region, format: choice.slot.format, arenaBlock: nil, cached: storage,
            layout: choice.slot.layout)
    }
}

/// The regions a render's tiles would ask of each slot, traced down the plan without computing pixels.
private struct DemandTrace {
    struct Demand {
        let slot: Slot
        var union = PixelRect.empty
        /// The pixels materialised over all requests.
        var total = 0
        /// The largest single request.
        var largest = 0
        /// The fewest steps between the output and the slot.
        var depth = Int.max
    }

    var demands: [SharedIntermediates.Key: Demand] = [:]
    /// Slots already shared: their requests are served from the shared buffer and go no further.
    let shared: Set<SharedIntermediates.Key>
    var sources: [PixelRect]
    /// Requests traced; a plan whose paths multiply beyond the budget is not traced to the end.
    var requests = 0
    var exhausted: Bool { requests > 100_000 }

    init(sources: Int, shared: Set<SharedIntermediates.Key>) {
        self.sources = Array(repeating: .empty, count: sources)
        self.shared = shared
    }

    /// Traces what `step` reads to produce `rect`.
    mutating func visit(_ step: Step, _ rect: PixelRect, depth: Int) {
        switch step.kind {
        case .rows(let root):
            var rois = [PixelRect](repeating: .empty, count: step.slots.count)
            root.collect(rect, &rois, &sources)
            for (i, slot) in step.slots.enumerated() { request(slot, rois[i], depth: depth + 1) }
        case .processor(let p, let bounds):
            let inside = rect.intersection(bounds)
            guard p.reduction == nil, !inside.isEmpty else { return }
            for (k, slot) in step.slots.enumerated() {
                request(slot, PixelRect(enclosing: p.roi(k, inside.rect)), depth: depth + 1)
            }
        }
    }

    private mutating func request(_ slot: Slot, _ roi: PixelRect, depth: Int) {
        requests += 1
        guard !exhausted else { return }
        var region = roi
        if region.isInfinite { region = region.intersection(slot.producerBounds) }
        let key = SharedIntermediates.Key(slot)
        guard !region.isEmpty, !region.isInfinite, !shared.contains(key) else { return }
        var d = demands[key] ?? Demand(slot: slot)
        d.union = d.union.union(region)
        d.total += region.area
        d.largest = max(d.largest, region.area)
        d.depth = min(d.depth, depth)
        demands[key] = d
        visit(slot.producer, region, depth: depth)
    }
}
