internal import CLuxKernels

extension ColorConverter {
    /// Whether half rows encode through a table: the destination has a curve and clips to 0…1.
    var tabulatesHalfEncode: Bool { !destinationIsLab && encode.kind != .identity && encode.clamps }

    /// Converts half-float RGBA rows through the half tables.
    ///
    /// Decodes by table, runs the float matrix, then encodes either by table (clipping destinations) or
    /// in float followed by rounding to half. See ``HalfCurveTables``.
    func convertHalfRows(_ src: UnsafePointer<UInt16>, _ dst: UnsafeMutablePointer<UInt16>, _ count: Int) {
        if isIdentity && !decode.clamps && !encode.clamps {
            if UnsafePointer(dst) != src { dst.update(from: src, count: 4 * count) }
            return
        }
        let tabulated = tabulatesHalfEncode
        let tables = halfTables.tables {
            HalfCurveTables.make(decode: decode, skipDecode: sourceIsLab, encode: encode, tabulateEncode: tabulated)
        }
        tables.decode.withUnsafeBufferPointer { dec in
            tables.encode.withUnsafeBufferPointer { enc in
                withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * Self.chunk) { scratch in
                    withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 3 * Self.chunk) { halves in
                        let r = scratch.baseAddress!
                        let g = r + Self.chunk
                        let b = g + Self.chunk
                        let h = halves.baseAddress!
                        var start = 0
                        while start < count {
                            let n = min(Self.chunk, count - start)
                            let s = src + 4 * start
                            Self.lookupHalf(s, dec.baseAddress!, r, g, b, n, grayReplicate: sourceIsGray)
                            runMiddle(r, g, b, n)
                            if tabulated {
                                Self.scale(r, g, b, n, HalfCurveTables.encodeScale)
                            } else if !destinationIsLab {
                                encode.apply(r, n)
                                encode.apply(g, n)
                                encode.apply(b, n)
                            }
                            lux_float_to_half(r, h, n)
                            lux_float_to_half(g, h + n, n)
                            lux_float_to_half(b, h + 2 * n, n)
                            if tabulated {
                                Self.encodeHalf(h, s, dst + 4 * start, enc.baseAddress!, n)
                            } else {
                                Self.interleaveHalf(h, s, dst + 4 * start, n)
                            }
                            start += n
                        }
                    }
                }
            }
        }
    }

    @inline(never)
    static func lookupHalf(
        _ s: UnsafePointer<UInt16>, _ table: UnsafePointer<Float>, _ r: UnsafeMutablePointer<Float>,
        _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>, _ n: Int, grayReplicate: Bool
    ) {
        lookupPlanes(s, table, r, g, b, n, grayReplicate: grayReplicate)
    }

    /// Looks the R, G, B codes of interleaved RGBA pixels up in `table` into three planes.
    ///
    /// Gray sources put the first code into all three. Inlined into each concrete row function, so it
    /// specialises.
    @inline(__always)
    static func lookupPlanes<Code: FixedWidthInteger & UnsignedInteger>(
        _ s: UnsafePointer<Code>, _ table: UnsafePointer<Float>, _ r: UnsafeMutablePointer<Float>,
        _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>, _ n: Int, grayReplicate: Bool
    ) {
        if grayReplicate {
            for i in 0..<n {
                let v = table[Int(s[4 * i])]
                r[i] = v
                g[i] = v
                b[i] = v
            }
        } else {
            for i in 0..<n {
                r[i] = table[Int(s[4 * i])]
                g[i] = table[Int(s[4 * i + 1])]
                b[i] = table[Int(s[4 * i + 2])]
            }
        }
    }

    @inline(never)
    static func scale(
        _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>,
        _ n: Int, _ factor: Float
    ) {
        for i in 0..<n {
            r[i] *= factor
            g[i] *= factor
            b[i] *= factor
        }
    }

    /// Encodes three planes of scaled linear half bits (`h`, `h + n`, `h + 2n`) through `table` into
    /// interleaved RGBA, copying alpha from the source row `s`.
    @inline(never)
    static func encodeHalf(
        _ h: UnsafePointer<UInt16>, _ s: UnsafePointer<UInt16>, _ d: UnsafeMutablePointer<UInt16>,
        _ table: UnsafePointer<UInt16>, _ n: Int
    ) {
        for i in 0..<n {
            d[4 * i] = table[Int(h[i])]
            d[4 * i + 1] = table[Int(h[n + i])]
            d[4 * i + 2] = table[Int(h[2 * n + i])]
            d[4 * i + 3] = s[4 * i + 3]
        }
    }

    /// Interleaves three planes of half bits into RGBA, copying alpha from the source row `s`.
    @inline(never)
    static func interleaveHalf(
        _ h: UnsafePointer<UInt16>, _ s: UnsafePointer<UInt16>, _ d: UnsafeMutablePointer<UInt16>, _ n: Int
    ) {
        for i in 0..<n {
            d[4 * i] = h[i]
            d[4 * i + 1] = h[n + i]
            d[4 * i + 2] = h[2 * n + i]
            d[4 * i + 3] = s[4 * i + 3]
        }
    }
}
