import LuxColor
import LuxPixels

/// An 8-bit source or 8-bit slot colour-matched while loading (decode by table, one pass).
///
/// The values are the same as a load followed by ``MatchOp``: the converter's 256-entry decode table holds
/// exactly what its curve gives for each code.
final class Match8Op: RowOp {
    /// Where the 8-bit rows come from.
    enum Input {
        case source(LoadSourceOp)
        /// An interleaved `rgba8` slot (a processor's output, such as a file reader's).
        case slot(SlotReadOp)
    }

    let input: Input
    let converter: ColorConverter
    let label: String

    init(_ input: Input, converter: ColorConverter, label: String, bounds: PixelRect) {
        self.input = input
        self.converter = converter
        self.label = label
        if case .source(let load) = input {
            super.init(bounds: load.bounds)
        } else {
            super.init(bounds: bounds)
        }
    }

    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        switch input {
        case .source(let load):
            let src = (load.base + y * load.bytesPerRow + x * 4).assumingMemoryBound(to: UInt8.self)
            converter.convert(rgba8: src, red: dst.red, green: dst.green, blue: dst.blue, alpha: dst.alpha, count: n)
            env.worker.stats.sourcePixelsRead += n
        case .slot(let read):
            let s = env.slots[read.slot]
            let r = s.region
            let x0 = y >= r.minY && y < r.maxY ? min(max(x, r.minX), x + n) : x + n
            let x1 = max(min(x + n, r.maxX), x0)
            matchZeros(dst, 0..<(x0 - x))
            matchZeros(dst, (x1 - x)..<n)
            guard x0 < x1 else { return }
            let inside = dst.advanced(by: x0 - x, count: x1 - x0)
            let src = s.pointer(x: x0, y: y).assumingMemoryBound(to: UInt8.self)
            converter.convert(
                rgba8: src, red: inside.red, green: inside.green, blue: inside.blue, alpha: inside.alpha,
                count: x1 - x0)
        }
    }

    /// Outside the slot: zeros, matched as ``MatchOp`` would match them.
    private func matchZeros(_ dst: PlanarPixels, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        dst.zero(range)
        let part = dst.advanced(by: range.lowerBound, count: range.count)
        converter.convertInPlace(red: part.red, green: part.green, blue: part.blue, count: range.count)
    }

    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        switch input {
        case .source(let load): load.collectInside(r, &rois, &sources)
        case .slot(let read): read.collectInside(r, &rois, &sources)
        }
    }

    override var name: String {
        switch input {
        case .source(let load): "\(label)(\(load.name))"
        case .slot(let read): "\(label)(\(read.name))"
        }
    }
}
