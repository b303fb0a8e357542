import CLuxKernels
import LuxColor
import LuxPixels

/// Reads spans of display-referred RGB rows as planar floats (0…1 for integer formats), for exposure fusion.
///
/// A reader either reads a frame's pixels as they are or renders an exposure of linear radiance on the fly
/// (``init(radiance:gain:display:)``), so a tone mapper can fuse synthetic exposures without storing them.
struct DisplayRowReader: @unchecked Sendable {
    // @unchecked: holds the frame's memory pointer only while `buffer` (kept here) is alive.
    let buffer: PixelBuffer
    let plane: RawPlane
    /// For a rendered exposure: the gain applied to the radiance before clipping to 0…1.
    let gain: Float
    /// For a rendered exposure: linear radiance (after gain and clipping) → display encoding.
    let display: ColorConverter?

    /// The formats read without converting whole rows.
    static let directFormats: [PixelFormat] = [.rgba8, .bgra8, .rgba16, .rgbaHalf, .rgbaFloat]

    /// Reads `buffer`'s pixels.
    init(_ buffer: PixelBuffer) {
        self.buffer = buffer
        plane = buffer.withUnsafePlane(0) { $0 }
        gain = 1
        display = nil
    }

    /// Reads `radiance` (``PixelFormat/rgbaFloat`` or ``PixelFormat/rgbaHalf``) times `gain`, clipped to 0…1 and
    /// converted by `display`: the exposure rendering a tone mapper fuses.
    init(radiance: PixelBuffer, gain: Float, display: ColorConverter) {
        precondition(radiance.format == .rgbaFloat || radiance.format == .rgbaHalf)
        buffer = radiance
        plane = radiance.withUnsafePlane(0) { $0 }
        self.gain = gain
        self.display = display
    }

    var width: Int { buffer.width }
    var height: Int { buffer.height }

    /// Floats of scratch ``read(row:x0:x1:r:g:b:scratch:)`` needs.
    var scratchCount: Int { 4 * buffer.width + 16 }

    /// Reads pixels `x0..<x1` of row `y` into `r`, `g`, `b` (indexed from 0).
    @inline(__always)
    func read(
        row y: Int, x0: Int, x1: Int, r: UnsafeMutablePointer<Float>, g: UnsafeMutablePointer<Float>,
        b: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>
    ) {
        let n = x1 - x0
        if let display {
            if buffer.format == .rgbaHalf {
                lux_half_to_float(plane.row(y, as: UInt16.self) + 4 * x0, scratch, 4 * n)
            } else {
                scratch.update(from: plane.row(y, as: Float.self) + 4 * x0, count: 4 * n)
            }
            let k = gain
            for i in 0..<n {
                r[i] = min(max(scratch[4 * i] * k, 0), 1)
                g[i] = min(max(scratch[4 * i + 1] * k, 0), 1)
                b[i] = min(max(scratch[4 * i + 2] * k, 0), 1)
            }
            display.convertInPlace(red: r, green: g, blue: b, count: n)
            return
        }
        switch buffer.format {
        case .rgba8, .bgra8:
            let s = plane.row(y, as: UInt8.self) + 4 * x0
            let (ri, bi) = buffer.format == .rgba8 ? (0, 2) : (2, 0)
            let k: Float = 1 / 255
            for i in 0..<n {
                r[i] = Float(s[4 * i + ri]) * k
                g[i] = Float(s[4 * i + 1]) * k
                b[i] = Float(s[4 * i + bi]) * k
            }
        case .rgba16:
            let s = plane.row(y, as: UInt16.self) + 4 * x0
            let k: Float = 1 / 65535
            for i in 0..<n {
                r[i] = Float(s[4 * i]) * k
                g[i] = Float(s[4 * i + 1]) * k
                b[i] = Float(s[4 * i + 2]) * k
            }
        case .rgbaHalf:
            lux_half_to_float(plane.row(y, as: UInt16.self) + 4 * x0, scratch, 4 * n)
            for i in 0..<n {
                r[i] = scratch[4 * i]
                g[i] = scratch[4 * i + 1]
                b[i] = scratch[4 * i + 2]
            }
        case .rgbaFloat:
            let s = plane.row(y, as: Float.self) + 4 * x0
            for i in 0..<n {
                r[i] = s[4 * i]
                g[i] = s[4 * i + 1]
                b[i] = s[4 * i + 2]
            }
        default:
            buffer.readRGBAFloat(row: y, into: scratch)
            let s = scratch + 4 * x0
            for i in 0..<n {
                r[i] = s[4 * i]
                g[i] = s[4 * i + 1]
                b[i] = s[4 * i + 2]
            }
        }
    }
}
