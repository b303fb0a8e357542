import LuxPixels
public import LuxRender

/// Changes an image's size by a factor: area averaging for reductions (each output pixel is the mean of the input
/// area it covers, partial pixels weighted by their coverage), bilinear interpolation for enlargements.
///
/// Enlargements by a whole factor on both axes (draft mode's) interpolate rows directly, with weights that repeat
/// every `factor` pixels, rather than through a general warp; they equal the warp's bilinear samples (edge pixels
/// repeated beyond the extent) up to float rounding.
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
        if sx == sy, sx >= 2, sx == sx.rounded(), image.extent.minX == 0, image.extent.minY == 0 {
            return enlarged(image, by: Int(sx))
        }
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

    /// `image` enlarged `factor` times: output pixel `X` samples the input at `(X + ½)/factor − ½` (pixel centres),
    /// bilinearly, along rows first.
    func enlarged(_ image: Image, by factor: Int) -> Image {
        let k = Double(factor)
        let processor = ImageProcessor(
            description: "enlarge", argumentDigest: "\(factor)x to \(width)x\(height)",
            inputFormat: .rgbaFloat, inputLayout: .planarRows, outputFormat: .rgbaFloat, outputLayout: .planarRows,
            roi: { _, r in
                Rect(
                    minX: (r.minX / k).rounded(.down) - 1, minY: (r.minY / k).rounded(.down) - 1,
                    maxX: (r.maxX / k).rounded(.up) + 2, maxY: (r.maxY / k).rounded(.up) + 2)
            },
            process: { inputs, output in
                let input = inputs[0]
                let ix0 = Int(input.region.minX)
                let iy0 = Int(input.region.minY)
                let ox0 = Int(output.region.minX)
                let ow = output.width
                let scratch = output.scratch(byteCount: 8 * ow)
                let left = scratch.assumingMemoryBound(to: Int32.self)
                let weight = (scratch + 4 * ow).assumingMemoryBound(to: Float.self)
                /// The input pixel at or left of output coordinate `o`'s sample, and the next pixel's weight.
                func position(_ o: Int) -> (Int, Float) {
                    let u = (Float(o) + 0.5) / Float(factor) - 0.5
                    let f = u.rounded(.down)
                    return (Int(f), u - f)
                }
                for i in 0..<ow {
                    let (x, a) = position(ox0 + i)
                    left[i] = Int32(x - ix0)
                    weight[i] = a
                }
                for j in 0..<output.height {
                    let (y, ay) = position(Int(output.region.minY) + j)
                    let top = input.planes(y - iy0)
                    let bottom = input.planes(y + 1 - iy0)
                    let o = output.planes(j)
                    for (t, b, d) in [
                        (top.red, bottom.red, o.red), (top.green, bottom.green, o.green),
                        (top.blue, bottom.blue, o.blue), (top.alpha, bottom.alpha, o.alpha),
                    ] {
                        for i in 0..<ow {
                            let x = Int(left[i])
                            let ax = weight[i]
                            let upper = t[x] + (t[x + 1] - t[x]) * ax
                            let lower = b[x] + (b[x + 1] - b[x]) * ax
                            d[i] = upper + (lower - upper) * ay
                        }
                    }
                }
            }
        )
        return processor.apply(
            to: [image.clampedToExtent()], extent: Rect(width: width, height: height), isOpaque: true)
    }
}
