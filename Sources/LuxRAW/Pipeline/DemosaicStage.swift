import LuxPixels
public import LuxRender

/// Stages 2–3 as an ``Image``: linearised, white-balanced mosaic → camera RGB, computed tile by tile.
///
/// The image's extent is the active area (divided by ``binning``); values are white-balanced camera RGB in which the
/// sensor clip of the least-gained channel is 1 (scene-referred, not clipped). It reads the raw buffer directly for
/// each tile — there is no full-size float copy of the mosaic. Bayer mosaics are demosaiced by ``method``; X-Trans
/// mosaics by ``XTransDemosaic`` (its plain interpolation for ``DemosaicMethod/bilinear``).
public struct DemosaicStage: Hashable, Sendable {
    /// The reconstruction method.
    public var method: DemosaicMethod
    /// Photosites per output pixel along each side: 1 demosaics at full resolution; 2, 4, 8 … (Bayer) or 3, 6, 12 …
    /// (X-Trans) average each block's photosites of each colour instead (``BinnedDemosaic``).
    public var binning: Int

    /// Creates the stage.
    public init(method: DemosaicMethod = .rcd, binning: Int = 1) {
        self.method = method
        self.binning = max(1, binning)
    }

    /// The camera-RGB image of `sensor` with white-balance `gains` (red, green, blue) applied to the mosaic.
    public func image(from sensor: SensorLinearization, gains: SIMD3<Float>) -> Image {
        let method = method
        let digest =
            "\(method) binning=\(binning) gains=\(gains) shading=\(sensor.appliesLensShading) sensor=\(sensor.identity)"
        if binning > 1 {
            let b = binning
            let processor = ImageProcessor(
                description: "rawBinned", argumentDigest: digest, inputFormat: nil, outputFormat: .rgbaFloat,
                outputLayout: .planarRows, roi: { _, r in r },
                process: { _, output in
                    let ow = output.width
                    let x0 = Int(output.region.minX)
                    let y0 = Int(output.region.minY)
                    let rows = output.scratch(byteCount: 4 * b * b * ow).assumingMemoryBound(to: Float.self)
                    let layout = sensor.layout.shifted(x: b * x0, y: b * y0)
                    for j in 0..<output.height {
                        sensor.read(
                            x: b * x0, y: b * (y0 + j), width: b * ow, height: b, gains: gains, into: rows,
                            rowStride: b * ow)
                        let planes = output.planes(j)
                        BinnedDemosaic.row(
                            rows, rowStride: b * ow, count: ow, binning: b, layout: layout.shifted(x: 0, y: b * j),
                            red: planes.red, green: planes.green, blue: planes.blue)
                        planes.alpha.update(repeating: 1, count: ow)
                    }
                }
            )
            return processor.apply(
                to: [], extent: Rect(width: sensor.width / b, height: sensor.height / b), isOpaque: true)
        }
        let processor = ImageProcessor(
            description: "demosaic", argumentDigest: digest, inputFormat: nil, outputFormat: .rgbaFloat,
            outputLayout: .planarRows, roi: { _, r in r },
            process: { _, output in
                let w = output.width
                let h = output.height
                let count = RegionDemosaic.scratchCount(method: method, layout: sensor.layout, width: w, height: h)
                let scratch = output.scratch(byteCount: 4 * count).assumingMemoryBound(to: Float.self)
                RegionDemosaic.run(
                    method: method, layout: sensor.layout, x0: Int(output.region.minX), y0: Int(output.region.minY),
                    width: w, height: h, scratch: scratch,
                    read: { x, y, rw, rh, d, stride in
                        sensor.read(x: x, y: y, width: rw, height: rh, gains: gains, into: d, rowStride: stride)
                    },
                    emit: { j, r, g, b in
                        let planes = output.planes(j)
                        planes.red.update(from: r, count: w)
                        planes.green.update(from: g, count: w)
                        planes.blue.update(from: b, count: w)
                        planes.alpha.update(repeating: 1, count: w)
                    })
            }
        )
        return processor.apply(to: [], extent: Rect(width: sensor.width, height: sensor.height), isOpaque: true)
    }
}
