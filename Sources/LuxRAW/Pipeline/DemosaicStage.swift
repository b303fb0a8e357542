import LuxPixels
public import LuxRender

/// Stages 2–3 as an ``Image``: linearised, white-balanced mosaic → camera RGB, computed tile by tile.
///
/// The image's extent is the active area (or half of it in draft mode); values are white-balanced camera
/// RGB in which the sensor clip of the least-gained channel is 1 (scene-referred, not clipped). It reads the
/// raw buffer directly for each tile — there is no full-size float copy of the mosaic.
public struct DemosaicStage: Hashable, Sendable {
    /// The reconstruction method.
    public var method: DemosaicMethod
    /// Whether to produce a half-size draft (one pixel per 2×2 quad) instead.
    public var isHalfSize: Bool

    /// Creates the stage.
    public init(method: DemosaicMethod = .rcd, isHalfSize: Bool = false) {
        self.method = method
        self.isHalfSize = isHalfSize
    }

    /// The camera-RGB image of `sensor` with white-balance `gains` (red, green, blue) applied to the mosaic.
    public func image(from sensor: SensorLinearization, gains: SIMD3<Float>) -> Image {
        let method = method
        let digest = "\(method) gains=\(gains) shading=\(sensor.appliesLensShading) sensor=\(sensor.identity)"
        if isHalfSize {
            let w = sensor.width / 2
            let h = sensor.height / 2
            let processor = ImageProcessor(
                description: "rawHalfSize", argumentDigest: digest, inputFormat: nil, outputFormat: .rgbaFloat,
                outputLayout: .planarRows, roi: { _, r in r },
                process: { _, output in
                    let ow = output.width
                    let x0 = Int(output.region.minX)
                    let y0 = Int(output.region.minY)
                    let rows = output.scratch(byteCount: 4 * 2 * 2 * ow).assumingMemoryBound(to: Float.self)
                    for j in 0..<output.height {
                        sensor.read(
                            x: 2 * x0, y: 2 * (y0 + j), width: 2 * ow, height: 2, gains: gains, into: rows,
                            rowStride: 2 * ow)
                        let planes = output.planes(j)
                        HalfSizeDemosaic.row(
                            rows, rows + 2 * ow, count: ow, pattern: sensor.pattern, red: planes.red,
                            green: planes.green, blue: planes.blue)
                        planes.alpha.update(repeating: 1, count: ow)
                    }
                }
            )
            return processor.apply(to: [], extent: Rect(width: w, height: h), isOpaque: true)
        }
        let processor = ImageProcessor(
            description: "demosaic", argumentDigest: digest, inputFormat: nil, outputFormat: .rgbaFloat,
            outputLayout: .planarRows, roi: { _, r in r },
            process: { _, output in
                let w = output.width
                let h = output.height
                let count = RegionDemosaic.scratchCount(method: method, width: w, height: h)
                let scratch = output.scratch(byteCount: 4 * count).assumingMemoryBound(to: Float.self)
                RegionDemosaic.run(
                    method: method, pattern: sensor.pattern, x0: Int(output.region.minX), y0: Int(output.region.minY),
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
