import CLuxKernels
import LuxPixels

/// Reads spans of display-referred RGB rows as planar floats (0…1 for integer formats), for exposure fusion.
struct DisplayRowReader: @unchecked Sendable {
    // @unchecked: holds the frame's memory pointer only while `buffer` (kept here) is alive.
    let buffer: PixelBuffer
    let plane: RawPlane

    /// The formats read without converting whole rows.
    static let directFormats: [PixelFormat] = [.rgba8, .bgra8, .rgba16, .rgbaHalf, .rgbaFloat]

    init(_ buffer: PixelBuffer) {
        self.buffer = buffer
        plane = buffer.withUnsafePlane(0) { $0 }
    }

    /// Floats of scratch ``read(row:x0:x1:r:g:b:scratch:)`` needs.
    var scratchCount: Int { 4 * buffer.width + 16 }

    /// Reads pixels `x0..<x1` of row `y` into `r`, `g`, `b` (indexed from 0).
    @inline(__always)
    func read(
        row y: Int, x0: Int, x1: Int, r: UnsafeMutablePointer<Float>, g: UnsafeMutablePointer<Float>,
        b: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>
    ) {
        let n = x1 - x0
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
