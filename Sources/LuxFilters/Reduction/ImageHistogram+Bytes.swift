import LuxColor
import LuxPixels
import LuxRender
import Synchronization

extension ImageHistogram {
    /// The histograms of an opaque 8-bit RGBA buffer in the colour space counted, from its stored codes: `nil` when
    /// `image` is not such a buffer (or `area` is not whole pixels inside it), or when a pixel is not opaque.
    ///
    /// Code `c` is the encoded value c/255, so it falls in bin ⌊c·n/255⌋ (integer division: exact, where the float
    /// render rounds); luma is computed in double precision from the codes.
    static func counted(
        bytesOf image: Image, area: Rect, colorSpace: ColorSpace, binCount n: Int, lumaWeights w: SIMD3<Double>
    ) -> ImageHistogram? {
        guard let (buffer, space) = image.sourceBuffer, space == colorSpace, buffer.format == .rgba8,
            area.isIntegral, buffer.bounds.contains(area)
        else { return nil }
        let x0 = Int(area.minX)
        let y0 = Int(area.minY)
        let width = Int(area.width)
        let height = Int(area.height)
        // Per code, each primary's share of the luma in bins: a pixel's luma bin is ⌊sum⌋.
        let shares = (0..<768).map { k in Double(k % 256) / 255 * w[k / 256] * Double(n) }
        let tallies = Mutex((codes: [Int](repeating: 0, count: 3 * 256), luma: [Int](repeating: 0, count: n)))
        let opaque = Atomic<Bool>(true)
        buffer.withUnsafePlane { plane in
            Parallel.forEachBand(height, threads: Parallel.defaultThreadCount, minimumBand: 64) { rows in
                // Two tallies, even and odd pixels, so runs of one value do not wait on one counter.
                var codes = [Int32](repeating: 0, count: 2 * 3 * 256)
                var luma = [Int32](repeating: 0, count: 2 * n)
                var alpha: UInt8 = 255
                shares.withUnsafeBufferPointer { share in
                    codes.withUnsafeMutableBufferPointer { codes in
                        luma.withUnsafeMutableBufferPointer { luma in
                            for y in rows {
                                let p = plane.row(y0 + y, as: UInt8.self) + 4 * x0
                                for i in 0..<width {
                                    let t = i & 1
                                    let (cr, cg, cb) = (Int(p[4 * i]), Int(p[4 * i + 1]), Int(p[4 * i + 2]))
                                    alpha &= p[4 * i + 3]
                                    codes[t * 768 + cr] &+= 1
                                    codes[t * 768 + 256 + cg] &+= 1
                                    codes[t * 768 + 512 + cb] &+= 1
                                    let bin = min(max(Int(share[cr] + share[256 + cg] + share[512 + cb]), 0), n - 1)
                                    luma[t * n + bin] &+= 1
                                }
                            }
                        }
                    }
                }
                if alpha != 255 { opaque.store(false, ordering: .relaxed) }
                tallies.withLock { total in
                    for k in 0..<768 { total.codes[k] += Int(codes[k]) + Int(codes[768 + k]) }
                    for k in 0..<n { total.luma[k] += Int(luma[k]) + Int(luma[n + k]) }
                }
            }
        }
        guard opaque.load(ordering: .relaxed) else { return nil }
        let (codes, luma) = tallies.withLock { ($0.codes, $0.luma) }
        let pixels = Double(width * height)
        let channels = (0..<3).map { c in
            var bins = [Double](repeating: 0, count: n)
            for code in 0..<256 { bins[min(code * n / 255, n - 1)] += Double(codes[c * 256 + code]) }
            return bins.map { $0 / pixels }
        }
        return ImageHistogram(
            red: channels[0], green: channels[1], blue: channels[2], luminance: luma.map { Double($0) / pixels },
            colorSpace: colorSpace)
    }
}
