import LuxColor
import LuxPixels

/// An 8-bit source colour-matched while loading (decode by table, one pass).
final class LoadMatch8Op: RowOp {
    let load: LoadSourceOp
    let converter: ColorConverter
    let label: String

    init(_ load: LoadSourceOp, converter: ColorConverter, label: String) {
        self.load = load
        self.converter = converter
        self.label = label
        super.init(bounds: load.bounds)
    }

    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let src = (load.base + y * load.bytesPerRow + x * 4).assumingMemoryBound(to: UInt8.self)
        converter.convert(rgba8: src, red: dst.red, green: dst.green, blue: dst.blue, alpha: dst.alpha, count: n)
        env.worker.stats.sourcePixelsRead += n
    }

    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        load.collectInside(r, &rois, &sources)
    }

    override var name: String { "\(label)(\(load.name))" }
}
