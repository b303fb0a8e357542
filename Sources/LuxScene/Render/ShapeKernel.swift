import CLuxKernels
import LuxPixels

/// One shape prepared for rasterisation: geometry and fill in `Float`, the fill's colours already turned into the
/// detector's response by the layer's light matrix.
///
/// Dispatch happens once per row segment.
struct ShapeKernel: @unchecked Sendable {
    // @unchecked: points into a ShapeMemory (texture levels and polygon edges shared read-only by row workers).
    enum Outline {
        case everywhere
        case rectangle(center: SIMD2<Float>, half: SIMD2<Float>)
        case ellipse(center: SIMD2<Float>, radii: SIMD2<Float>)
        case polygon(normals: UnsafeBufferPointer<SIMD2<Float>>, offsets: UnsafeBufferPointer<Float>)
        case star(center: SIMD2<Float>, radius: Float, spokes: Int)
    }

    enum Paint {
        case solid(SIMD3<Float>)
        case gradient(start: SIMD2<Float>, direction: SIMD2<Float>, from: SIMD3<Float>, to: SIMD3<Float>)
        case noise(base: SIMD3<Float>, contrast: Float, frequency: Float, seed: UInt32)
        case image(ImagePaint)
    }

    /// An image fill (the level's memory belongs to the plan's ``ShapeMemory``).
    struct ImagePaint {
        var level: TextureLevel
        var origin: SIMD2<Float>
        /// Texels of the chosen level per scene unit.
        var texelsPerUnit: SIMD2<Float>
        /// The light matrix, row-major.
        var matrix: (Float, Float, Float, Float, Float, Float, Float, Float, Float)
        var depthRange: ClosedRange<Float>?
    }

    /// The planes of a texture level where they lie (a `PlanarBuffer<Float>`'s layout, without its storage).
    struct TextureLevel {
        let base: UnsafePointer<Float>
        let width: Int
        let height: Int
        let planeCount: Int
        let rowStride: Int

        init(_ buffer: PlanarBuffer<Float>) {
            base = UnsafePointer(buffer.plane(0))
            width = buffer.width
            height = buffer.height
            planeCount = buffer.planeCount
            rowStride = buffer.rowStride
        }

        /// The first texel of row `y` of plane `p`.
        @inline(__always)
        func row(_ p: Int, _ y: Int) -> UnsafePointer<Float> { base + (p * height + y) * rowStride }
    }

    let outline: Outline
    let paint: Paint
    let pixel: Float

    /// The kernel of `shape`, its colours through the light matrix `m`, for pixels `pixel` scene units wide; what it
    /// points to is kept in `memory`.
    init(shape: Shape, matrix m: [Float], pixel: Double, memory: ShapeMemory) {
        self.pixel = Float(pixel)
        func apply(_ c: SurfaceColor) -> SIMD3<Float> {
            let v = SIMD3<Float>(Float(c.coefficients.x), Float(c.coefficients.y), Float(c.coefficients.z))
            return SIMD3(
                m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z,
                m[6] * v.x + m[7] * v.y + m[8] * v.z)
        }
        func f2(_ v: SIMD2<Double>) -> SIMD2<Float> { SIMD2(Float(v.x), Float(v.y)) }
        switch shape.geometry {
        case .everywhere: outline = .everywhere
        case .rectangle(let origin, let size): outline = .rectangle(center: f2(origin + size / 2), half: f2(size / 2))
        case .ellipse(let center, let radii): outline = .ellipse(center: f2(center), radii: f2(radii))
        case .polygon(let points):
            var area = 0.0
            for i in points.indices {
                let a = points[i]
                let b = points[(i + 1) % points.count]
                area += a.x * b.y - b.x * a.y
            }
            var normals: [SIMD2<Float>] = []
            var offsets: [Float] = []
            for i in points.indices {
                let a = points[i]
                let b = points[(i + 1) % points.count]
                let e = b - a
                let len = (e * e).sum().squareRoot()
                guard len > 0 else { continue }
                // Outward normal: for counter-clockwise winding in y-down coordinates (area > 0) it is (e.y, −e.x).
                var nrm = SIMD2(e.y, -e.x) / len
                if area < 0 { nrm = -nrm }
                normals.append(f2(nrm))
                offsets.append(Float((nrm * a).sum()))
            }
            outline = .polygon(normals: memory.copy(normals), offsets: memory.copy(offsets))
        case .siemensStar(let center, let radius, let spokes):
            outline = .star(center: f2(center), radius: Float(radius), spokes: max(1, spokes))
        }
        switch shape.fill {
        case .solid(let c): paint = .solid(apply(c))
        case .linearGradient(let start, let from, let end, let to):
            let d = end - start
            let len2 = max((d * d).sum(), 1e-12)
            paint = .gradient(start: f2(start), direction: f2(d / len2), from: apply(from), to: apply(to))
        case .texture(let color, let contrast, let featureSize, let seed):
            paint = .noise(
                base: apply(color), contrast: Float(contrast), frequency: Float(1 / max(featureSize, 1e-6)),
                seed: UInt32(truncatingIfNeeded: seed ^ (seed >> 32)))
        case .image(let image, let origin, let size, let depthRange):
            let level = image.levels[image.level(pixel: pixel, size: size.x)]
            paint = .image(
                ImagePaint(
                    level: memory.texture(level), origin: f2(origin),
                    texelsPerUnit: SIMD2(Float(Double(level.width) / size.x), Float(Double(level.height) / size.y)),
                    matrix: (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]),
                    depthRange: depthRange.map { Float($0.lowerBound)...Float($0.upperBound) }))
        }
    }

    /// Paints one row segment of `n` pixels; `q` is the scene position of the first pixel centre and `step` the move
    /// per pixel.
    ///
    /// `scratch` has room for 4·n floats. `alpha` is nil for layers known to be opaque.
    func run(
        _ n: Int, q: SIMD2<Float>, step: SIMD2<Float>, scratch: UnsafeMutablePointer<Float>,
        p0: UnsafeMutablePointer<Float>, p1: UnsafeMutablePointer<Float>, p2: UnsafeMutablePointer<Float>,
        alpha: UnsafeMutablePointer<Float>?
    ) {
        let cov = scratch
        let inv = 1 / pixel
        switch outline {
        case .everywhere: cov.update(repeating: 1, count: n)
        case .rectangle(let c, let h): Rasterizer.rectangle(cov, n, q: q, step: step, center: c, half: h, invPixel: inv)
        case .ellipse(let c, let r): Rasterizer.ellipse(cov, n, q: q, step: step, center: c, radii: r, invPixel: inv)
        case .polygon(let normals, let offsets):
            Rasterizer.polygon(cov, n, q: q, step: step, normals: normals, offsets: offsets, invPixel: inv)
        case .star(let c, let radius, let spokes):
            Rasterizer.siemensStar(cov, n, q: q, step: step, center: c, radius: radius, spokes: spokes, pixel: pixel)
        }
        let c0 = scratch + n
        let c1 = scratch + 2 * n
        let c2 = scratch + 3 * n
        switch paint {
        case .solid(let color):
            Rasterizer.blendSolid(cov, n, color: color, p0: p0, p1: p1, p2: p2, alpha: alpha)
        case .gradient(let start, let direction, let from, let to):
            Rasterizer.gradient(
                n, q: q, step: step, start: start, direction: direction, from: from, to: to, c0: c0, c1: c1, c2: c2)
            Rasterizer.blendRows(cov, n, c0: c0, c1: c1, c2: c2, p0: p0, p1: p1, p2: p2, alpha: alpha)
        case .noise(let base, let contrast, let frequency, let seed):
            Rasterizer.noise(
                n, q: q, step: step, base: base, contrast: contrast, frequency: frequency, seed: seed, c0: c0, c1: c1,
                c2: c2)
            Rasterizer.blendRows(cov, n, c0: c0, c1: c1, c2: c2, p0: p0, p1: p1, p2: p2, alpha: alpha)
        case .image(let image):
            Self.sampleImage(image, n, q: q, step: step, cov: cov, c0: c0, c1: c1, c2: c2)
            Rasterizer.blendRows(cov, n, c0: c0, c1: c1, c2: c2, p0: p0, p1: p1, p2: p2, alpha: alpha)
        }
    }

    /// Bilinear texture lookups along a row; pixels outside the image (or outside the depth range) get no coverage.
    ///
    /// The depth test (nearest texel) comes first, so a depth slice pays for the colour lookups of its own pixels only.
    static func sampleImage(
        _ img: ImagePaint, _ n: Int, q: SIMD2<Float>, step: SIMD2<Float>, cov: UnsafeMutablePointer<Float>,
        c0: UnsafeMutablePointer<Float>, c1: UnsafeMutablePointer<Float>, c2: UnsafeMutablePointer<Float>
    ) {
        let level = img.level
        let w = level.width
        let h = level.height
        let matrix = img.matrix
        let range = level.planeCount > 3 ? img.depthRange : nil
        let fw = Float(w)
        let fh = Float(h)
        if step.y == 0 {
            sampleImageRow(img, n, q: q, step: step.x, cov: cov, c0: c0, c1: c1, c2: c2)
            return
        }
        for i in 0..<n {
            let fi = Float(i)
            let u = (q.x + fi * step.x - img.origin.x) * img.texelsPerUnit.x - 0.5
            let v = (q.y + fi * step.y - img.origin.y) * img.texelsPerUnit.y - 0.5
            let xf = min(max(u, 0), fw - 1)
            let yf = min(max(v, 0), fh - 1)
            var inside = u > -1 && v > -1 && u < fw && v < fh
            if inside, let range {
                inside = range.contains(level.row(3, Int(yf + 0.5))[Int(xf + 0.5)])
            }
            guard inside else {
                clear(i, cov: cov, c0: c0, c1: c1, c2: c2)
                continue
            }
            let x0 = Int(xf)
            let y0 = Int(yf)
            let x1 = min(x0 + 1, w - 1)
            let y1 = min(y0 + 1, h - 1)
            let fx = xf - Float(x0)
            let fy = yf - Float(y0)
            var k = SIMD3<Float>.zero
            for p in 0..<3 {
                let r0 = level.row(p, y0)
                let r1 = level.row(p, y1)
                let top = r0[x0] + (r0[x1] - r0[x0]) * fx
                let bottom = r1[x0] + (r1[x1] - r1[x0]) * fx
                k[p] = top + (bottom - top) * fy
            }
            store(k.x, k.y, k.z, at: i, matrix: matrix, c0: c0, c1: c1, c2: c2)
        }
    }

    /// Bilinear texture lookups along a segment with no vertical step (the usual case).
    ///
    /// As ``sampleImage(_:_:q:step:cov:c0:c1:c2:)``, with the same arithmetic and result, but the two texel rows, their
    /// weight and the depth row are found once for the segment, and the pixels run in the C kernel
    /// `lux_texture_row` (eight at a time with AVX2 gathers when the CPU has them).
    static func sampleImageRow(
        _ img: ImagePaint, _ n: Int, q: SIMD2<Float>, step: Float, cov: UnsafeMutablePointer<Float>,
        c0: UnsafeMutablePointer<Float>, c1: UnsafeMutablePointer<Float>, c2: UnsafeMutablePointer<Float>
    ) {
        let level = img.level
        let h = level.height
        let v = (q.y - img.origin.y) * img.texelsPerUnit.y - 0.5
        let yf = min(max(v, 0), Float(h) - 1)
        guard v > -1, v < Float(h) else {
            cov.update(repeating: 0, count: n)
            c0.update(repeating: 0, count: n)
            c1.update(repeating: 0, count: n)
            c2.update(repeating: 0, count: n)
            return
        }
        let y0 = Int(yf)
        let y1 = min(y0 + 1, h - 1)
        let range = level.planeCount > 3 ? img.depthRange : nil
        func row(_ p: Int, _ y: Int) -> UnsafePointer<Float>? { level.row(p, y) }
        var source = lux_texture_row_source(
            top: (row(0, y0), row(1, y0), row(2, y0)), bottom: (row(0, y1), row(1, y1), row(2, y1)),
            fy: yf - Float(y0), width: level.width, depth: range == nil ? nil : row(3, Int(yf + 0.5)),
            depth_min: range?.lowerBound ?? 0,
            depth_max: range?.upperBound ?? 0, x: q.x, step: step, origin: img.origin.x,
            texels_per_unit: img.texelsPerUnit.x, matrix: img.matrix)
        lux_texture_row(&source, n, cov, c0, c1, c2)
    }

    /// A pixel with no coverage and no colour.
    @inline(__always)
    static func clear(
        _ i: Int, cov: UnsafeMutablePointer<Float>, c0: UnsafeMutablePointer<Float>, c1: UnsafeMutablePointer<Float>,
        c2: UnsafeMutablePointer<Float>
    ) {
        cov[i] = 0
        c0[i] = 0
        c1[i] = 0
        c2[i] = 0
    }

    /// Stores a texel's colour `(k0, k1, k2)` through the paint's 3 × 3 matrix (row-major).
    @inline(__always)
    static func store(
        _ k0: Float, _ k1: Float, _ k2: Float, at i: Int,
        matrix m: (Float, Float, Float, Float, Float, Float, Float, Float, Float), c0: UnsafeMutablePointer<Float>,
        c1: UnsafeMutablePointer<Float>, c2: UnsafeMutablePointer<Float>
    ) {
        c0[i] = m.0 * k0 + m.1 * k1 + m.2 * k2
        c1[i] = m.3 * k0 + m.4 * k1 + m.5 * k2
        c2[i] = m.6 * k0 + m.7 * k1 + m.8 * k2
    }
}
