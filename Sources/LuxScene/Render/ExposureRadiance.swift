internal import CLuxKernels
package import LuxPixels
import RealModule

/// The radiance one exposure integrates, row by row, without ever holding a full-frame float image:
/// the cached ``StaticRadiance`` resampled along the camera's path over the exposure, with the moving layers
/// (rendered for this exposure) composited over it.
///
/// Motion blur is the average of the static image shifted (and rolled) to the camera's position at many
/// instants of the exposure. Each instant's resampling is a Catmull–Rom cubic (which preserves sharpness:
/// its second moment is zero, so it adds no variance), and all instants are folded into one small kernel per
/// 128 × 16 pixel block, so the cost per pixel depends on how far the image moves, not on how many instants
/// are taken. Rows are independent, so any split across threads gives bit-identical results.
package struct ExposureRadiance: Sendable {
    /// The output grid.
    package let width: Int
    package let height: Int
    let background: StaticRadiance
    /// Output pixel → grid pixel maps at the exposure's instants: u = A·p + b (pixel centres at i + ½).
    let maps: [AffineMap]
    /// The moving layers (and those in front of them), premultiplied with alpha, on part of the output grid.
    let overlay: Overlay?

    struct AffineMap: Sendable {
        var a: SIMD4<Double>  // row-major 2×2
        var b: SIMD2<Double>
        func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2(a.x * p.x + a.y * p.y + b.x, a.z * p.x + a.w * p.y + b.y)
        }
    }

    struct Overlay: Sendable {
        let image: PlanarBuffer<Float16>  // 4 planes: premultiplied colour × scale, alpha
        let x0: Int, y0: Int
    }

    static let tileWidth = 128
    static let blockHeight = 16

    init(background: StaticRadiance, maps: [AffineMap], overlay: Overlay?, width: Int, height: Int) {
        self.background = background
        self.maps = maps
        self.overlay = overlay
        self.width = width
        self.height = height
    }

    /// The instants of `request`'s exposure and the camera's map at each, onto a grid with pixel (0, 0) at output pixel
    /// `offset`.
    ///
    /// Instants are spaced so the image moves at most ¼ pixel between them (≤ 64).
    static func maps(renderer: SceneRenderer, request: RenderRequest, offset: SIMD2<Int>) -> [AffineMap] {
        let motion = renderer.scene.cameraMotion
        let s = SIMD2(request.sceneUnitsPerPixel, request.regionSize.y / Double(request.height))
        let gridOrigin = request.regionOrigin + SIMD2(Double(offset.x), Double(offset.y)) * s
        let f = request.focalLengthInFrameWidths
        let center = SIMD2(0.5, Scene.frameHeight / 2)
        func map(at t: Double) -> AffineMap {
            let angles = motion.angles(at: t)
            let shift = SIMD2(-angles.x * f, -angles.y * f)
            let cr = Double.cos(-angles.z)
            let sr = Double.sin(-angles.z)
            func rot(_ v: SIMD2<Double>) -> SIMD2<Double> { SIMD2(cr * v.x - sr * v.y, sr * v.x + cr * v.y) }
            // u = S⁻¹(R(O + S·p − C − shift) + C − G)
            let a = SIMD4(cr, -sr * s.y / s.x, sr * s.x / s.y, cr)
            let b = (rot(request.regionOrigin - center - shift) + center - gridOrigin) / s
            return AffineMap(a: a, b: b)
        }
        let t0 = request.exposureStart
        let d = request.exposureDuration
        guard d > 0, !motion.isStill else { return [map(at: t0 + d / 2)] }
        // Path length in pixels at the centre and the corners (roll moves corners more).
        let w = Double(request.width)
        let h = Double(request.height)
        let points = [SIMD2(w / 2, h / 2), SIMD2(0, 0), SIMD2(w, 0), SIMD2(0, h), SIMD2(w, h)]
        let probes = 16
        var length = 0.0
        var previous = map(at: t0)
        var travelled = [Double](repeating: 0, count: points.count)
        for k in 1...probes {
            let m = map(at: t0 + d * Double(k) / Double(probes))
            for (i, p) in points.enumerated() {
                let v = m.apply(p) - previous.apply(p)
                travelled[i] += (v * v).sum().squareRoot()
            }
            previous = m
        }
        length = travelled.max() ?? 0
        let n = min(max(Int((length / 0.25).rounded(.up)), 1), 64)
        return (0..<n).map { map(at: t0 + d * (Double($0) + 0.5) / Double(n)) }
    }

    /// The grid pixels the maps read (Catmull–Rom support included, plus a pixel of safety), as
    /// `(x0, y0, x1, y1)` with exclusive upper bounds.
    static func footprint(_ maps: [AffineMap], width: Int, height: Int) -> (Int, Int, Int, Int) {
        var lo = SIMD2<Double>(repeating: .infinity)
        var hi = SIMD2<Double>(repeating: -.infinity)
        let corners = [
            SIMD2(0.0, 0.0), SIMD2(Double(width), 0), SIMD2(0, Double(height)), SIMD2(Double(width), Double(height)),
        ]
        for m in maps {
            for c in corners {
                let u = m.apply(c)
                lo = pointwiseMin(lo, u)
                hi = pointwiseMax(hi, u)
            }
        }
        return (
            Int(lo.x.rounded(.down)) - 3, Int(lo.y.rounded(.down)) - 3, Int(hi.x.rounded(.up)) + 3,
            Int(hi.y.rounded(.up)) + 3
        )
    }

    // MARK: Rows

    /// Calls `body(y, row)` for each row in `rows` with the radiance of the CFA channel `pattern` puts at each
    /// pixel (the sensor's response units, integrated over the exposure and divided by its duration).
    package func mosaicRows(_ rows: Range<Int>, pattern: CFAPattern, body: (Int, UnsafePointer<Float>) -> Void) {
        let quad = pattern.quadChannels.map(\.rawValue)
        let w = width
        let tiles = (w + Self.tileWidth - 1) / Self.tileWidth
        let kernels = BlockKernels(maps: maps, tiles: tiles, width: w, height: height)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
        defer { buffer.deallocate() }
        let out = buffer
        let over = buffer + w
        // The rows one output row reads (every tile's kernel) are all in the ring at once.
        let span = kernels.maxWidth + kernels.rowSpread
        let source = background.image.map { SourceRows(image: $0, pattern: quad, slots: span + 2) }
        defer { source?.deallocate() }
        let rowPointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: span + 2)
        defer { rowPointers.deallocate() }
        let unscale = 1 / background.scale
        var block = Int.min
        for y in rows {
            let phase = y & 1
            if y / Self.blockHeight != block {
                block = y / Self.blockHeight
                kernels.compute(blockRow: block, width: w)
            }
            if let source {
                var lo = Int.max
                var hi = Int.min
                for t in 0..<kernels.distinctKernels {
                    let k = kernels.kernel(t)
                    lo = min(lo, y + k.y0)
                    hi = max(hi, y + k.y0 + k.height)
                }
                precondition(hi - lo <= span + 2, "motion kernels span more rows than the ring holds")
                for r in lo..<hi { rowPointers[r - lo] = source.row(r) }
                for t in 0..<tiles {
                    let tx0 = t * Self.tileWidth
                    let n = min(Self.tileWidth, w - tx0)
                    let k = kernels.kernel(t)
                    let acc = out + tx0
                    acc.update(repeating: 0, count: n)
                    for ky in 0..<k.height {
                        let weights = k.weights + ky * k.width
                        var any = false
                        for kx in 0..<k.width where weights[kx] != 0 { any = true }
                        guard any else { continue }
                        let row = rowPointers[y + k.y0 + ky - lo]
                        // The mix whose channel at column x + dx is the one the CFA puts at x: even and odd
                        // dx read different mixes. Four taps per pass over the accumulator, then two, then one
                        // (fused multiply-adds).
                        @inline(__always) func mix(_ dx: Int) -> UnsafePointer<Float> {
                            row + (phase * 2 + (dx & 1)) * source.stride + tx0 + dx
                        }
                        var g = 0
                        while g + 4 <= k.width {
                            let w0 = weights[g] * unscale
                            let w1 = weights[g + 1] * unscale
                            let w2 = weights[g + 2] * unscale
                            let w3 = weights[g + 3] * unscale
                            let dx = k.x0 + g
                            g += 4
                            if w0 == 0 && w1 == 0 && w2 == 0 && w3 == 0 { continue }
                            lux_accumulate_taps(acc, mix(dx), mix(dx + 1), w0, w1, w2, w3, 4, n)
                        }
                        if g + 2 <= k.width {
                            let w0 = weights[g] * unscale
                            let w1 = weights[g + 1] * unscale
                            let dx = k.x0 + g
                            g += 2
                            if w0 != 0 || w1 != 0 { lux_accumulate_taps(acc, mix(dx), mix(dx + 1), w0, w1, 0, 0, 2, n) }
                        }
                        if g < k.width, weights[g] != 0 {
                            lux_accumulate_taps(acc, mix(k.x0 + g), nil, weights[g] * unscale, 0, 0, 0, 1, n)
                        }
                    }
                }
            } else {
                out.update(repeating: 0, count: w)
            }
            if let overlay, y >= overlay.y0, y < overlay.y0 + overlay.image.height {
                compositeOverlay(
                    overlay, row: y, channels: (quad[phase * 2], quad[phase * 2 + 1]), scratch: over, into: out)
            }
            body(y, out)
        }
    }

    /// Grid rows converted to `Float`, kept in a small ring so each row is converted once however many output rows read
    /// it.
    ///
    /// Each row is stored as four mixes of two planes, `stride` apart: mix `phase × 2 + q` holds, at column j, the
    /// first channel of CFA row phase `phase` where j + q is even and the second channel where it is odd — so an output
    /// pixel x reading column x + dx finds the channel its CFA site needs in mix `phase × 2 + (dx & 1)`, and one
    /// accumulator serves every column.
    final class SourceRows {
        let image: PlanarBuffer<Float16>
        let pattern: [Int]
        let stride: Int
        let slots: Int
        let storage: UnsafeMutablePointer<Float>
        /// The grid row each slot holds (a pointer, not an array: no exclusivity checks per access).
        let tags: UnsafeMutablePointer<Int>

        init(image: PlanarBuffer<Float16>, pattern: [Int], slots: Int) {
            self.image = image
            self.pattern = pattern
            self.slots = slots
            stride = image.width
            // Four floats of zeros past the end: a group of four taps may read up to three columns beyond
            // its last real tap (with weight 0).
            let count = slots * 4 * image.width + 4
            storage = .allocate(capacity: count)
            storage.initialize(repeating: 0, count: count)
            tags = .allocate(capacity: slots)
            tags.initialize(repeating: Int.min, count: slots)
        }

        func deallocate() {
            storage.deallocate()
            tags.deallocate()
        }

        /// Grid row `y` as four mixes.
        func row(_ y: Int) -> UnsafePointer<Float> {
            let slot = ((y % slots) + slots) % slots
            let dst = storage + slot * 4 * stride
            if tags[slot] != y {
                let n = stride
                for phase in 0..<2 {
                    let a = pattern[phase * 2]
                    let b = pattern[phase * 2 + 1]
                    image.loadAlternating(even: a, odd: b, row: y, count: n, into: dst + phase * 2 * n)
                    image.loadAlternating(even: b, odd: a, row: y, count: n, into: dst + (phase * 2 + 1) * n)
                }
                tags[slot] = y
            }
            return UnsafePointer(dst)
        }
    }

    /// `out = out × (1 − α) + c` for the overlay's pixels on row `y` (c: the pixel's CFA channel).
    private func compositeOverlay(
        _ overlay: Overlay, row y: Int, channels: (Int, Int), scratch: UnsafeMutablePointer<Float>,
        into out: UnsafeMutablePointer<Float>
    ) {
        let img = overlay.image
        let n = img.width
        let oy = y - overlay.y0
        let c = scratch
        let a = scratch + n
        // Overlay column i is output column x0 + i: channel 0 where that is even.
        let (even, odd) = overlay.x0 & 1 == 0 ? channels : (channels.1, channels.0)
        img.loadAlternating(even: even, odd: odd, row: oy, count: n, into: c)
        img.load(plane: 3, row: oy, x: 0, count: n, into: a)
        let o = out + overlay.x0
        let unscale = 1 / background.scale
        for i in 0..<n { o[i] = o[i] * (1 - a[i]) + c[i] * unscale }
    }
}

/// The motion kernels of one block row: for each 128-pixel tile, the Catmull–Rom weights of every instant of
/// the exposure summed onto one small grid of taps (the map evaluated at the block's centre).
final class BlockKernels {
    struct Kernel {
        let weights: UnsafeMutablePointer<Float>
        /// Offset of tap (0, 0) from the output pixel, in grid pixels.
        var x0: Int, y0: Int
        var width: Int, height: Int
    }

    let maps: [ExposureRadiance.AffineMap]
    let tiles: Int
    /// Largest kernel extent the maps can produce in either direction.
    let maxWidth: Int
    /// How many rows the tiles' kernels of one block row can be offset from each other (roll tilts them).
    let rowSpread: Int
    private let storage: UnsafeMutablePointer<Float>
    private let kernels: UnsafeMutablePointer<Kernel>
    private let rotates: Bool

    /// Kernels for a `width × height` output split into `tiles` tiles.
    init(maps: [ExposureRadiance.AffineMap], tiles: Int, width: Int, height: Int) {
        self.maps = maps
        self.tiles = tiles
        rotates = maps.contains { $0.a != SIMD4(1, 0, 0, 1) }
        // The offsets D = u(p) − p are affine in p, so their spread over the instants is largest at a corner.
        var spread = 0.0
        for c in [
            SIMD2(0.0, 0.0), SIMD2(Double(width), 0), SIMD2(0, Double(height)), SIMD2(Double(width), Double(height)),
        ] {
            var lo = SIMD2<Double>(repeating: .infinity)
            var hi = SIMD2<Double>(repeating: -.infinity)
            for m in maps {
                let d = m.apply(c) - c
                lo = pointwiseMin(lo, d)
                hi = pointwiseMax(hi, d)
            }
            spread = max(spread, (hi - lo).max())
        }
        // Catmull–Rom adds three taps; one more for rounding.
        let size = Int(spread.rounded(.up)) + 5
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: tiles * size * size)
        maxWidth = size
        // u.y − y changes by a.z per column: across the frame, by |a.z|·width (plus a row for rounding).
        rowSpread = max(1, Int((maps.map { abs($0.a.z) }.max() ?? 0) * Double(width) + 1))
        self.storage = storage
        kernels = .allocate(capacity: tiles)
        kernels.initialize(
            from: (0..<tiles).map { Kernel(weights: storage + $0 * size * size, x0: 0, y0: 0, width: 1, height: 1) },
            count: tiles)
    }

    deinit {
        storage.deallocate()
        kernels.deallocate()
    }

    /// How many tiles have kernels of their own (without roll, every tile shares the first one).
    var distinctKernels: Int { rotates ? tiles : 1 }

    /// The kernel of tile `t` (without roll, every tile shares the first one).
    @inline(__always)
    func kernel(_ t: Int) -> Kernel { kernels[rotates ? t : 0] }

    /// Computes the kernels of every tile for rows `blockRow × blockHeight …`.
    func compute(blockRow: Int, width: Int) {
        let bh = ExposureRadiance.blockHeight
        let tw = ExposureRadiance.tileWidth
        let yc = Double(blockRow * bh) + Double(bh) / 2
        for t in 0..<(rotates ? tiles : 1) {
            let xc = Double(t * tw) + Double(min(tw, width - t * tw)) / 2
            kernels[t] = make(at: SIMD2(xc, yc), into: kernels[t].weights)
        }
    }

    /// The kernel for output pixels near `p`: offsets D = u(p) − p; the pixel at column x reads the grid at
    /// x + D (pixel centres cancel), with Catmull–Rom weights around it.
    private func make(at p: SIMD2<Double>, into weights: UnsafeMutablePointer<Float>) -> Kernel {
        var bases: [SIMD2<Int>] = []
        var fractions: [SIMD2<Double>] = []
        bases.reserveCapacity(maps.count)
        fractions.reserveCapacity(maps.count)
        var lo = SIMD2(Int.max, Int.max)
        var hi = SIMD2(Int.min, Int.min)
        for m in maps {
            let d = m.apply(p) - p
            var base = SIMD2(Int(d.x.rounded(.down)), Int(d.y.rounded(.down)))
            var frac = d - SIMD2(Double(base.x), Double(base.y))
            // Snap offsets within 10⁻⁴ pixel of an integer: one tap instead of sixteen.
            if frac.x < 1e-4 {
                frac.x = 0
            } else if frac.x > 1 - 1e-4 {
                frac.x = 0
                base.x += 1
            }
            if frac.y < 1e-4 {
                frac.y = 0
            } else if frac.y > 1 - 1e-4 {
                frac.y = 0
                base.y += 1
            }
            bases.append(base)
            fractions.append(frac)
            let l = SIMD2(frac.x == 0 ? base.x : base.x - 1, frac.y == 0 ? base.y : base.y - 1)
            let h = SIMD2(frac.x == 0 ? base.x : base.x + 2, frac.y == 0 ? base.y : base.y + 2)
            lo = pointwiseMin(lo, l)
            hi = pointwiseMax(hi, h)
        }
        let kw = hi.x - lo.x + 1
        let kh = hi.y - lo.y + 1
        precondition(kw <= maxWidth && kh <= maxWidth, "motion kernel larger than its bound")
        weights.update(repeating: 0, count: kw * kh)
        let share = 1 / Double(maps.count)
        for (base, frac) in zip(bases, fractions) {
            let wx = Self.catmullRom(frac.x)
            let wy = Self.catmullRom(frac.y)
            for j in 0..<4 where wy[j] != 0 {
                let ky = base.y - 1 + j - lo.y
                guard ky >= 0, ky < kh else { continue }
                for i in 0..<4 where wx[i] != 0 {
                    let kx = base.x - 1 + i - lo.x
                    guard kx >= 0, kx < kw else { continue }
                    weights[ky * kw + kx] += Float(share * wx[i] * wy[j])
                }
            }
        }
        return Kernel(weights: weights, x0: lo.x, y0: lo.y, width: kw, height: kh)
    }

    /// Catmull–Rom weights of taps at −1, 0, 1, 2 for a sample at fraction `t` past tap 0 (exactly
    /// (0, 1, 0, 0) at t = 0).
    static func catmullRom(_ t: Double) -> SIMD4<Double> {
        guard t != 0 else { return SIMD4(0, 1, 0, 0) }
        let t2 = t * t
        let t3 = t2 * t
        return SIMD4(
            (-t3 + 2 * t2 - t) / 2, (3 * t3 - 5 * t2 + 2) / 2, (-3 * t3 + 4 * t2 + t) / 2, (t3 - t2) / 2)
    }
}
