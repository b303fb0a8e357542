import LuxPixels

/// Demosaics one rectangular region of a mosaic that is read on demand (a tile of a render, a band of a
/// buffer): reads the region plus the method's margin, reconstructs, and hands back the inner rows.
enum RegionDemosaic {
    /// Photosites of support a method needs around the region for a layout.
    static func margin(_ method: DemosaicMethod, _ layout: MosaicLayout) -> Int {
        guard case .xTrans = layout else { return method.margin }
        return method == .bilinear ? 2 : XTransDemosaic.margin
    }

    /// Floats of scratch memory for a region of `width × height` output pixels.
    static func scratchCount(method: DemosaicMethod, layout: MosaicLayout, width: Int, height: Int) -> Int {
        let m = margin(method, layout)
        let n = (width + 2 * m) * (height + 2 * m)
        if case .xTrans = layout {
            return 4 * n
                + (method == .bilinear ? 0 : XTransDemosaic.scratchCount(width: width + 2 * m, height: height + 2 * m))
        }
        switch method {
        case .bilinear: return 4 * n
        case .rcd:
            return 4 * n + RCDDemosaic.scratchCount(width: width + 2 * m, height: height + 2 * m, reusesMosaic: true)
        case .quality:
            // RCD's own scratch (reused by Menon's four planes), Menon's RGB and direction planes.
            let rcd = RCDDemosaic.scratchCount(width: width + 2 * m, height: height + 2 * m)
            return 4 * n + max(rcd, MenonDemosaic.scratchCount(width: width + 2 * m, height: height + 2 * m)) + 4 * n
        }
    }

    /// Reconstructs the region `x0..<x0+width`, `y0..<y0+height`.
    ///
    /// - Parameters:
    ///   - layout: the colour filter array at mosaic position (0, 0).
    ///   - read: fills a `w × h` block of mosaic values starting at `(x, y)` (any coordinates, including
    ///     outside the mosaic, where the reader reflects) into `dst` with the given row stride.
    ///   - emit: receives output row `j` (0-based) as red, green and blue pointers of `width` values.
    static func run(
        method: DemosaicMethod, layout: MosaicLayout, x0: Int, y0: Int, width: Int, height: Int,
        scratch: UnsafeMutablePointer<Float>,
        read: (_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ dst: UnsafeMutablePointer<Float>, _ stride: Int) -> Void,
        emit: (_ row: Int, _ red: UnsafePointer<Float>, _ green: UnsafePointer<Float>, _ blue: UnsafePointer<Float>) ->
            Void
    ) {
        let m = margin(method, layout)
        let px = x0 - m
        let py = y0 - m
        let pw = width + 2 * m
        let ph = height + 2 * m
        let n = pw * ph
        let mosaic = scratch
        let red = scratch + n
        let green = scratch + 2 * n
        let blue = scratch + 3 * n
        read(px, py, pw, ph, mosaic, pw)
        let out = RGBPlanes(red: red, green: green, blue: blue, rowStride: pw)
        guard case .bayer(let pattern) = layout else {
            let xTrans = layout.shifted(x: px, y: py)
            guard case .xTrans(let p) = xTrans else { return }
            if method == .bilinear {
                XTransDemosaic.bilinear(mosaic, width: pw, height: ph, pattern: p, into: out)
            } else {
                XTransDemosaic.run(mosaic, width: pw, height: ph, pattern: p, into: out, scratch: scratch + 4 * n)
            }
            for j in 0..<height {
                let o = (j + m) * pw + m
                emit(j, red + o, green + o, blue + o)
            }
            return
        }
        let cfa = CFAPlane(
            base: UnsafePointer(mosaic), width: pw, height: ph, rowStride: pw,
            pattern: pattern.shifted(x: px & 1, y: py & 1))
        if method == .rcd && RCDDemosaic.reconstructs(width: pw, height: ph) {
            // Only the inner rows and columns leave RCD's split rows, through three rows of the (spent) mosaic.
            RCDDemosaic.reconstruct(cfa, into: out, scratch: scratch + 4 * n, reusesMosaic: true)
            let rows = mosaic
            for j in 0..<height {
                let o = (j + m) * pw
                for k in 0..<3 {
                    RCDDemosaic.interleave(out.plane(k) + o, width: pw, from: m, count: width, into: rows + k * width)
                }
                emit(j, rows, rows + width, rows + 2 * width)
            }
            return
        }
        switch method {
        case .rcd: RCDDemosaic.run(cfa, into: out, scratch: scratch + 4 * n, reusesMosaic: true)
        case .bilinear: BilinearDemosaic.run(cfa, into: out)
        case .quality: runQuality(cfa, into: out, scratch: scratch + 4 * n)
        }
        for j in 0..<height {
            let o = (j + m) * pw + m
            emit(j, red + o, green + o, blue + o)
        }
    }

    /// ``DemosaicMethod/quality``: RCD and Menon's estimate averaged, then refined along Menon's direction.
    ///
    /// `scratch` holds what ``scratchCount(method:width:height:)`` counts beyond the mosaic and output planes.
    static func runQuality(_ cfa: CFAPlane, into out: RGBPlanes, scratch: UnsafeMutablePointer<Float>) {
        let w = cfa.width
        let h = cfa.height
        let n = w * h
        guard RCDDemosaic.reconstructs(width: w, height: h) else {
            BilinearDemosaic.run(cfa, into: out)
            return
        }
        let work = scratch
        let spare =
            scratch
            + max(
                RCDDemosaic.scratchCount(width: w, height: h), MenonDemosaic.scratchCount(width: w, height: h))
        let menon = RGBPlanes(red: spare, green: spare + n, blue: spare + 2 * n, rowStride: w)
        let direction = spare + 3 * n
        RCDDemosaic.run(cfa, into: out, scratch: work)
        MenonDemosaic.estimate(cfa, into: menon, direction: direction, scratch: work)
        for k in 0..<3 {
            let a = out.plane(k)
            let b = menon.plane(k)
            for i in 0..<n { a[i] = 0.5 * (a[i] + b[i]) }
        }
        MenonDemosaic.refine(cfa, out, direction: direction, scratch: work)
    }
}
