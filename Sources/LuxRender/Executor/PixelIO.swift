import CLuxKernels
import LuxPixels

/// Row conversions between stored pixel formats and the planar `Float` rows programs compute on.
///
/// Each function handles one format with a plain loop over pointers (vectorised by LLVM); half floats go
/// through the runtime-dispatched F16C helpers of CLuxKernels.
enum PixelIO {
    /// Formats ``load(_:from:count:into:scratch:)`` reads.
    static let loadable: Set<PixelFormat> = [.rgba8, .bgra8, .rgba16, .rgbaHalf, .rgbaFloat, .gray8, .grayFloat]
    /// Formats ``store(_:count:format:to:scratch:)`` writes.
    static let storable: Set<PixelFormat> = [.rgba8, .bgra8, .rgba16, .rgbaHalf, .rgbaFloat]

    /// Reads `n` pixels of `format` at `src` into planes.
    ///
    /// `scratch` holds at least `4 n` floats.
    static func load(
        _ format: PixelFormat, from src: UnsafeRawPointer, count n: Int, into d: PlanarPixels,
        scratch: UnsafeMutablePointer<Float>
    ) {
        switch format {
        case .rgbaFloat: deinterleave(src.assumingMemoryBound(to: Float.self), n, d)
        case .rgbaHalf:
            lux_half4_to_planar(src.assumingMemoryBound(to: UInt16.self), d.red, d.green, d.blue, d.alpha, n)
        case .rgba8: load8(src.assumingMemoryBound(to: UInt8.self), n, d, swap: false)
        case .bgra8: load8(src.assumingMemoryBound(to: UInt8.self), n, d, swap: true)
        case .rgba16: load16(src.assumingMemoryBound(to: UInt16.self), n, d)
        case .gray8: loadGray8(src.assumingMemoryBound(to: UInt8.self), n, d)
        case .grayFloat: loadGrayFloat(src.assumingMemoryBound(to: Float.self), n, d)
        default: preconditionFailure("no row loader for \(format)")
        }
    }

    /// Writes `n` planar pixels to `dst` in `format`.
    ///
    /// `scratch` holds at least `4 n` floats.
    static func store(
        _ s: PlanarPixels, count n: Int, format: PixelFormat, to dst: UnsafeMutableRawPointer,
        scratch: UnsafeMutablePointer<Float>, streaming: Bool = false
    ) {
        switch format {
        case .rgbaFloat: interleave(s, n, dst.assumingMemoryBound(to: Float.self))
        case .rgbaHalf:
            if streaming {
                lux_planar_to_half4_streaming(
                    s.red, s.green, s.blue, s.alpha, dst.assumingMemoryBound(to: UInt16.self), n)
            } else {
                lux_planar_to_half4(s.red, s.green, s.blue, s.alpha, dst.assumingMemoryBound(to: UInt16.self), n)
            }
        case .rgba8: store8(s, n, dst.assumingMemoryBound(to: UInt8.self), swap: false)
        case .bgra8: store8(s, n, dst.assumingMemoryBound(to: UInt8.self), swap: true)
        case .rgba16: store16(s, n, dst.assumingMemoryBound(to: UInt16.self))
        default: preconditionFailure("no row writer for \(format)")
        }
    }

    /// Rounds planar values to the precision of `format` (what storing and reloading would give).
    static func quantize(_ p: PlanarPixels, count n: Int, to format: PixelFormat, scratch: UnsafeMutablePointer<Float>)
    {
        switch format {
        case .rgbaHalf:
            let h = UnsafeMutableRawPointer(scratch).assumingMemoryBound(to: UInt16.self)
            for plane in [p.red, p.green, p.blue, p.alpha] {
                lux_float_to_half(plane, h, n)
                lux_half_to_float(h, plane, n)
            }
        case .rgba8:
            for plane in [p.red, p.green, p.blue, p.alpha] { quantize8(plane, n) }
        default: break
        }
    }

    @inline(__always)
    static func deinterleave(_ s: UnsafePointer<Float>, _ n: Int, _ d: PlanarPixels) {
        lux_float4_to_planar(s, d.red, d.green, d.blue, d.alpha, n)
    }

    @inline(__always)
    static func interleave(_ s: PlanarPixels, _ n: Int, _ d: UnsafeMutablePointer<Float>) {
        lux_planar_to_float4(s.red, s.green, s.blue, s.alpha, d, n)
    }

    @inline(never)
    static func load8(_ s: UnsafePointer<UInt8>, _ n: Int, _ d: PlanarPixels, swap: Bool) {
        lux_rgba8_to_planar(s, swap ? d.blue : d.red, d.green, swap ? d.red : d.blue, d.alpha, n)
    }

    @inline(never)
    static func load16(_ s: UnsafePointer<UInt16>, _ n: Int, _ d: PlanarPixels) { loadCodes(s, n, d, swap: false) }

    /// Integer RGBA codes (0…max) to planar values 0…1; `swap` exchanges red and blue (BGRA).
    @inline(__always)
    static func loadCodes<Code: FixedWidthInteger & UnsignedInteger>(
        _ s: UnsafePointer<Code>, _ n: Int, _ d: PlanarPixels, swap: Bool
    ) {
        let r = swap ? d.blue : d.red
        let g = d.green
        let b = swap ? d.red : d.blue
        let a = d.alpha
        let k = 1 / Float(Code.max)
        for i in 0..<n {
            r[i] = Float(s[4 * i]) * k
            g[i] = Float(s[4 * i + 1]) * k
            b[i] = Float(s[4 * i + 2]) * k
            a[i] = Float(s[4 * i + 3]) * k
        }
    }

    @inline(never)
    static func loadGray8(_ s: UnsafePointer<UInt8>, _ n: Int, _ d: PlanarPixels) {
        let r = d.red
        let g = d.green
        let b = d.blue
        let a = d.alpha
        for i in 0..<n {
            let v = Float(s[i]) * (1 / 255)
            r[i] = v
            g[i] = v
            b[i] = v
            a[i] = 1
        }
    }

    @inline(never)
    static func loadGrayFloat(_ s: UnsafePointer<Float>, _ n: Int, _ d: PlanarPixels) {
        let r = d.red
        let g = d.green
        let b = d.blue
        let a = d.alpha
        for i in 0..<n {
            let v = s[i]
            r[i] = v
            g[i] = v
            b[i] = v
            a[i] = 1
        }
    }

    /// round(clamp(v, 0, 1) · max), NaN → 0, via the 1.5·2^23 trick (round half to even, no trapping).
    @inline(__always)
    static func code<Code: FixedWidthInteger & UnsignedInteger>(_ v: Float, as: Code.Type) -> Code {
        let c = v > 0 ? (v < 1 ? v : 1) : 0
        return Code(truncatingIfNeeded: (c * Float(Code.max) + 12_582_912).bitPattern)
    }

    @inline(__always)
    static func code8(_ v: Float) -> UInt8 { code(v, as: UInt8.self) }

    @inline(never)
    static func store8(_ s: PlanarPixels, _ n: Int, _ d: UnsafeMutablePointer<UInt8>, swap: Bool) {
        lux_planar_to_rgba8(swap ? s.blue : s.red, s.green, swap ? s.red : s.blue, s.alpha, d, n)
    }

    @inline(never)
    static func store16(_ s: PlanarPixels, _ n: Int, _ d: UnsafeMutablePointer<UInt16>) {
        storeCodes(s, n, d, swap: false)
    }

    /// Planar values to rounded, clipped integer RGBA codes; `swap` exchanges red and blue (BGRA).
    @inline(__always)
    static func storeCodes<Code: FixedWidthInteger & UnsignedInteger>(
        _ s: PlanarPixels, _ n: Int, _ d: UnsafeMutablePointer<Code>, swap: Bool
    ) {
        let r = swap ? s.blue : s.red
        let g = s.green
        let b = swap ? s.red : s.blue
        let a = s.alpha
        for i in 0..<n {
            d[4 * i] = code(r[i], as: Code.self)
            d[4 * i + 1] = code(g[i], as: Code.self)
            d[4 * i + 2] = code(b[i], as: Code.self)
            d[4 * i + 3] = code(a[i], as: Code.self)
        }
    }

    @inline(never)
    static func quantize8(_ p: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n { p[i] = Float(code8(p[i])) * (1 / 255) }
    }
}
