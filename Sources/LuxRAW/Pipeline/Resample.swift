import LuxPixels
public import LuxRender

/// Changes an image's size by a factor: area averaging for reductions (each output pixel is the mean of the input
/// area it covers, partial pixels weighted by their coverage), bilinear interpolation for enlargements.
///
/// Used by the developer's scale factor (after the pipeline ran at the nearest larger binning) and draft mode
/// (enlarging the binned render back to the output size).
public struct Resample: Hashable, Sendable {
    /// The output width in pixels.
    public var width: Int
    /// The output height in pixels.
    public var height: Int

    /// Creates the stage for an output of `width × height`.
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    /// The image resized to `width × height`, its extent at (0, 0) (the input's extent must start there too).
    public func apply(to image: Image) -> Image {
        let sx = Double(width) / image.extent.width
        let sy = Double(height) / image.extent.height
        if sx == 1 && sy == 1 { return image }
        if sx > 1 || sy > 1 {
            return image.clampedToExtent()
                .transformed(by: AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0), sampling: .linear)
                .cropped(to: Rect(width: width, height: height))
        }
        let (inW, inH) = (image.extent.width, image.extent.height)
        let processor = ImageProcessor(
            description: "areaResample", argumentDigest: "\(width)x\(height) from \(inW)x\(inH)",
            inputFormat: .rgbaFloat, inputLayout: .planarRows, outputFormat: .rgbaFloat, outputLayout: .planarRows,
            roi: { _, r in
                Rect(
                    minX: (r.minX / sx).rounded(.down) - 1, minY: (r.minY / sy).rounded(.down) - 1,
                    maxX: (r.maxX / sx).rounded(.up) + 1, maxY: (r.maxY / sy).rounded(.up) + 1)
            },
            process: { inputs, output in
                let input = inputs[0]
                let ix0 = Int(input.region.minX)
                let iy0 = Int(input.region.minY)
                let ow = output.width
                let row = output.scratch(byteCount: 4 * 4 * input.width).assumingMemoryBound(to: Float.self)
                /// The input pixels output coordinate `o` covers along an axis, with their weights.
                func span(_ o: Int, _ scale: Double) -> [(Int, Float)] {
                    let a = Double(o) / scale
                    let b = Double(o + 1) / scale
                    var taps: [(Int, Float)] = []
                    var k = Int(a.rounded(.down))
                    while Double(k) < b {
                        let cover = min(b, Double(k + 1)) - max(a, Double(k))
                        if cover > 0 { taps.append((k, Float(cover * scale))) }
                        k += 1
                    }
                    return taps
                }
                let columns = (0..<ow).map { span(Int(output.region.minX) + $0, sx) }
                for j in 0..<output.height {
                    let rows = span(Int(output.region.minY) + j, sy)
                    // The vertical sum of the rows this output row covers, for every input column.
                    for c in 0..<4 { (row + c * input.width).update(repeating: 0, count: input.width) }
                    for (y, wy) in rows {
                        let p = input.planes(y - iy0)
                        for (c, plane) in [p.red, p.green, p.blue, p.alpha].enumerated() {
                            let d = row + c * input.width
                            for x in 0..<input.width { d[x] += wy * plane[x] }
                        }
                    }
                    let o = output.planes(j)
                    for (c, plane) in [o.red, o.green, o.blue, o.alpha].enumerated() {
                        let d = row + c * input.width
                        for i in 0..<ow {
                            var sum: Float = 0
                            for (x, wx) in columns[i] { sum += wx * d[x - ix0] }
                            plane[i] = sum
                        }
                    }
                }
            }
        )
        return processor.apply(
            to: [image.clampedToExtent()], extent: Rect(width: width, height: height), isOpaque: true)
    }
}
