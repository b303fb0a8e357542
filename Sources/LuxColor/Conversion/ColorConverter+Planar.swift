internal import CLuxKernels

extension ColorConverter {
    /// Converts `count` interleaved 8-bit RGBA pixels into four planes of `Float` in the destination space.
    ///
    /// Decoding goes through the 256-entry table (no transfer-function arithmetic per value), then the
    /// matrix and the destination curve. Alpha is `code / 255`. The render engine uses this to load 8-bit
    /// sources straight into its working space.
    public func convert(
        rgba8 src: UnsafePointer<UInt8>, red r: UnsafeMutablePointer<Float>, green g: UnsafeMutablePointer<Float>,
        blue b: UnsafeMutablePointer<Float>, alpha a: UnsafeMutablePointer<Float>, count n: Int
    ) {
        decode8.withUnsafeBufferPointer { dec in
            Self.lookup8(src, dec.baseAddress!, r, g, b, n, grayReplicate: sourceIsGray)
        }
        Self.alpha8(src, a, n)
        runMiddle(r, g, b, n)
        if !destinationIsLab {
            encode.apply(r, n)
            encode.apply(g, n)
            encode.apply(b, n)
        }
    }

    /// Converts four planes of `Float` (in the source space) into `count` interleaved 8-bit RGBA pixels in
    /// the destination space, overwriting the planes.
    ///
    /// Encoding goes through the 16-bit-precision table of ``convert(rgba8:into:count:)`` (within 0.06
    /// levels of the exact conversion before rounding); alpha is rounded from its plane. The render
    /// engine uses this to store 8-bit output.
    public func convert(
        red r: UnsafeMutablePointer<Float>, green g: UnsafeMutablePointer<Float>, blue b: UnsafeMutablePointer<Float>,
        alpha a: UnsafePointer<Float>, rgba8 dst: UnsafeMutablePointer<UInt8>, count n: Int
    ) {
        if sourceIsGray {
            g.update(from: r, count: n)
            b.update(from: r, count: n)
        }
        if !sourceIsLab {
            decode.apply(r, n)
            decode.apply(g, n)
            decode.apply(b, n)
        }
        runMiddle(r, g, b, n)
        encodeTable16.withUnsafeBufferPointer { enc in
            Self.encode8(r, g, b, alpha: a, dst, enc.baseAddress!, n)
        }
    }

    @inline(never)
    static func alpha8(_ s: UnsafePointer<UInt8>, _ a: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n { a[i] = Float(s[4 * i + 3]) * (1 / 255) }
    }

    static func encode8(
        _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>,
        alpha a: UnsafePointer<Float>, _ d: UnsafeMutablePointer<UInt8>, _ table: UnsafePointer<UInt8>, _ n: Int
    ) {
        lux_planar_to_rgba8_table(r, g, b, a, table, d, n)
    }

}
