import CLuxKernels
import LuxRender

/// Reading processor input rows in whichever working format the engine chose.
enum ProcessorRows {
    /// Converts `count` pixels of row `j` of `input`, starting at column `x`, into `planes` (3 or 4) consecutive
    /// float planes of `stride` floats at `out`.
    ///
    /// With three planes alpha is dropped.
    static func load(
        _ input: ImageProcessorInput, row j: Int, x: Int = 0, count n: Int, into out: UnsafeMutablePointer<Float>,
        stride: Int, planes: Int
    ) {
        let r = out
        let g = out + stride
        let b = out + 2 * stride
        let a = out + 3 * stride
        switch input.format {
        case .rgbaHalf:
            let s = input.row(j, as: UInt16.self) + 4 * x
            if planes == 4 {
                lux_half4_to_planar(s, r, g, b, a, n)
            } else {
                withUnsafeTemporaryAllocation(of: Float.self, capacity: n) { alpha in
                    lux_half4_to_planar(s, r, g, b, alpha.baseAddress!, n)
                }
            }
        case .rgbaFloat:
            let s = input.row(j, as: Float.self) + 4 * x
            deinterleave(s, n, r, g, b, planes == 4 ? a : nil)
        case .rgba8, .bgra8:
            let s = input.row(j, as: UInt8.self) + 4 * x
            let swap = input.format == .bgra8
            load8(s, n, swap ? b : r, g, swap ? r : b, planes == 4 ? a : nil)
        default:
            preconditionFailure("processor input format \(input.format) is not read here")
        }
    }

    /// Converts row `j` of `input` into `4 · width` interleaved RGBA floats at `out`.
    static func loadInterleaved(_ input: ImageProcessorInput, row j: Int, into out: UnsafeMutablePointer<Float>) {
        let n = input.width
        switch input.format {
        case .rgbaHalf: lux_half_to_float(input.row(j, as: UInt16.self), out, 4 * n)
        case .rgbaFloat: out.update(from: input.row(j, as: Float.self), count: 4 * n)
        case .rgba8: scale8(input.row(j, as: UInt8.self), 4 * n, out)
        default: preconditionFailure("processor input format \(input.format) is not read here")
        }
    }

    @inline(never)
    static func scale8(_ s: UnsafePointer<UInt8>, _ n: Int, _ d: UnsafeMutablePointer<Float>) {
        for i in 0..<n { d[i] = Float(s[i]) * (1 / 255) }
    }

    /// Whether every alpha of the input region is exactly 1.
    static func isOpaque(_ input: ImageProcessorInput) -> Bool {
        let n = input.width
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * n) { tmp in
            let t = tmp.baseAddress!
            var acc: UInt32 = 0
            for j in 0..<input.height {
                load(input, row: j, count: n, into: t, stride: n, planes: 4)
                acc |= alphaBits(t + 3 * n, n)
            }
            return acc == 0
        }
    }

    @inline(never)
    static func alphaBits(_ a: UnsafePointer<Float>, _ n: Int) -> UInt32 {
        var acc: UInt32 = 0
        for i in 0..<n { acc |= a[i].bitPattern ^ 0x3F80_0000 }
        return acc
    }

    static func deinterleave(
        _ s: UnsafePointer<Float>, _ n: Int, _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>,
        _ b: UnsafeMutablePointer<Float>, _ a: UnsafeMutablePointer<Float>?
    ) {
        lux_float4_to_planar(s, r, g, b, a, n)
    }

    @inline(never)
    static func load8(
        _ s: UnsafePointer<UInt8>, _ n: Int, _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>,
        _ b: UnsafeMutablePointer<Float>, _ a: UnsafeMutablePointer<Float>?
    ) {
        let k: Float = 1 / 255
        for i in 0..<n {
            r[i] = Float(s[4 * i]) * k
            g[i] = Float(s[4 * i + 1]) * k
            b[i] = Float(s[4 * i + 2]) * k
        }
        if let a { for i in 0..<n { a[i] = Float(s[4 * i + 3]) * k } }
    }

    /// Joins planes (stride `stride`) into `n` interleaved RGBA floats; alpha 1 when `planes` is 3.
    static func interleave(
        _ s: UnsafePointer<Float>, _ stride: Int, _ n: Int, _ planes: Int, into d: UnsafeMutablePointer<Float>
    ) {
        lux_planar_to_float4(s, s + stride, s + 2 * stride, planes == 4 ? s + 3 * stride : nil, d, n)
    }
}
