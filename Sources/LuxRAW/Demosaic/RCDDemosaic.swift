import CLuxKernels

/// Ratio Corrected Demosaicing (Sanz Rodríguez, 2017), as in RawTherapee and darktable.
///
/// 1. Direction: a 6th-order vertical and horizontal high-pass on the raw samples, squared and summed over
///    three taps, gives the local "verticalness" `V/(V+H)`.
/// 2. Green at red/blue sites: the four cardinal neighbours, each corrected by the *ratio* of a low-pass
///    (1-2-1 ⊗ 1-2-1) of the mosaic at the site and two photosites away, weighted by inverse gradients, then
///    blended vertically/horizontally by the (neighbourhood-refined) direction.
/// 3. Red at blue sites and blue at red sites: diagonal colour differences blended by a diagonal direction
///    statistic; red and blue at green sites: cardinal colour differences blended by the V/H direction.
///
/// 4. Refinement (Menon, Andriani & Calvagno 2007, "a posteriori" refining step): green at red/blue sites
///    re-estimated from 3-tap means of the colour differences along the (soft) RCD direction, then red/blue at
///    green sites from 2-tap colour differences, then red at blue sites and blue at red sites from 3-tap
///    means of R − B. On the skimage set this adds 0.8 dB (35.68 → 36.5 dB CPSNR; Menon 2007 alone 35.70).
///
/// The result is valid ``margin`` photosites inside the plane's edges; callers pad the mosaic by reflection
/// about the edge (which keeps the colour phase) so every output pixel has full support.
///
/// Every step after the V/H direction fills the sites of one column parity per row (green sites, or red/blue
/// ones). To compute only those with contiguous loops, the planes are held in *split rows* while RCD runs:
/// each row stores its even columns, then its odd columns (see ``SiteRow``). The mosaic is split on entry and
/// the output planes are interleaved back on exit.
enum RCDDemosaic {
    /// Photosites of support needed on every side of an output pixel.
    static let margin = 13

    /// Floats of scratch memory ``run(_:into:scratch:reusesMosaic:)`` (or ``reconstruct(_:into:scratch:reusesMosaic:)``) needs for a plane of `width × height`.
    static func scratchCount(width: Int, height: Int, reusesMosaic: Bool = false) -> Int {
        (reusesMosaic ? 3 : 4) * width * height + 2 * width + 64
    }

    /// Demosaics the whole plane; output pixels closer than ``margin`` to an edge are not reconstructed (they hold
    /// the photosite's sample in all three planes).
    ///
    /// `out` planes are `cfa.width × cfa.height` with their own row stride. With `reusesMosaic` the mosaic must
    /// be dense (`rowStride == width`) and writable: it is used as working memory instead of a copy, and its
    /// contents are lost.
    static func run(
        _ cfa: CFAPlane, into out: RGBPlanes, scratch: UnsafeMutablePointer<Float>, reusesMosaic: Bool = false
    ) {
        guard reconstructs(width: cfa.width, height: cfa.height) else {
            BilinearDemosaic.run(cfa, into: out)
            return
        }
        reconstruct(cfa, into: out, scratch: scratch, reusesMosaic: reusesMosaic)
        let w = cfa.width
        let os = out.rowStride
        let rowTmp = scratch  // all of the scratch is spent once the reconstruction is done
        for k in 0..<3 {
            let plane = out.plane(k)
            for y in 0..<cfa.height {
                rowTmp.update(from: plane + y * os, count: w)
                interleave(rowTmp, width: w, from: 0, count: w, into: plane + y * os)
            }
        }
    }

    /// Whether a plane of `width × height` is large enough for RCD (smaller ones are demosaiced bilinearly).
    static func reconstructs(width: Int, height: Int) -> Bool {
        width > 2 * margin + 2 && height > 2 * margin + 2
    }

    /// ``run(_:into:scratch:reusesMosaic:)`` without its last pass: the output planes are left in split rows, for a
    /// caller that takes only some of their rows and columns out with ``interleave(_:width:from:count:into:)``.
    ///
    /// - Precondition: ``reconstructs(width:height:)``.
    @inline(never)
    static func reconstruct(
        _ cfa: CFAPlane, into out: RGBPlanes, scratch: UnsafeMutablePointer<Float>, reusesMosaic: Bool = false
    ) {
        let w = cfa.width
        let h = cfa.height
        precondition(reconstructs(width: w, height: h), "the plane is too small for RCD")
        let n = w * h
        // Scratch planes (row stride `w`): the mosaic copied in split rows, the soft V/H direction, the low-pass at
        // red/blue sites (then the P/Q diagonal direction), and a plane for the rings of rows of steps 1 and 4.1.
        // All of them, and the output planes, hold split rows until the end.
        let reuse = reusesMosaic && cfa.rowStride == w
        let c = reuse ? UnsafeMutablePointer(mutating: cfa.base) : scratch
        let planes = reuse ? scratch : scratch + n
        let disc = planes
        let lpf = planes + n
        let rings = planes + 2 * n
        let rowTmp = planes + 3 * n
        for y in 0..<h {
            if reuse {
                rowTmp.update(from: c + y * w, count: w)
                split(rowTmp, into: c + y * w, w)
            } else {
                split(cfa.row(y), into: c + y * w, w)
            }
        }
        let gp = cfa.greenParity
        let redRow = cfa.redRow
        let epssq: Float = 1e-10
        /// Row `y` of a plane of row stride `stride`, seen from the sites of column parity `parity`.
        func siteRow(_ plane: UnsafeMutablePointer<Float>, _ y: Int, _ stride: Int, _ parity: Int) -> SiteRow {
            SiteRow(plane + y * stride, parity: parity, width: w)
        }
        /// The sites of column parity `parity` among the columns `x0..<x1`.
        func sites(_ x0: Int, _ x1: Int, _ parity: Int) -> Range<Int> {
            ((x0 - parity + 1) >> 1)..<((x1 - parity + 1) >> 1)
        }

        // Step 1: vertical/horizontal direction, at every site. The squared high-pass of three consecutive rows
        // (vertical) is kept in a ring of three rows inside the `rings` plane, the horizontal one per row in a
        // fourth, and the V/H statistic of three consecutive rows in a ring of three more. Every step reads it
        // through the soft direction at a site (``discrimination(_:_:_:_:)``), so that is what the `disc` plane
        // keeps, computed once per site.
        let ring = rings
        let hRow = rings + 3 * w
        let vhRing = rings + 4 * w
        func verticalHPF(_ y: Int, into dst: UnsafeMutablePointer<Float>) {
            lux_rcd_vertical_hpf(c + y * w, w, dst, 0, w)
        }
        verticalHPF(3, into: ring)
        verticalHPF(4, into: ring + w)
        for y in 4..<(h - 4) {
            verticalHPF(y + 1, into: ring + ((y + 1) % 3) * w)
            for q in 0..<2 {
                horizontalHPFRow(siteRow(c, y, w, q), siteRow(hRow, 0, w, q).same, sites(3, w - 3, q))
            }
            let r0 = ring + ((y - 1) % 3) * w
            let r1 = ring + (y % 3) * w
            let r2 = ring + ((y + 1) % 3) * w
            for q in 0..<2 {
                let o = siteRow(hRow, 0, w, q).same - hRow
                directionRow(
                    r0 + o, r1 + o, r2 + o, siteRow(hRow, 0, w, q), vhRing + (y % 3) * w + o, sites(4, w - 4, q), epssq)
            }
            // The soft direction of the row above, now that the V/H statistic of its neighbours is known.
            let yd = y - 1
            guard yd >= 5, yd < h - 5 else { continue }
            for q in 0..<2 {
                discriminationRow(
                    siteRow(vhRing, (yd - 1) % 3, w, q), siteRow(vhRing, yd % 3, w, q).same,
                    siteRow(vhRing, (yd + 1) % 3, w, q), siteRow(disc, yd, w, q).same, sites(5, w - 5, q))
            }
        }

        // Step 2: low-pass of the mosaic at red/blue sites (the only ones step 3 reads).
        for y in 3..<(h - 3) {
            let q = (gp ^ y ^ 1) & 1
            lowPassRow(siteRow(c, y, w, q), siteRow(lpf, y, w, q).same, sites(3, w - 3, q), w)
        }

        // The samples into their own planes (and, in the frame RCD does not reach, into all three).
        let red = out.red
        let green = out.green
        let blue = out.blue
        let os = out.rowStride
        seed(c, width: w, height: h, redRow: redRow, into: out)

        // Step 3: green at red and blue sites.
        for y in 5..<(h - 5) {
            let q = (gp ^ y ^ 1) & 1
            greenRow(
                siteRow(c, y, w, q), siteRow(lpf, y, w, q).same, siteRow(disc, y, w, q).same,
                siteRow(green, y, os, q).same,
                sites(5, w - 5, q), w)
        }

        // Step 4.1–4.2: diagonal direction at red/blue sites (P = NW–SE, Q = NE–SW; the diagonal neighbours of a
        // red/blue site are red/blue sites). The squared high-passes of three consecutive rows are kept in two
        // rings of three rows inside the `rings` plane, and the direction goes into the low-pass plane (step 3
        // was its last reader).
        let pRing = rings
        let qRing = rings + 3 * w
        let dirPQ = lpf
        for y in 3..<(h - 3) {
            let q = (gp ^ y ^ 1) & 1
            diagonalHPFRow(
                siteRow(c, y, w, q), siteRow(pRing, y % 3, w, q).same, siteRow(qRing, y % 3, w, q).same,
                sites(3, w - 3, q), w)
            // The direction of the row above, now that the high-passes of its neighbours are known.
            let yd = y - 1
            guard yd >= 4, yd < h - 4 else { continue }
            let qd = q ^ 1
            diagonalDirectionRow(
                siteRow(pRing, (yd - 1) % 3, w, qd), siteRow(pRing, yd % 3, w, qd).same, siteRow(pRing, y % 3, w, qd),
                siteRow(qRing, (yd - 1) % 3, w, qd), siteRow(qRing, yd % 3, w, qd).same, siteRow(qRing, y % 3, w, qd),
                siteRow(dirPQ, yd, w, qd).same, sites(4, w - 4, qd), epssq)
        }

        // Step 4.3: red at blue sites and blue at red sites.
        for y in 7..<(h - 7) {
            let q = (gp ^ y ^ 1) & 1
            // At a red site the missing colour is blue, and vice versa.
            let missing = (y & 1) == redRow ? blue : red
            diagonalColorRow(
                siteRow(missing, y, os, q), siteRow(green, y, os, q), siteRow(dirPQ, y, w, q), sites(7, w - 7, q), os, w
            )
        }

        // Step 4.4: red and blue at green sites.
        for y in 10..<(h - 10) {
            let q = (gp ^ y) & 1
            cardinalColorRow(
                siteRow(red, y, os, q), siteRow(blue, y, os, q), siteRow(green, y, os, q), siteRow(disc, y, w, q).same,
                sites(10, w - 10, q), os)
        }
        refine(out, disc: disc, width: w, height: h, greenParity: gp, redRow: redRow)
    }

    /// One row of a plane in split layout (its even columns, then its odd ones), seen from the sites of one parity.
    ///
    /// `same[i]` is column `2i + parity`, and `other[i + k]` is column `2i + parity + 2k + 1` (so column
    /// `x − 1` of site `i` is `other[i − 1]`, `x + 1` is `other[i]`). Rows above and below are `± rowStride` away
    /// in both.
    struct SiteRow {
        let same: UnsafeMutablePointer<Float>
        let other: UnsafeMutablePointer<Float>

        init(_ row: UnsafeMutablePointer<Float>, parity: Int, width: Int) {
            let evens = (width + 1) >> 1
            same = parity == 0 ? row : row + evens
            other = parity == 0 ? row + evens : row + 1
        }
    }

    /// Row `p` of `w` columns as its even columns, then its odd ones, into `d` (in C: `lux_rcd_split`).
    @inline(never)
    static func split(_ p: UnsafePointer<Float>, into d: UnsafeMutablePointer<Float>, _ w: Int) {
        lux_rcd_split(p, d, w)
    }

    /// The inverse of ``split(_:into:_:)`` for columns `x0..<x0+count` of a split row `w` columns wide: `d[j]` is
    /// column `x0 + j` (in C: `lux_rcd_interleave`).
    @inline(never)
    static func interleave(
        _ p: UnsafePointer<Float>, width w: Int, from x0: Int, count n: Int, into d: UnsafeMutablePointer<Float>
    ) {
        lux_rcd_interleave(p, w, x0, n, d)
    }

    // MARK: Row kernels
    //
    // Each computes its formula at the sites of one column parity of a row of split planes (`SiteRow`), the
    // indices `i` of `sites`, with contiguous loads and stores, in C (`lux_rcd_*` in CLuxKernels' rcd_rows.h, where
    // the formulas are written out): 8 lanes wide with AVX2 when the CPU has it (plain `swift build -c release`
    // targets baseline x86-64, whose SSE gives 4), bit-identical to the scalar expressions on every width.

    @inline(never)
    static func horizontalHPFRow(_ p: SiteRow, _ d: UnsafeMutablePointer<Float>, _ sites: Range<Int>) {
        lux_rcd_horizontal_hpf(p.same, p.other, d, sites.lowerBound, sites.upperBound)
    }

    @inline(never)
    static func directionRow(
        _ r0: UnsafePointer<Float>, _ r1: UnsafePointer<Float>, _ r2: UnsafePointer<Float>, _ hpf: SiteRow,
        _ d: UnsafeMutablePointer<Float>, _ sites: Range<Int>, _ epssq: Float
    ) {
        lux_rcd_direction(r0, r1, r2, hpf.same, hpf.other, d, epssq, sites.lowerBound, sites.upperBound)
    }

    @inline(never)
    static func lowPassRow(_ p: SiteRow, _ d: UnsafeMutablePointer<Float>, _ sites: Range<Int>, _ w: Int) {
        lux_rcd_low_pass(p.same, p.other, d, w, sites.lowerBound, sites.upperBound)
    }

    /// The samples of each colour into its plane at every site; in the frame of ``margin`` photosites that the RCD
    /// steps leave unfinished, the sample stands for all three colours.
    ///
    /// `c` and the planes hold split rows.
    static func seed(_ c: UnsafePointer<Float>, width w: Int, height h: Int, redRow: Int, into out: RGBPlanes) {
        let os = out.rowStride
        let evens = (w + 1) >> 1
        for y in 0..<h {
            let p = c + y * w
            let isRedRow = (y & 1) == redRow
            // Every value written here that is not a sample is overwritten by the steps below, or lies in the
            // frame, whose missing colours no step reads for an interior pixel (filled with NaN, they left
            // `lux develop`'s float output bit-identical and the LuxRAW suites passing), so it just holds samples.
            copy(p, (isRedRow ? out.red : out.blue) + y * os, out.green + y * os, from: 0, to: w)
            let other = (isRedRow ? out.blue : out.red) + y * os
            if y < margin || y >= h - margin {
                other.update(from: p, count: w)
            } else {
                // Columns 0..<margin and w − margin..<w: even ones at the start of the row, odd ones after.
                func copyColumns(_ from: Int, _ to: Int) { (other + from).update(from: p + from, count: to - from) }
                copyColumns(0, (margin + 1) >> 1)
                copyColumns((w - margin + 1) >> 1, evens)
                copyColumns(evens, evens + margin >> 1)
                copyColumns(evens + (w - margin) >> 1, w)
            }
        }
    }

    @inline(never)
    static func copy(
        _ p: UnsafePointer<Float>, _ a: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>, from x0: Int,
        to x1: Int
    ) {
        lux_rcd_copy2(p, a, b, x0, x1)
    }

    @inline(never)
    static func discriminationRow(
        _ above: SiteRow, _ central: UnsafePointer<Float>, _ below: SiteRow, _ d: UnsafeMutablePointer<Float>,
        _ sites: Range<Int>
    ) {
        lux_rcd_discrimination(above.other, central, below.other, d, sites.lowerBound, sites.upperBound)
    }

    @inline(never)
    static func greenRow(
        _ p: SiteRow, _ l: UnsafePointer<Float>, _ disc: UnsafePointer<Float>, _ g: UnsafeMutablePointer<Float>,
        _ sites: Range<Int>, _ w: Int
    ) {
        lux_rcd_green(p.same, p.other, l, disc, g, w, sites.lowerBound, sites.upperBound)
    }

    @inline(never)
    static func diagonalHPFRow(
        _ p: SiteRow, _ dp: UnsafeMutablePointer<Float>, _ dq: UnsafeMutablePointer<Float>, _ sites: Range<Int>,
        _ w: Int
    ) {
        lux_rcd_diagonal_hpf(p.same, p.other, dp, dq, w, sites.lowerBound, sites.upperBound)
    }

    /// The P/Q direction of a row from the squared P and Q high-passes of the rows above, at and below it.
    @inline(never)
    static func diagonalDirectionRow(
        _ pAbove: SiteRow, _ pc: UnsafePointer<Float>, _ pBelow: SiteRow, _ qAbove: SiteRow, _ qc: UnsafePointer<Float>,
        _ qBelow: SiteRow, _ d: UnsafeMutablePointer<Float>, _ sites: Range<Int>, _ epssq: Float
    ) {
        lux_rcd_diagonal_direction(
            pAbove.other, pc, pBelow.other, qAbove.other, qc, qBelow.other, d, epssq, sites.lowerBound,
            sites.upperBound)
    }

    @inline(never)
    static func diagonalColorRow(
        _ m: SiteRow, _ g: SiteRow, _ dir: SiteRow, _ sites: Range<Int>, _ os: Int, _ w: Int
    ) {
        lux_rcd_diagonal_color(
            m.same, m.other, g.same, g.other, dir.same, dir.other, w, os, sites.lowerBound, sites.upperBound)
    }

    /// Red and blue at the green sites of a row.
    @inline(never)
    static func cardinalColorRow(
        _ r: SiteRow, _ b: SiteRow, _ g: SiteRow, _ disc: UnsafePointer<Float>, _ sites: Range<Int>, _ os: Int
    ) {
        lux_rcd_cardinal_color(
            r.same, r.other, b.same, b.other, g.same, g.other, disc, os, sites.lowerBound, sites.upperBound)
    }

    @inline(never)
    static func refineGreenRow(
        _ own: SiteRow, _ g: SiteRow, _ disc: UnsafePointer<Float>, _ sites: Range<Int>, _ os: Int
    ) {
        lux_rcd_refine_green(own.same, own.other, g.same, g.other, disc, os, sites.lowerBound, sites.upperBound)
    }

    @inline(never)
    static func refineAtGreenRow(
        _ rowColor: SiteRow, _ columnColor: SiteRow, _ g: SiteRow, _ sites: Range<Int>, _ os: Int
    ) {
        lux_rcd_refine_at_green(
            rowColor.same, rowColor.other, columnColor.same, g.same, g.other, os, sites.lowerBound, sites.upperBound)
    }

    @inline(never)
    static func refineRedBlueRow(
        _ r: SiteRow, _ b: SiteRow, _ disc: UnsafePointer<Float>, _ sites: Range<Int>, isRedRow: Bool, _ os: Int
    ) {
        lux_rcd_refine_red_blue(
            r.same, r.other, b.same, b.other, disc, isRedRow ? 1 : 0, os, sites.lowerBound, sites.upperBound)
    }

    /// Step 5: Menon's refining step with RCD's soft direction (weight of horizontal = `disc`).
    @inline(never)
    static func refine(
        _ out: RGBPlanes, disc: UnsafeMutablePointer<Float>, width w: Int, height h: Int, greenParity gp: Int,
        redRow: Int
    ) {
        let os = out.rowStride
        func siteRow(_ plane: UnsafeMutablePointer<Float>, _ y: Int, _ stride: Int, _ parity: Int) -> SiteRow {
            SiteRow(plane + y * stride, parity: parity, width: w)
        }
        func sites(_ x0: Int, _ x1: Int, _ parity: Int) -> Range<Int> {
            ((x0 - parity + 1) >> 1)..<((x1 - parity + 1) >> 1)
        }
        // 5.1: green at red/blue sites from the colour difference X − G along the direction.
        for y in 11..<(h - 11) {
            let q = (gp ^ y ^ 1) & 1
            let own = (y & 1) == redRow ? out.red : out.blue
            refineGreenRow(
                siteRow(own, y, os, q), siteRow(out.green, y, os, q), siteRow(disc, y, w, q).same, sites(11, w - 11, q),
                os)
        }
        // 5.2: red and blue at green sites from the two neighbours of that colour.
        for y in 12..<(h - 12) {
            let q = (gp ^ y) & 1
            let isRedRow = (y & 1) == redRow
            let rowColor = isRedRow ? out.red : out.blue
            let columnColor = isRedRow ? out.blue : out.red
            refineAtGreenRow(
                siteRow(rowColor, y, os, q), siteRow(columnColor, y, os, q), siteRow(out.green, y, os, q),
                sites(12, w - 12, q), os)
        }
        // 5.3: red at blue sites, then blue at red sites, from R − B along the direction.
        for y in 13..<(h - 13) {
            let q = (gp ^ y ^ 1) & 1
            refineRedBlueRow(
                siteRow(out.red, y, os, q), siteRow(out.blue, y, os, q), siteRow(disc, y, w, q).same,
                sites(13, w - 13, q),
                isRedRow: (y & 1) == redRow, os)
        }
    }
}
