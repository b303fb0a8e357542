import CLuxKernels
import LuxPixels
import LuxRender
import RealModule

/// The shared body of the black-and-white halftone screens (line, dot, circular, hatched).
///
/// The output grey is `clamp(½ + (L − s)/(1 − sharpness), 0, 1)`, where `L` is the Rec. 709 luminance of the
/// (unpremultiplied, working-space) input clamped to 0…1 and `s` the screen's value, 0…1, at the pixel centre:
/// bright areas keep little of the screen's dark shape, dark areas much.
enum HalftoneScreen {
    /// The screen frame: coordinates `(u, v)` of a pixel centre, in periods, from `center` along `angle` and
    /// across it.
    struct Frame: Sendable {
        let cx: Float
        let cy: Float
        let ux: Float
        let uy: Float

        init(center: Point, angle: Double, width: Double) {
            cx = Float(center.x)
            cy = Float(center.y)
            let period = max(width, 0.01)
            ux = Float(Double.cos(angle) / period)
            uy = Float(Double.sin(angle) / period)
        }

        func coordinates(_ x: Float, _ y: Float) -> (u: Float, v: Float) {
            let dx = x - cx
            let dy = y - cy
            return (dx * ux + dy * uy, -dx * uy + dy * ux)
        }
    }

    /// The screens' shapes: the screen value from the frame coordinates `(u, v)` of a pixel centre, with
    /// wave(t) = ½ + ½·cos(2π·t) (the C kernel `lux_cos_wave`, a row at a time).
    enum Shape: Sendable {
        /// Lines across `u`: wave(u).
        case lines
        /// Dots: wave(u)/2 + wave(v)/2.
        case dots
        /// Rings around the centre: wave(√(u² + v²)).
        case rings
        /// Crossed lines: max(wave(u), wave(v)).
        case hatches

        /// The screen values of the centres of pixels `x..<x + count` of a row whose centre is at `y`, into `out`;
        /// `scratch` holds `count` floats.
        func values(
            _ frame: Frame, x: Int, y: Float, count: Int, into out: UnsafeMutablePointer<Float>,
            scratch: UnsafeMutablePointer<Float>
        ) {
            switch self {
            case .lines:
                for i in 0..<count { out[i] = frame.coordinates(Float(x + i) + 0.5, y).u }
                lux_cos_wave(out, out, count)
            case .dots, .hatches:
                for i in 0..<count { (out[i], scratch[i]) = frame.coordinates(Float(x + i) + 0.5, y) }
                lux_cos_wave(out, out, count)
                lux_cos_wave(scratch, scratch, count)
                if case .dots = self {
                    for i in 0..<count { out[i] = out[i] / 2 + scratch[i] / 2 }
                } else {
                    for i in 0..<count { out[i] = max(out[i], scratch[i]) }
                }
            case .rings:
                for i in 0..<count {
                    let (u, v) = frame.coordinates(Float(x + i) + 0.5, y)
                    out[i] = (u * u + v * v).squareRoot()
                }
                lux_cos_wave(out, out, count)
            }
        }
    }

    /// The halftone of `image` with the screen `shape` in `frame`, a row at a time.
    static func apply(
        _ image: Image, name: String, arguments: String, sharpness: Double, frame: Frame, shape: Shape
    ) -> Image {
        let gain = 1 / max(Float(1 - sharpness), 1e-3)
        let kernel = ColorKernel(name: name, alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            let n = row.count
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * n) { screen in
                let s = screen.baseAddress!
                shape.values(frame, x: row.x, y: Float(row.y) + 0.5, count: n, into: s, scratch: s + n)
                for i in 0..<n {
                    let luma = 0.2126 * p.red[i] + 0.7152 * p.green[i] + 0.0722 * p.blue[i]
                    let l = min(max(luma, 0), 1)
                    let v = min(max(0.5 + (l - s[i]) * gain, 0), 1)
                    p.red[i] = v
                    p.green[i] = v
                    p.blue[i] = v
                }
            }
        }
        return image.applying(kernel, arguments: arguments)
    }
}
