import CLuxKernels
import LuxPixels

/// Runs a compiled ``Plan`` tile by tile: materialises each step's slots over the tile's regions of
/// interest (recursively), then evaluates the step's fused row program.
final class Executor {
    let plan: Plan
    let cache: IntermediateCache?
    let cacheAll: Bool
    /// Where reductions borrow extra workers, and how many threads they may use.
    let pool: WorkerPool
    let threads: Int
    /// The render's intermediates materialised once for all its tiles.
    let shared: SharedIntermediates?

    init(
        plan: Plan, cache: IntermediateCache?, cacheAll: Bool, pool: WorkerPool, threads: Int,
        shared: SharedIntermediates? = nil
    ) {
        self.plan = plan
        self.shared = shared
        self.cache = cache
        self.cacheAll = cacheAll
        self.pool = pool
        self.threads = threads
    }

    /// Renders `rect` of the plan's root into `target`.
    func renderTile(_ rect: PixelRect, into target: RowTarget, worker w: Worker) throws(RenderError) {
        w.stats.tiles += 1
        if target.format == .rgba8, target.quantize == nil, let (step, converter) = plan.outputMatch {
            var t = target
            t.converter = converter
            try runRows(step, rect, t, w)
        } else {
            try runRows(plan.root, rect, target, w)
        }
        w.stats.pixelsWritten += rect.area
    }

    /// Runs `step`'s program over `rect` into `target`; `given` is a slot the caller has materialised (and keeps).
    func runRows(
        _ step: Step, _ rect: PixelRect, _ target: RowTarget, _ w: Worker, given: (slot: Int, buffer: SlotBuffer)? = nil
    ) throws(RenderError) {
        guard case .rows(let root) = step.kind else { preconditionFailure("not a row program") }
        var rois = [PixelRect](repeating: .empty, count: step.slots.count)
        root.collect(rect, &rois, &w.sourceReads)
        var buffers: [SlotBuffer] = []
        buffers.reserveCapacity(step.slots.count + 1)
        defer { for (i, b) in buffers.enumerated() where i != given?.slot { release(b, w) } }
        for (i, slot) in step.slots.enumerated() {
            if let given, given.slot == i {
                buffers.append(given.buffer)
                continue
            }
            buffers.append(try materialise(slot, rois[i], w, label: "slot \(i) of program \(step.number)"))
        }
        var samplers = buffers.enumerated().map { i, b in
            Sampler(
                base: UnsafePointer(b.base.assumingMemoryBound(to: Float.self)), rowStride: b.bytesPerRow / 4,
                minX: b.region.minX, minY: b.region.minY, width: b.region.width, height: b.region.height,
                extent: step.slots[i].extent)
        }
        buffers.append(.none)
        samplers.append(
            Sampler(
                base: UnsafePointer(bitPattern: 64)!, rowStride: 0, minX: 0, minY: 0, width: 0, height: 0, extent: .null
            ))
        w.stats.programRuns += 1
        if copyRows(root, rect, buffers, target) { return }
        if let rows = HalfMatrixRows(root, rect, target) {
            rows.run(rect, target, w)
            return
        }
        let chunk = w.chunk
        let direct = Self.directPlanes(root, rect, buffers, target)
        buffers.withUnsafeBufferPointer { sb in
            samplers.withUnsafeBufferPointer { sp in
                let env = RowEnv(worker: w, slots: sb.baseAddress!, samplers: sp.baseAddress!)
                for y in rect.minY..<rect.maxY {
                    var x = rect.minX
                    while x < rect.maxX {
                        let n = min(chunk, rect.maxX - x)
                        let reg: PlanarPixels
                        if let direct {
                            reg = direct.planes(x: x, y: y, count: n)
                        } else {
                            reg =
                                target.layout == .planarRows
                                ? target.planes(x: x, y: y, count: n)
                                : PlanarPixels(base: w.root, stride: chunk, count: n)
                            root.evaluate(y, x, n, reg, env)
                        }
                        target.store(reg, y, x, n, w)
                        x += n
                    }
                }
            }
        }
        buffers.removeLast()
    }

    /// A program that only reads one intermediate — through crops that keep `rect` and at most one edge clamp — copies
    /// the rows into the target, converting float to 8-bit in one pass where the planar round trip took three, and
    /// 8-bit pixels through the target's colour match by table; the values are those the program would store.
    ///
    /// Returns false when the program does more.
    private func copyRows(_ root: RowOp, _ rect: PixelRect, _ buffers: [SlotBuffer], _ target: RowTarget) -> Bool {
        guard target.quantize == nil, target.layout == .interleaved else { return false }
        var op = Self.skippingCrops(root, rect)
        var edge: PixelRect? = nil
        var need = rect
        if let clamp = op as? ClampOp, !clamp.edge.isEmpty, clamp.bounds.contains(rect) {
            edge = clamp.edge
            need = RegionOfInterest.clampRegion(rect, into: clamp.edge)
            op = Self.skippingCrops(clamp.children[0], need)
        }
        guard let read = op as? SlotReadOp, read.bounds.contains(need) else { return false }
        let b = buffers[read.slot]
        guard b.region.contains(need), b.layout == .interleaved else { return false }
        let bpp = target.format.bytesPerPixel()
        let convert: (UnsafeMutableRawPointer, UnsafeMutableRawPointer, Int) -> Void
        switch (b.format, target.format, target.converter) {
        case (.rgba8, .rgba8, let converter?):
            // A final colour match of 8-bit pixels: both curves by table.
            convert = { s, d, n in
                converter.convert(
                    rgba8: UnsafePointer(s.assumingMemoryBound(to: UInt8.self)),
                    into: d.assumingMemoryBound(to: UInt8.self),
                    count: n)
            }
        case (.rgbaFloat, .rgba8, nil):
            convert = { s, d, n in
                lux_float4_to_rgba8(s.assumingMemoryBound(to: Float.self), d.assumingMemoryBound(to: UInt8.self), n)
            }
        case (let s, let t, nil) where s == t:
            convert = { s, d, n in d.copyMemory(from: s, byteCount: n * bpp) }
        default:
            return false
        }
        func replicate(_ pixel: UnsafeMutableRawPointer, _ y: Int, _ xs: Range<Int>) {
            for x in xs { target.pointer(x: x, y: y).copyMemory(from: pixel, byteCount: bpp) }
        }
        for y in rect.minY..<rect.maxY {
            guard let e = edge else {
                convert(b.pointer(x: rect.minX, y: y), target.pointer(x: rect.minX, y: y), rect.width)
                continue
            }
            // The clamped row: the inside span converted, the pixels beyond each side copies of the edge pixel.
            let sy = min(max(y, e.minY), e.maxY - 1)
            let a = max(rect.minX, e.minX)
            let z = min(rect.maxX, e.maxX)
            if a < z {
                let first = target.pointer(x: a, y: y)
                convert(b.pointer(x: a, y: sy), first, z - a)
                replicate(first, y, rect.minX..<a)
                replicate(first + (z - a - 1) * bpp, y, z..<rect.maxX)
            } else {
                // The whole span lies beyond one side: every pixel is that side's edge pixel.
                let only = target.pointer(x: rect.minX, y: y)
                convert(b.pointer(x: rect.maxX <= e.minX ? e.minX : e.maxX - 1, y: sy), only, 1)
                replicate(only, y, (rect.minX + 1)..<rect.maxX)
            }
        }
        return true
    }

    /// The planar-rows intermediate a program only reads over `rect` (through crops that keep it), when the target
    /// stores its rows from those planes without quantising them: the rows are then stored straight from it (an
    /// output conversion rewrites the planes, so then only an intermediate the cache does not hold qualifies).
    private static func directPlanes(_ root: RowOp, _ rect: PixelRect, _ buffers: [SlotBuffer], _ target: RowTarget)
        -> SlotBuffer?
    {
        guard target.quantize == nil, target.layout == .interleaved,
            let read = skippingCrops(root, rect) as? SlotReadOp, read.bounds.contains(rect)
        else { return nil }
        let b = buffers[read.slot]
        // Converting to the output space rewrites the planes: only in a buffer the cache does not share.
        guard target.converter == nil || b.cached == nil else { return nil }
        return b.layout == .planarRows && b.region.contains(rect) ? b : nil
    }

    /// The planar-rows slot of `step` that its program only passes through per-pixel operations over `region` (colour
    /// kernels of one input, colour matches, alpha steps, crops and clamps that keep `region`), when `slot` stores the
    /// program's rows in the same storage without quantising: the program can then run where that slot lies.
    private static func inPlaceSlot(_ slot: Slot, _ root: RowOp, _ region: PixelRect) -> Int? {
        guard slot.layout == .planarRows, slot.quantize == nil else { return nil }
        var op = root
        while true {
            op = skippingCrops(op, region)
            guard op.bounds.contains(region) else { return nil }
            switch op {
            case let read as SlotReadOp:
                let inner = slot.producer.slots[read.slot]
                return inner.layout == .planarRows && inner.format == slot.format ? read.slot : nil
            case let clamp as ClampOp where clamp.edge.contains(region): op = clamp.children[0]
            case is MatchOp, is AlphaOp: op = op.children[0]
            case let kernel as KernelOp where kernel.children.count == 1: op = kernel.children[0]
            default: return nil
            }
        }
    }

    /// The slot a row program reads unchanged over `rect`, through crops and clamps that do not touch it.
    private static func passThroughSlot(_ root: RowOp, _ rect: PixelRect) -> Int? {
        var op = skippingCrops(root, rect)
        while let clamp = op as? ClampOp, clamp.bounds.contains(rect), clamp.edge.contains(rect) {
            op = skippingCrops(clamp.children[0], rect)
        }
        guard let read = op as? SlotReadOp, read.bounds.contains(rect) else { return nil }
        return read.slot
    }

    /// `op` below the crops at its top that keep all of `r` (they pass `r`'s spans through unchanged).
    static func skippingCrops(_ op: RowOp, _ r: PixelRect) -> RowOp {
        var op = op
        while op is CropOp, op.bounds.contains(r) { op = op.children[0] }
        return op
    }

    func release(_ b: SlotBuffer, _ w: Worker) {
        if let block = b.arenaBlock { w.arena.release(block) }
    }

    /// Materialises `roi` of a slot (from the cache when possible).
    func materialise(_ slot: Slot, _ roi: PixelRect, _ w: Worker, label: String) throws(RenderError) -> SlotBuffer {
        if roi.isEmpty { return .none }
        var region = roi
        if region.isInfinite {
            region = region.intersection(slot.producerBounds)
            if region.isInfinite { throw .unboundedRegion(label) }
            if region.isEmpty { return .none }
        }
        if let view = shared?.buffer(for: slot, covering: region) { return view }
        let bytesPerRow = SlotBuffer.bytesPerRow(width: region.width, format: slot.format)
        let bytes = bytesPerRow * region.height
        // With caching on, processor outputs (the expensive intermediates: blurs, resamplers…) are kept;
        // explicit intermediates are kept when their recipe asks. Cheap per-pixel inputs are recomputed.
        let isProcessor: Bool
        if case .processor = slot.producer.kind { isProcessor = true } else { isProcessor = false }
        let useCache = cache != nil && (slot.cache || (cacheAll && isProcessor))
        let key = IntermediateCache.Key(
            digest: slot.producer.digest, region: region, format: slot.format, layout: slot.layout,
            quantize: slot.quantize)
        if useCache, let (hit, bpr) = cache!.lookup(key) {
            w.stats.cacheHits += 1
            return SlotBuffer(
                base: hit.pointer, bytesPerRow: bpr, region: region, format: slot.format, arenaBlock: nil, cached: hit,
                layout: slot.layout)
        }
        // A program that only passes one intermediate through over `region` (crops that keep it, a clamp whose
        // edge contains it: a processor's clamped input away from the image's edges) needs no buffer of its own —
        // the intermediate materialised over the same region holds exactly its values.
        if !useCache, slot.quantize == nil, case .rows(let root) = slot.producer.kind,
            let inner = Self.passThroughSlot(root, region), slot.producer.slots[inner].format == slot.format,
            slot.producer.slots[inner].layout == slot.layout
        {
            return try materialise(slot.producer.slots[inner], region, w, label: label)
        }
        var buffer: SlotBuffer
        if useCache {
            let c = CachedBuffer(byteCount: bytes)
            buffer = SlotBuffer(
                base: c.pointer, bytesPerRow: bytesPerRow, region: region, format: slot.format, arenaBlock: nil,
                cached: c, layout: slot.layout)
        } else {
            let block = w.arena.acquire(bytes)
            buffer = SlotBuffer(
                base: block.pointer, bytesPerRow: bytesPerRow, region: region, format: slot.format, arenaBlock: block,
                cached: nil, layout: slot.layout)
        }
        do {
            switch slot.producer.kind {
            case .rows(let root):
                var target = RowTarget(
                    base: buffer.base, bytesPerRow: bytesPerRow, originX: region.minX, originY: region.minY,
                    format: slot.format, quantize: slot.quantize, layout: slot.layout, planeStride: region.width)
                guard !useCache, let s = Self.inPlaceSlot(slot, root, region) else {
                    try produce(slot, into: buffer, w)
                    break
                }
                // A per-pixel program over a planar intermediate: it runs in that intermediate's rows when they are
                // this call's own (not a cached buffer), which then become the result.
                let input = try materialise(slot.producer.slots[s], region, w, label: label)
                if input.cached == nil, input.region == region {
                    release(buffer, w)
                    buffer = input
                    target = RowTarget(
                        base: input.base, bytesPerRow: input.bytesPerRow, originX: region.minX, originY: region.minY,
                        format: slot.format, quantize: nil, layout: .planarRows, planeStride: region.width)
                }
                defer { if input.base != buffer.base { release(input, w) } }
                try runRows(slot.producer, region, target, w, given: (s, input))
            case .processor:
                try produce(slot, into: buffer, w)
            }
        } catch {
            release(buffer, w)
            throw error
        }
        w.stats.intermediates += 1
        w.stats.intermediatePixels += region.area
        if useCache, let c = buffer.cached { cache!.store(key, c, bytesPerRow: bytesPerRow) }
        return buffer
    }

    /// Computes `slot`'s pixels over `buffer`'s region into it.
    func produce(_ slot: Slot, into buffer: SlotBuffer, _ w: Worker) throws(RenderError) {
        switch slot.producer.kind {
        case .rows:
            let target = RowTarget(
                base: buffer.base, bytesPerRow: buffer.bytesPerRow, originX: buffer.region.minX,
                originY: buffer.region.minY, format: slot.format, quantize: slot.quantize, layout: slot.layout,
                planeStride: buffer.region.width)
            try runRows(slot.producer, buffer.region, target, w)
        case .processor(let p, let bounds):
            try runProcessor(p, slot.producer, bounds: bounds, buffer: buffer, w)
        }
    }

    private func runProcessor(_ p: ImageProcessor, _ step: Step, bounds: PixelRect, buffer: SlotBuffer, _ w: Worker)
        throws(RenderError)
    {
        let region = buffer.region
        let inside = region.intersection(bounds)
        if inside != region {
            // Transparent outside the processor's extent.
            for row in 0..<region.height {
                (buffer.base + row * buffer.bytesPerRow).initializeMemory(
                    as: UInt8.self, repeating: 0, count: region.width * buffer.format.bytesPerPixel())
            }
        }
        if inside.isEmpty { return }
        if let reduction = p.reduction {
            try runReduction(reduction, p, step, inside: inside, buffer: buffer, w)
            return
        }
        var inputs: [SlotBuffer] = []
        defer { for b in inputs { release(b, w) } }
        for (k, slot) in step.slots.enumerated() {
            let roi = PixelRect(enclosing: p.roi(k, inside.rect))
            var b = try materialise(slot, roi, w, label: "input \(k) of processor \(p.processorDescription)")
            if b.region.isEmpty {
                // An input that contributes nothing still gets a (1×1, transparent) buffer.
                let block = w.arena.acquire(64)
                block.pointer.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
                b = SlotBuffer(
                    base: block.pointer, bytesPerRow: 64,
                    region: PixelRect(x: inside.minX, y: inside.minY, width: 1, height: 1), format: slot.format,
                    arenaBlock: block, cached: nil, layout: slot.layout)
            }
            inputs.append(b)
        }
        let views = inputs.map(\.processorInput)
        let scratch = ProcessorScratch(arena: w.arena)
        defer { scratch.releaseAll() }
        let output = buffer.processorOutput(inside, scratch: scratch)
        w.stats.programRuns += 1
        do {
            try p.body(views, output)
        } catch let e as RenderError {
            throw e
        } catch {
            throw .processorFailed(p.processorDescription, reason: "\(error)")
        }
    }
}
