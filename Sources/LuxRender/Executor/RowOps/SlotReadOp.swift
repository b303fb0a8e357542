import LuxPixels

/// Reads a materialised slot (an intermediate or a processor's output).
final class SlotReadOp: RowOp {
    let slot: Int
    init(slot: Int, bounds: PixelRect) {
        self.slot = slot
        super.init(bounds: bounds)
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let s = env.slots[slot]
        let r = s.region
        guard y >= r.minY, y < r.maxY else {
            dst.zero(0..<n)
            return
        }
        let x0 = max(x, r.minX)
        let x1 = min(x + n, r.maxX)
        guard x0 < x1 else {
            dst.zero(0..<n)
            return
        }
        dst.zero(0..<(x0 - x))
        dst.zero((x1 - x)..<n)
        let inside = dst.advanced(by: x0 - x, count: x1 - x0)
        if s.layout == .planarRows {
            let from = s.planes(x: x0, y: y, count: x1 - x0)
            if from.red != inside.red { inside.update(from: from) }  // equal: a program running in the slot's rows
            return
        }
        PixelIO.load(s.format, from: s.pointer(x: x0, y: y), count: x1 - x0, into: inside, scratch: env.worker.scratch)
    }
    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        rois[slot] = rois[slot].union(r)
    }
    override var name: String { "slot\(slot)" }
}
