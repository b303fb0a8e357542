import CLuxKernels
import LuxPixels

/// Writes planar R, G, B rows into an RGBA row of a float, half or 16-bit format (alpha 1).
enum RGBRowWriter {
    /// Interleaves `count` pixels into `row`; `scratch` holds at least `4·count` floats.
    static func write(
        r: UnsafePointer<Float>, g: UnsafePointer<Float>, b: UnsafePointer<Float>, count: Int, format: PixelFormat,
        row: UnsafeMutableRawPointer, scratch: UnsafeMutablePointer<Float>
    ) {
        switch format {
        case .rgbaFloat:
            let d = row.assumingMemoryBound(to: Float.self)
            for x in 0..<count {
                d[4 * x] = r[x]
                d[4 * x + 1] = g[x]
                d[4 * x + 2] = b[x]
                d[4 * x + 3] = 1
            }
        case .rgbaHalf:
            for x in 0..<count {
                scratch[4 * x] = r[x]
                scratch[4 * x + 1] = g[x]
                scratch[4 * x + 2] = b[x]
                scratch[4 * x + 3] = 1
            }
            lux_float_to_half(scratch, row.assumingMemoryBound(to: UInt16.self), 4 * count)
        case .rgba16:
            let d = row.assumingMemoryBound(to: UInt16.self)
            for x in 0..<count {
                d[4 * x] = MergeKernel.code(r[x] * 65535)
                d[4 * x + 1] = MergeKernel.code(g[x] * 65535)
                d[4 * x + 2] = MergeKernel.code(b[x] * 65535)
                d[4 * x + 3] = 65535
            }
        case .rgba8:
            let d = row.assumingMemoryBound(to: UInt8.self)
            for x in 0..<count {
                d[4 * x] = UInt8(truncatingIfNeeded: Int(min(max(r[x], 0), 1) * 255 + 0.5))
                d[4 * x + 1] = UInt8(truncatingIfNeeded: Int(min(max(g[x], 0), 1) * 255 + 0.5))
                d[4 * x + 2] = UInt8(truncatingIfNeeded: Int(min(max(b[x], 0), 1) * 255 + 0.5))
                d[4 * x + 3] = 255
            }
        default:
            preconditionFailure("RGBRowWriter cannot write \(format)")
        }
    }
}
