import LuxPixels
import LuxRender

/// A list of weighted offsets: the taps of a convolution.
struct ConvolutionTaps: Sendable, Hashable {
    var dx: [Int] = []
    var dy: [Int] = []
    var weights: [Float] = []

    /// A dense `width`×`height` kernel, weights row-major from the top-left (y grows downwards); zero
    /// weights are dropped.
    init(width: Int, height: Int, weights w: [Double]) {
        precondition(w.count == width * height, "a \(width)×\(height) kernel needs \(width * height) weights")
        for j in 0..<height {
            for i in 0..<width where w[j * width + i] != 0 {
                append(dx: i - width / 2, dy: j - height / 2, weight: Float(w[j * width + i]))
            }
        }
    }

    init() {}

    mutating func append(dx x: Int, dy y: Int, weight: Float) {
        if let k = dx.indices.first(where: { dx[$0] == x && dy[$0] == y }) {
            weights[k] += weight
        } else {
            dx.append(x)
            dy.append(y)
            weights.append(weight)
        }
    }

    /// The largest horizontal and vertical offset.
    var reach: (x: Int, y: Int) { (dx.map(abs).max() ?? 0, dy.map(abs).max() ?? 0) }
}

extension Image {
    /// The image convolved with `taps`: `out(p) = Σ w·in(p + (dx, dy))` on premultiplied RGBA, plus `bias` on red,
    /// green and blue.
    ///
    /// The extent grows by the taps' reach; outside the input's extent it reads transparent.
    ///
    /// One pass per tap over the whole row span (a vectorised multiply–add), in a fixed order, so results do
    /// not depend on tiling.
    func convolved(_ name: String, taps: ConvolutionTaps, bias: Float = 0, arguments: String) -> Image {
        let (rx, ry) = taps.reach
        let n = taps.weights.count
        let kernel = GeneralKernel(name: name) { row in
            let s = row.sampler(0)
            let out = row.output
            let count = 4 * row.count
            out.update(repeating: 0, count: count)
            for t in 0..<n {
                let src = s.row(row.y + taps.dy[t]) + 4 * (row.x + taps.dx[t] - s.minX)
                multiplyAdd(out, src, taps.weights[t], count)
            }
            if bias != 0 {
                for i in 0..<row.count {
                    out[4 * i] += bias
                    out[4 * i + 1] += bias
                    out[4 * i + 2] += bias
                }
            }
        }
        let dx = Double(rx)
        let dy = Double(ry)
        return kernel.apply(extent: extent.insetBy(dx: -dx, dy: -dy), inputs: [self], arguments: arguments) { _, r in
            r.insetBy(dx: -dx, dy: -dy)
        }
    }
}

/// `acc[i] += w·src[i]`.
@inline(never)
func multiplyAdd(_ acc: UnsafeMutablePointer<Float>, _ src: UnsafePointer<Float>, _ w: Float, _ n: Int) {
    for i in 0..<n { acc[i] += w * src[i] }
}
