import CLuxKernels
import LuxColor
import LuxPixels

/// The tiled Laplacian-pyramid blend behind ``ExposureFusion``.
///
/// Pass 1 computes, tile by tile, the Gaussian level `F` of every frame and of its normalised weight map. The levels
/// from `F` down are blended and collapsed for the whole (small) image. Pass 2 computes, tile by tile, the finer
/// Laplacian levels, blends them, collapses them onto the coarse result and writes the output rows. Every tile
/// computes exactly the values a whole-image pyramid would (the plans carry the filters' margins), so the output
/// does not depend on the tile size or thread count.
struct MertensBlender {
    let readers: [DisplayRowReader]
    let settings: ExposureFusion.Settings
    /// (width, height) of each level.
    let sizes: [(Int, Int)]
    /// Levels computed per tile (the finest `fine` levels).
    let fine: Int
    let threads: Int
    let tileWidth: Int
    let tileHeight: Int

    init(frames: [PixelBuffer], settings: ExposureFusion.Settings) {
        self.init(readers: frames.map(DisplayRowReader.init), settings: settings)
    }

    /// A blend of the frames `readers` read (at least one, all the same size).
    init(readers: [DisplayRowReader], settings: ExposureFusion.Settings) {
        self.readers = readers
        self.settings = settings
        var sizes = [(readers[0].width, readers[0].height)]
        let maxLevels = settings.levels ?? 64
        while sizes.count < maxLevels {
            let (w, h) = sizes[sizes.count - 1]
            let next = ((w + 1) / 2, (h + 1) / 2)
            if min(next.0, next.1) < 8 { break }
            sizes.append(next)
        }
        self.sizes = sizes
        fine = min(3, sizes.count - 1)
        threads = settings.threadCount
        tileWidth = 512
        tileHeight = 256
    }

    var tilesX: Int { (sizes[0].0 + tileWidth - 1) / tileWidth }
    var tilesY: Int { (sizes[0].1 + tileHeight - 1) / tileHeight }

    /// Blends into `output` (the frames' size; any format ``writeRow(r:g:b:count:to:format:scratch:)`` writes).
    func run(into output: PixelBuffer) {
        if fine == 0 {
            // A single level: the normalised weighted average.
            blendSingleLevel(into: output)
            return
        }
        let (images, coarse) = reduce()
        let target = output.unsafeSharedMutablePlane(0)
        withExtendedLifetime(output) {
            blend(
                tileRows: 0..<tilesY, images: images, coarse: coarse, output: target, firstRow: 0,
                format: output.format)
        }
    }

    /// Blends a band of ``tileHeight`` rows at a time into `format` pixels, handing each finished band to `body`
    /// (top to bottom, with the band's first row), so no full-size output is held.
    ///
    /// The band buffer is reused for the next band: `body` must consume it (or copy it) before returning.
    func run(format: PixelFormat, bands body: (_ band: PixelBuffer, _ firstRow: Int) throws -> Void) rethrows {
        let (w, h) = sizes[0]
        if fine == 0 {
            let output = PixelBuffer(width: w, height: h, format: format)
            blendSingleLevel(into: output)
            try body(output, 0)
            return
        }
        let (images, coarse) = reduce()
        let band = PixelBuffer(width: w, height: min(tileHeight, h), format: format)
        let target = band.unsafeSharedMutablePlane(0)
        for ty in 0..<tilesY {
            let y0 = ty * tileHeight
            let rows = min(tileHeight, h - y0)
            withExtendedLifetime(band) {
                blend(
                    tileRows: ty..<(ty + 1), images: images, coarse: coarse, output: target, firstRow: y0,
                    format: format)
            }
            let finished: PixelBuffer
            do {
                finished = rows == band.height ? band : try band.view(x: 0, y: 0, width: w, height: rows)
            } catch {
                preconditionFailure("the last band's \(rows) rows lie inside the band buffer by construction: \(error)")
            }
            try body(finished, y0)
        }
    }

    /// Pass 1 and the coarse levels: Gaussian level F of every frame (kept for pass 2) and the blend of levels F…
    /// collapsed onto level F.
    func reduce() -> (images: [PlanarBuffer<Float>], coarse: PlanarBuffer<Float>) {
        let n = readers.count
        let (fw, fh) = sizes[fine]
        let images = (0..<n).map { _ in PlanarBuffer<Float>(width: fw, height: fh, planes: 3) }
        let weights = (0..<n).map { _ in PlanarBuffer<Float>(width: fw, height: fh, planes: 1) }
        let scale = 1 << fine
        let tilesX = tilesX
        let tilesY = tilesY
        let xSizes = sizes.map(\.0)
        let ySizes = sizes.map(\.1)
        Parallel.forEachBand(tilesX * tilesY, threads: threads, minimumBand: 1) { tiles in
            var arena = Arena(capacity: arenaFloats(pass: 1, tilesX: tilesX, tilesY: tilesY))
            defer { arena.deallocate() }
            for t in tiles {
                let tx = t % tilesX
                let ty = t / tilesX
                let px = (tx * tileWidth / scale)..<min((tx + 1) * tileWidth / scale, fw)
                let py = (ty * tileHeight / scale)..<min((ty + 1) * tileHeight / scale, fh)
                if px.isEmpty || py.isEmpty { continue }
                arena.reset()
                reduceTile(
                    x: AxisPlan.reduction(interior: px, sizes: xSizes, fine: fine),
                    y: AxisPlan.reduction(interior: py, sizes: ySizes, fine: fine), arena: &arena, images: images,
                    weights: weights)
            }
        }
        return (images, blendCoarse(images: images, weights: weights))
    }

    /// Pass 2 for the tiles of rows `tileRows`: fine levels per tile, collapse, write; image row `y` goes to row
    /// `y − firstRow` of `output`.
    func blend(
        tileRows: Range<Int>, images: [PlanarBuffer<Float>], coarse: PlanarBuffer<Float>, output: MutableRawPlane,
        firstRow: Int,
        format: PixelFormat
    ) {
        let tilesX = tilesX
        let tilesY = tilesY
        let xSizes = sizes.map(\.0)
        let ySizes = sizes.map(\.1)
        let arenaSize = arenaFloats(pass: 2, tilesX: tilesX, tilesY: tilesY)
        Parallel.forEachBand(tilesX * tileRows.count, threads: threads, minimumBand: 1) { tiles in
            var arena = Arena(capacity: arenaSize)
            defer { arena.deallocate() }
            for t in tiles {
                let tx = t % tilesX
                let ty = tileRows.lowerBound + t / tilesX
                let ix = (tx * tileWidth)..<min((tx + 1) * tileWidth, sizes[0].0)
                let iy = (ty * tileHeight)..<min((ty + 1) * tileHeight, sizes[0].1)
                arena.reset()
                blendTile(
                    x: AxisPlan.blending(interior: ix, sizes: xSizes, fine: fine),
                    y: AxisPlan.blending(interior: iy, sizes: ySizes, fine: fine), arena: &arena,
                    images: images, coarse: coarse, output: output, firstRow: firstRow, format: format)
            }
        }
    }

    /// Scratch floats the tiles of `pass` need: the largest tile's allocations, as ``reduceTile`` and ``blendTile``
    /// make them.
    func arenaFloats(pass: Int, tilesX: Int, tilesY: Int) -> Int {
        let xs = sizes.map(\.0)
        let ys = sizes.map(\.1)
        let s = 1 << fine
        func planes(_ xr: Range<Int>, _ yr: Range<Int>, _ c: Int) -> Int {
            ((c * yr.count * ((xr.count + 15) & ~15)) + 15) & ~15
        }
        var most = 0
        for ty in 0..<tilesY {
            for tx in 0..<tilesX {
                let x: AxisPlan
                let y: AxisPlan
                if pass == 1 {
                    let px = (tx * tileWidth / s)..<min((tx + 1) * tileWidth / s, xs[fine])
                    let py = (ty * tileHeight / s)..<min((ty + 1) * tileHeight / s, ys[fine])
                    if px.isEmpty || py.isEmpty { continue }
                    x = AxisPlan.reduction(interior: px, sizes: xs, fine: fine)
                    y = AxisPlan.reduction(interior: py, sizes: ys, fine: fine)
                } else {
                    let ix = (tx * tileWidth)..<min((tx + 1) * tileWidth, xs[0])
                    let iy = (ty * tileHeight)..<min((ty + 1) * tileHeight, ys[0])
                    x = AxisPlan.blending(interior: ix, sizes: xs, fine: fine)
                    y = AxisPlan.blending(interior: iy, sizes: ys, fine: fine)
                }
                var total = 2 * planes(x.load, y.load, 1) + planes(x.load, y.load, 3)
                total += planes(x.gaussian[0], y.gaussian[0], readers.count + 1)
                let top = pass == 1 ? fine : fine - 1
                if top >= 1 {
                    for l in 1...top {
                        total += planes(x.gaussian[l], y.gaussian[l], 3) + planes(x.gaussian[l], y.gaussian[l], 1)
                    }
                }
                for l in 0..<x.blend.count where l < fine {
                    total += planes(x.blend[l], y.blend[l], 3)
                }
                most = max(most, total)
            }
        }
        let rows = 2 * ((xs[0] + 64 + 15) & ~15) + ((readers[0].scratchCount + 15) & ~15) + 3 * (tileWidth + 16) + 64
        return most + rows
    }

    // MARK: Weights

    /// Loads frame `k` on `rect` (level 0) into `image` (3 channels).
    func load(_ k: Int, rect: LevelRect, into image: RegionPlanes, scratch: UnsafeMutablePointer<Float>) {
        for y in rect.ys {
            readers[k].read(
                row: y, x0: rect.x0, x1: rect.x1, r: image.row(0, y) + rect.x0, g: image.row(1, y) + rect.x0,
                b: image.row(2, y) + rect.x0, scratch: scratch)
        }
    }

    /// The raw Mertens weight of `image` (loaded on a rect at least one larger than `rect` where the image allows) on
    /// `rect`, into channel `c` of `out`; `grey` is scratch on the image's rect.
    func weigh(_ image: RegionPlanes, grey: RegionPlanes, rect: LevelRect, into out: RegionPlanes, channel c: Int) {
        let (w, h) = sizes[0]
        let lr = image.rect
        for y in lr.ys {
            let r = image.row(0, y)
            let g = image.row(1, y)
            let b = image.row(2, y)
            let o = grey.row(0, y)
            for x in lr.xs { o[x] = 0.299 * r[x] + 0.587 * g[x] + 0.114 * b[x] }
        }
        let wc = settings.contrastWeight
        let ws = settings.saturationWeight
        let we = settings.exposureWeight
        let mu = settings.exposureMean
        // exp(−d²/2σ²) = 2^(−d²·log2(e)/2σ²)
        let k = -1.442_695 / (2 * settings.exposureSigma * settings.exposureSigma)
        let x0 = rect.x0
        let x1 = rect.x1
        let safeLo = max(x0, 1)
        let safeHi = min(x1, w - 1)
        for y in rect.ys {
            let up = grey.row(0, reflect101(y - 1, h))
            let mid = grey.row(0, y)
            let down = grey.row(0, reflect101(y + 1, h))
            let r = image.row(0, y)
            let g = image.row(1, y)
            let b = image.row(2, y)
            let o = out.row(c, y)
            // Contrast first (|Laplacian|), borders mirrored.
            if safeLo < safeHi {
                for x in safeLo..<safeHi {
                    let m = mid[x]
                    o[x] = abs((up[x] - m) + (down[x] - m) + (mid[x - 1] - m) + (mid[x + 1] - m))
                }
            }
            for x in rect.xs where x < safeLo || x >= safeHi {
                let m = mid[x]
                o[x] = abs(
                    (up[x] - m) + (down[x] - m) + (mid[reflect101(x - 1, w)] - m) + (mid[reflect101(x + 1, w)] - m))
            }
            if wc == 1, ws == 1, we == 1 {
                // The default exponents: a C kernel (Swift's square root is a libm call per value on Linux, which
                // keeps the loop scalar).
                lux_mertens_weights(r + x0, g + x0, b + x0, o + x0, x1 - x0, mu, k)
                continue
            }
            for x in x0..<x1 {
                let rv = r[x]
                let gv = g[x]
                let bv = b[x]
                // The standard deviation of R, G, B from their differences (Σ(c − mean)² = Σ pairwise² / 3), so a grey
                // pixel gives exactly 0 rather than rounding noise.
                let rg = rv - gv
                let gb = gv - bv
                let br = bv - rv
                let sat = ((rg * rg + gb * gb + br * br) * (1 / 9)).squareRoot()
                let dr = rv - mu
                let dg = gv - mu
                let db = bv - mu
                let e = fastExp2((dr * dr + dg * dg + db * db) * k)
                let cv = o[x]
                let wv = Self.power(cv, wc) * Self.power(sat, ws) * Self.power(e, we)
                o[x] = wv + 1e-12
            }
        }
    }

    @inline(__always)
    static func power(_ v: Float, _ p: Float) -> Float {
        if p == 1 { return v }
        if p == 0 { return 1 }
        return fastPow(v, p)
    }

    /// Normalised weights of every frame on `rect` into channel `k` of `weights` (frames loaded into `image`).
    func normalisedWeights(
        load: LevelRect, rect: LevelRect, image: RegionPlanes, grey: RegionPlanes, weights: RegionPlanes,
        scratch: UnsafeMutablePointer<Float>
    ) {
        let n = readers.count
        for k in 0..<n {
            self.load(k, rect: load, into: image, scratch: scratch)
            weigh(image, grey: grey, rect: rect, into: weights, channel: k)
        }
        for y in rect.ys {
            let sum = weights.row(n, y)
            for x in rect.xs { sum[x] = 0 }
            for k in 0..<n {
                let w = weights.row(k, y)
                for x in rect.xs { sum[x] += w[x] }
            }
            for x in rect.xs { sum[x] = 1 / sum[x] }
            for k in 0..<n {
                let w = weights.row(k, y)
                for x in rect.xs { w[x] *= sum[x] }
            }
        }
    }

    // MARK: Pass 1

    func reduceTile(
        x: AxisPlan, y: AxisPlan, arena: inout Arena, images: [PlanarBuffer<Float>], weights: [PlanarBuffer<Float>]
    ) {
        let n = readers.count
        let loadRect = LevelRect(x: x.load, y: y.load)
        let image = arena.planes(loadRect, channels: 3)
        let grey = arena.planes(loadRect, channels: 1)
        let g0 = LevelRect(x: x.gaussian[0], y: y.gaussian[0])
        let w0 = arena.planes(g0, channels: n + 1)
        let levelImages = (1...fine).map { l in arena.planes(LevelRect(x: x.gaussian[l], y: y.gaussian[l]), channels: 3)
        }
        let levelWeights = (1...fine).map { l in
            arena.planes(LevelRect(x: x.gaussian[l], y: y.gaussian[l]), channels: 1)
        }
        let tmp = arena.floats(sizes[0].0 + 64)
        let scratch = arena.floats(readers[0].scratchCount)
        normalisedWeights(load: loadRect, rect: g0, image: image, grey: grey, weights: w0, scratch: scratch)
        let interior = LevelRect(x: x.gaussian[fine], y: y.gaussian[fine])
        for k in 0..<n {
            load(k, rect: loadRect, into: image, scratch: scratch)
            var src = image
            var srcW = channelView(w0, k)
            for l in 1...fine {
                RegionPyramid.reduce(src, into: levelImages[l - 1], channels: 3, fineSize: sizes[l - 1], tmp: tmp)
                RegionPyramid.reduce(srcW, into: levelWeights[l - 1], channels: 1, fineSize: sizes[l - 1], tmp: tmp)
                src = levelImages[l - 1]
                srcW = levelWeights[l - 1]
            }
            let gi = images[k]
            let gw = weights[k]
            for yy in interior.ys {
                for c in 0..<3 {
                    let s = src.row(c, yy)
                    let d = gi.row(c, yy)
                    for xx in interior.xs { d[xx] = s[xx] }
                }
                let s = srcW.row(0, yy)
                let d = gw.row(0, yy)
                for xx in interior.xs { d[xx] = s[xx] }
            }
        }
    }

    /// A one-channel view of channel `c` of a region buffer.
    func channelView(_ p: RegionPlanes, _ c: Int) -> RegionPlanes {
        RegionPlanes(rect: p.rect, channels: 1, stride: p.stride, base: p.base + c * p.rect.height * p.stride)
    }

    // MARK: Coarse levels

    /// Blends levels F… of the whole image and collapses them onto level F.
    func blendCoarse(images: [PlanarBuffer<Float>], weights: [PlanarBuffer<Float>]) -> PlanarBuffer<Float> {
        let levels = sizes.count
        var gi = [images]
        var gw = [weights]
        for _ in (fine + 1)..<max(levels, fine + 1) {
            gi.append(gi[gi.count - 1].map { $0.reducedBinomial(threads: threads) })
            gw.append(gw[gw.count - 1].map { $0.reducedBinomial(threads: threads) })
        }
        let top = gi.count - 1
        // R at the coarsest level: Σ G(W)·G(I).
        var collapsed = PlanarBuffer<Float>(width: sizes[fine + top].0, height: sizes[fine + top].1, planes: 3)
        accumulate(into: collapsed, images: gi[top], weights: gw[top], coarser: nil, coarseSize: nil)
        var l = top - 1
        while l >= 0 {
            let (w, h) = sizes[fine + l]
            let r = PlanarBuffer<Float>(width: w, height: h, planes: 3)
            accumulate(into: r, images: gi[l], weights: gw[l], coarser: gi[l + 1], coarseSize: (w, h))
            // C_l = R_l + EXPAND(C_{l+1})
            let src = Self.region(collapsed)
            let tmp = UnsafeMutablePointer<Float>.allocate(capacity: w + 64)
            let row = UnsafeMutablePointer<Float>.allocate(capacity: w + 64)
            for y in 0..<h {
                for c in 0..<3 {
                    RegionPyramid.expandRow(src, channel: c, y: y, xs: 0..<w, fineSize: (w, h), into: row, tmp: tmp)
                    let o = r.row(c, y)
                    for x in 0..<w { o[x] += row[x] }
                }
            }
            tmp.deallocate()
            row.deallocate()
            collapsed = r
            l -= 1
        }
        return collapsed
    }

    /// `out += Σ_k W_k · (I_k − EXPAND(coarser_k))` (or `Σ W_k·I_k` without a coarser level), whole images.
    func accumulate(
        into out: PlanarBuffer<Float>, images: [PlanarBuffer<Float>], weights: [PlanarBuffer<Float>],
        coarser: [PlanarBuffer<Float>]?,
        coarseSize: (Int, Int)?
    ) {
        let w = out.width
        let h = out.height
        let tmp = UnsafeMutablePointer<Float>.allocate(capacity: w + 64)
        let row = UnsafeMutablePointer<Float>.allocate(capacity: w + 64)
        defer {
            tmp.deallocate()
            row.deallocate()
        }
        for k in images.indices {
            for y in 0..<h {
                let wt = weights[k].row(0, y)
                for c in 0..<3 {
                    let i = images[k].row(c, y)
                    let o = out.row(c, y)
                    if let coarser {
                        RegionPyramid.expandRow(
                            Self.region(coarser[k]), channel: c, y: y, xs: 0..<w, fineSize: (w, h), into: row, tmp: tmp)
                        for x in 0..<w { o[x] += wt[x] * (i[x] - row[x]) }
                    } else {
                        for x in 0..<w { o[x] += wt[x] * i[x] }
                    }
                }
            }
        }
    }

    static func region(_ p: PlanarBuffer<Float>) -> RegionPlanes {
        RegionPlanes(
            rect: LevelRect(x: 0..<p.width, y: 0..<p.height), channels: p.planeCount, stride: p.rowStride,
            base: p.plane(0))
    }

    // MARK: Pass 2

    func blendTile(
        x: AxisPlan, y: AxisPlan, arena: inout Arena, images: [PlanarBuffer<Float>], coarse: PlanarBuffer<Float>,
        output: MutableRawPlane, firstRow: Int, format: PixelFormat
    ) {
        let n = readers.count
        let loadRect = LevelRect(x: x.load, y: y.load)
        let image = arena.planes(loadRect, channels: 3)
        let grey = arena.planes(loadRect, channels: 1)
        let g0 = LevelRect(x: x.gaussian[0], y: y.gaussian[0])
        let w0 = arena.planes(g0, channels: n + 1)
        let levelImages = (1..<fine).map { l in arena.planes(LevelRect(x: x.gaussian[l], y: y.gaussian[l]), channels: 3)
        }
        let levelWeights = (1..<fine).map { l in
            arena.planes(LevelRect(x: x.gaussian[l], y: y.gaussian[l]), channels: 1)
        }
        let blend = (0..<fine).map { l in arena.planes(LevelRect(x: x.blend[l], y: y.blend[l]), channels: 3) }
        let tmp = arena.floats(sizes[0].0 + 64)
        let row = arena.floats(sizes[0].0 + 64)
        let scratch = arena.floats(readers[0].scratchCount)
        for l in 0..<fine {
            for c in 0..<3 {
                for yy in blend[l].rect.ys {
                    let o = blend[l].row(c, yy)
                    for xx in blend[l].rect.xs { o[xx] = 0 }
                }
            }
        }
        normalisedWeights(load: loadRect, rect: g0, image: image, grey: grey, weights: w0, scratch: scratch)
        for k in 0..<n {
            load(k, rect: loadRect, into: image, scratch: scratch)
            var gI = [image] + levelImages
            var gW = [channelView(w0, k)] + levelWeights
            for l in 1..<fine {
                RegionPyramid.reduce(gI[l - 1], into: gI[l], channels: 3, fineSize: sizes[l - 1], tmp: tmp)
                RegionPyramid.reduce(gW[l - 1], into: gW[l], channels: 1, fineSize: sizes[l - 1], tmp: tmp)
            }
            gI.append(Self.region(images[k]))
            gW.append(gW[0])  // unused placeholder
            // R_l += G_l(W) · (G_l(I) − EXPAND(G_{l+1}(I)))
            for l in 0..<fine {
                let r = blend[l]
                for yy in r.rect.ys {
                    let wt = gW[l].row(0, yy)
                    for c in 0..<3 {
                        RegionPyramid.expandRow(
                            gI[l + 1], channel: c, y: yy, xs: r.rect.xs, fineSize: sizes[l], into: row, tmp: tmp)
                        let i = gI[l].row(c, yy)
                        let o = r.row(c, yy)
                        for xx in r.rect.xs { o[xx] += wt[xx] * (i[xx] - row[xx]) }
                    }
                }
            }
        }
        // Collapse: C_l = R_l + EXPAND(C_{l+1}), from the coarse result down to level 1.
        var upper = Self.region(coarse)
        var l = fine - 1
        while l >= 1 {
            let r = blend[l]
            for yy in r.rect.ys {
                for c in 0..<3 {
                    RegionPyramid.expandRow(
                        upper, channel: c, y: yy, xs: r.rect.xs, fineSize: sizes[l], into: row, tmp: tmp)
                    let o = r.row(c, yy)
                    for xx in r.rect.xs { o[xx] += row[xx] }
                }
            }
            upper = r
            l -= 1
        }
        // Level 0: add EXPAND(C_1) and write.
        let r0 = blend[0]
        let x0 = r0.rect.x0
        let count = r0.rect.width
        let out3 = arena.floats(3 * (count + 16))
        for yy in r0.rect.ys {
            for c in 0..<3 {
                RegionPyramid.expandRow(
                    upper, channel: c, y: yy, xs: r0.rect.xs, fineSize: sizes[0], into: row, tmp: tmp)
                let o = r0.row(c, yy)
                let d = out3 + c * (count + 16) - x0
                for xx in r0.rect.xs { d[xx] = o[xx] + row[xx] }
            }
            Self.writeRow(
                r: out3, g: out3 + (count + 16), b: out3 + 2 * (count + 16), count: count,
                to: output.row(yy - firstRow) + x0 * format.bytesPerPixel(), format: format, scratch: scratch)
        }
    }

    /// Writes `count` RGB pixels as opaque `format` pixels (integer formats clamped).
    static func writeRow(
        r: UnsafeMutablePointer<Float>, g: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>, count: Int,
        to row: UnsafeMutableRawPointer, format: PixelFormat, scratch: UnsafeMutablePointer<Float>
    ) {
        switch format {
        case .rgba8, .bgra8:
            let d = row.assumingMemoryBound(to: UInt8.self)
            let (ri, bi) = format == .rgba8 ? (0, 2) : (2, 0)
            for x in 0..<count {
                d[4 * x + ri] = UInt8(truncatingIfNeeded: Int(min(max(r[x], 0), 1) * 255 + 0.5))
                d[4 * x + 1] = UInt8(truncatingIfNeeded: Int(min(max(g[x], 0), 1) * 255 + 0.5))
                d[4 * x + bi] = UInt8(truncatingIfNeeded: Int(min(max(b[x], 0), 1) * 255 + 0.5))
                d[4 * x + 3] = 255
            }
        default:
            RGBRowWriter.write(r: r, g: g, b: b, count: count, format: format, row: row, scratch: scratch)
        }
    }

    /// Fewer than two levels: the normalised weighted average, row by row.
    func blendSingleLevel(into output: PixelBuffer) {
        let (w, h) = sizes[0]
        let arena = Arena(capacity: (readers.count + 9) * h * ((w + 15) & ~15) + readers[0].scratchCount + 256)
        defer { arena.deallocate() }
        let target = output.unsafeSharedMutablePlane(0)
        withExtendedLifetime(output) {
            let all = LevelRect(x: 0..<w, y: 0..<h)
            var a = arena
            let image = a.planes(all, channels: 3)
            let grey = a.planes(all, channels: 1)
            let wts = a.planes(all, channels: readers.count + 1)
            let acc = a.planes(all, channels: 3)
            let scratch = a.floats(readers[0].scratchCount)
            normalisedWeights(load: all, rect: all, image: image, grey: grey, weights: wts, scratch: scratch)
            for yy in 0..<h { for c in 0..<3 { for xx in 0..<w { acc.row(c, yy)[xx] = 0 } } }
            for k in 0..<readers.count {
                load(k, rect: all, into: image, scratch: scratch)
                for yy in 0..<h {
                    let wt = wts.row(k, yy)
                    for c in 0..<3 {
                        let i = image.row(c, yy)
                        let o = acc.row(c, yy)
                        for xx in 0..<w { o[xx] += wt[xx] * i[xx] }
                    }
                }
            }
            for yy in 0..<h {
                Self.writeRow(
                    r: acc.row(0, yy), g: acc.row(1, yy), b: acc.row(2, yy), count: w, to: target.row(yy),
                    format: output.format, scratch: scratch)
            }
        }
    }
}
