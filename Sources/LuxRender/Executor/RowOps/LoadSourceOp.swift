import LuxPixels

/// Reads a source buffer.
final class LoadSourceOp: RowOp {
    let buffer: PixelBuffer
    let base: UnsafeRawPointer
    let bytesPerRow: Int
    let format: PixelFormat
    let bytesPerPixel: Int
    let sourceIndex: Int

    init(_ ref: SourceRef, bounds: PixelRect, sourceIndex: Int) {
        buffer = ref.buffer
        (base, bytesPerRow) = ref.buffer.withUnsafePlane { ($0.baseAddress, $0.bytesPerRow) }
        format = ref.buffer.format
        bytesPerPixel = format.bytesPerPixel()
        self.sourceIndex = sourceIndex
        super.init(
            bounds: bounds.intersection(PixelRect(x: 0, y: 0, width: ref.buffer.width, height: ref.buffer.height)))
    }

    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        PixelIO.load(
            format, from: base + y * bytesPerRow + x * bytesPerPixel, count: n, into: dst, scratch: env.worker.scratch)
        env.worker.stats.sourcePixelsRead += n
    }

    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        sources[sourceIndex] = sources[sourceIndex].union(r)
    }

    override var name: String { "load_\(format.shortName)_\(buffer.width)x\(buffer.height)" }
}
