public import LuxPixels

extension DemosaicMethod {
    /// Demosaics a whole Bayer mosaic held in memory (the `lux demosaic` path and the quality benchmarks).
    ///
    /// See ``demosaic(_:layout:threads:)``; `pattern` is the Bayer layout at pixel (0, 0) and defaults to a Bayer
    /// format's own.
    ///
    /// - Throws: ``RAWError/unsupported(_:)`` for multi-channel buffers or a gray buffer without `pattern`.
    public func demosaic(_ mosaic: PixelBuffer, pattern: CFAPattern? = nil, threads: Int? = nil) throws(RAWError)
        -> PixelBuffer
    {
        try demosaic(mosaic, layout: pattern.map(MosaicLayout.bayer), threads: threads)
    }

    /// Demosaics a whole Bayer or X-Trans mosaic held in memory.
    ///
    /// Samples are read as stored and scaled to 0…1 by their format's range (`.gray8` /255, `.gray16`, `.bayer16`
    /// and `.xTrans16` /65535, `.bayer14` /16383, `.grayFloat` as is); beyond the edges photosites of the same
    /// colour phase stand in (``MosaicLayout/edge(_:_:)``). X-Trans mosaics are demosaiced by ``XTransDemosaic``
    /// (its plain interpolation for ``bilinear``). The result is `.rgbaFloat`, unclipped, with no colour space.
    ///
    /// - Parameters:
    ///   - mosaic: one sample per pixel.
    ///   - layout: the colour filter array at pixel (0, 0); defaults to a Bayer or X-Trans format's own.
    ///   - threads: worker threads (bands of rows).
    /// - Throws: ``RAWError/unsupported(_:)`` for multi-channel buffers or a gray buffer without `layout`.
    /// - Complexity: O(width × height).
    public func demosaic(_ mosaic: PixelBuffer, layout: MosaicLayout?, threads: Int? = nil) throws(RAWError)
        -> PixelBuffer
    {
        let format = mosaic.format
        guard format.channelCount == 1, mosaic.planeCount == 1 else {
            throw .unsupported("mosaic format \(format); expected one sample per pixel")
        }
        let own = format.cfaPattern.map(MosaicLayout.bayer) ?? format.xTransPattern.map(MosaicLayout.xTrans)
        guard let layout = layout ?? own else {
            throw .unsupported("a gray mosaic without a colour filter array layout (pass layout:)")
        }
        let scale: Float
        switch format {
        case .gray8: scale = 1 / 255
        case .bayer14: scale = 1 / 16383
        case .grayFloat: scale = 1
        default: scale = 1 / 65535
        }
        let w = mosaic.width
        let h = mosaic.height
        let out = PixelBuffer(width: w, height: h, format: .rgbaFloat)
        let dst = out.unsafeSharedMutablePlane()
        let method = self
        let bandRows = 128
        let bands = (h + bandRows - 1) / bandRows
        mosaic.withUnsafePlane { src in
            Parallel.forEachBand(
                bands, threads: threads ?? Parallel.defaultThreadCount, minimumBand: 1, bandsPerThread: 4
            ) { range in
                let count = RegionDemosaic.scratchCount(method: method, layout: layout, width: w, height: bandRows)
                let scratch = UnsafeMutablePointer<Float>.allocate(capacity: count)
                defer { scratch.deallocate() }
                for band in range {
                    let y0 = band * bandRows
                    let bh = min(bandRows, h - y0)
                    RegionDemosaic.run(
                        method: method, layout: layout, x0: 0, y0: y0, width: w, height: bh, scratch: scratch,
                        read: { x, y, rw, rh, d, stride in
                            for j in 0..<rh {
                                let sy = layout.edge(y + j, h)
                                for i in 0..<rw {
                                    let sx = layout.edge(x + i, w)
                                    let v: Float
                                    switch format {
                                    case .gray8: v = Float(src.row(sy, as: UInt8.self)[sx])
                                    case .grayFloat: v = src.row(sy, as: Float.self)[sx]
                                    default: v = Float(src.row(sy, as: UInt16.self)[sx])
                                    }
                                    d[j * stride + i] = v * scale
                                }
                            }
                        },
                        emit: { j, r, g, b in
                            let row = dst.row(y0 + j, as: Float.self)
                            for i in 0..<w {
                                row[4 * i] = r[i]
                                row[4 * i + 1] = g[i]
                                row[4 * i + 2] = b[i]
                                row[4 * i + 3] = 1
                            }
                        })
                }
            }
        }
        withExtendedLifetime(out) {}
        return out
    }
}
