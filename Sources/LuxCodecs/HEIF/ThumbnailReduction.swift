internal import CLuxKernels
import LuxPixels

/// Reduces an image fed in bands to a thumbnail whose long side is `side` (even width and height), each thumbnail
/// pixel the mean of the source pixels it covers.
struct ThumbnailReduction {
    let width: Int
    let height: Int
    let thumbWidth: Int
    let thumbHeight: Int
    private var sums: [UInt64]
    private var counts: [UInt64]
    private var row = 0

    init(width: Int, height: Int, side: Int) {
        self.width = width
        self.height = height
        let scale = Double(side) / Double(max(width, height))
        func even(_ v: Double) -> Int { max(2, Int((v / 2).rounded()) * 2) }
        thumbWidth = min(even(Double(width) * scale), max(2, width / 2 * 2))
        thumbHeight = min(even(Double(height) * scale), max(2, height / 2 * 2))
        sums = [UInt64](repeating: 0, count: thumbWidth * thumbHeight * 3)
        counts = [UInt64](repeating: 0, count: thumbWidth * thumbHeight)
    }

    /// Adds the next rows (`.rgba8` or `.rgba16`, the source's width).
    mutating func add(_ band: PixelBuffer) {
        let size = band.format.componentType == .uint16 ? 2 : 1
        band.withUnsafePlane { plane in
            let base = plane.baseAddress
            addRows(
                band.height, channels: [base, base + size, base + 2 * size], size: size, step: 4,
                stride: plane.bytesPerRow / size)
        }
    }

    /// Adds the next rows, `rows` of 8-bit planes.
    mutating func add(planes: PlanarRGB8, rows: Range<Int>) {
        let (red, green, blue) = (planes.red, planes.green, planes.blue)
        guard red.stride == green.stride, red.stride == blue.stride else {
            for y in rows {
                let channels = [red, green, blue].map { UnsafeRawPointer($0.base + y * $0.stride) }
                addRows(1, channels: channels, size: 1, step: 1, stride: 0)
            }
            return
        }
        let channels = [red, green, blue].map { UnsafeRawPointer($0.base + rows.lowerBound * $0.stride) }
        addRows(rows.count, channels: channels, size: 1, step: 1, stride: red.stride)
    }

    /// Adds `count` rows whose channel `k` at column `x` of row `r` is element `r·stride + x·step` (of `size` bytes)
    /// after `channels[k]`.
    private mutating func addRows(_ count: Int, channels: [UnsafeRawPointer], size: Int, step: Int, stride: Int) {
        let (first, width, height, thumbWidth, thumbHeight) = (row, width, height, thumbWidth, thumbHeight)
        channels.map { Optional($0) }.withUnsafeBufferPointer { c in
            sums.withUnsafeMutableBufferPointer { s in
                counts.withUnsafeMutableBufferPointer { n in
                    lux_box_reduce_rows(
                        c.baseAddress, size, step, stride, first, count, width, height, thumbWidth, thumbHeight,
                        s.baseAddress, n.baseAddress)
                }
            }
        }
        row += count
    }

    /// The thumbnail in `format` (`.rgba8` or `.rgba16`).
    func result(format: PixelFormat) -> PixelBuffer {
        var out = PixelBuffer(width: thumbWidth, height: thumbHeight, format: format)
        let sixteen = format.componentType == .uint16
        out.withUnsafeMutablePlane { plane in
            for y in 0..<thumbHeight {
                for x in 0..<thumbWidth {
                    let i = y * thumbWidth + x
                    let n = Float(max(counts[i], 1))
                    let v = (0..<3).map { Float(sums[3 * i + $0]) / n }
                    if sixteen {
                        let p = plane.row(y, as: UInt16.self) + 4 * x
                        for c in 0..<3 { p[c] = UInt16(min(max(v[c].rounded(), 0), 65535)) }
                        p[3] = .max
                    } else {
                        let p = plane.row(y, as: UInt8.self) + 4 * x
                        for c in 0..<3 { p[c] = UInt8(min(max(v[c].rounded(), 0), 255)) }
                        p[3] = .max
                    }
                }
            }
        }
        return out
    }
}
