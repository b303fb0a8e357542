public import LuxRender

extension Filters {
    /// Smooths small differences and sharpens large ones, on sRGB-encoded values: luminance steps below
    /// `noiseLevel` count as noise and are averaged away, steps above twice that count as edges and are sharpened
    /// by `sharpness`.
    ///
    /// For each of the eight neighbours `q` of `p`, with `d = c(q) − c(p)` and `Δ = |luma(d)|`:
    ///
    /// ```
    /// s = smoothstep(noiseLevel, 2·noiseLevel, Δ)      (0 for noise, 1 for edges)
    /// c′(p) = c(p) + Σ ((1 − s) − sharpness·s) · d / 9
    /// ```
    ///
    /// Pure noise becomes the 3×3 mean; edges get a 3×3 unsharp mask. Edge pixels repeat beyond the extent.
    public struct NoiseReduction: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "NoiseReduction", categories: [.blur, .stillImage, .video],
            summary: "Smooths noise below a threshold and sharpens edges above it.", .image(\.image),
            .parameter(
                "noiseLevel", \.noiseLevel, slider: 0...0.1, allowed: 0...1,
                summary: "Luminance differences below this are noise."),
            .parameter("sharpness", \.sharpness, slider: 0...2, allowed: 0...10, summary: "How much to sharpen edges."))

        public var image: Image = .empty
        public var noiseLevel: Double = 0.02
        public var sharpness: Double = 0.4

        public init() {}

        public var outputImage: Image {
            let level = Float(noiseLevel)
            let invSpan = level > 0 ? 1 / level : 0
            let sharp = Float(sharpness)
            let kernel = GeneralKernel(name: "noiseReduction") { row in
                let s = row.sampler(0)
                let n = row.count
                let out = row.output
                let centre = s.row(row.y) + 4 * (row.x - s.minX)
                out.update(from: centre, count: 4 * n)
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let q = s.row(row.y + dy) + 4 * (row.x + dx - s.minX)
                        noiseStep(centre, q, out, n, level, invSpan, sharp)
                    }
                }
            }
            let e = image.extent
            let args = "noiseLevel=\(noiseLevel) sharpness=\(sharpness)"
            return image.inPerceptualSpace { encoded in
                kernel.apply(extent: e, inputs: [encoded.clampedToExtent()], arguments: args) { _, r in
                    r.insetBy(dx: -1, dy: -1)
                }
            }
        }
    }
}

/// Adds one neighbour's contribution to `n` pixels of ``Filters/NoiseReduction``.
@inline(never)
func noiseStep(
    _ c: UnsafePointer<Float>, _ q: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, _ n: Int, _ level: Float,
    _ invSpan: Float, _ sharpness: Float
) {
    let hard = invSpan == 0
    for i in 0..<n {
        let dr = q[4 * i] - c[4 * i]
        let dg = q[4 * i + 1] - c[4 * i + 1]
        let db = q[4 * i + 2] - c[4 * i + 2]
        let da = q[4 * i + 3] - c[4 * i + 3]
        let delta = abs(Luma.red * dr + Luma.green * dg + Luma.blue * db)
        let t = clampFloat((delta - level) * invSpan, 0, 1)
        let smooth = t * t * (3 - 2 * t)
        let s: Float = hard ? (delta > 0 ? 1 : 0) : smooth
        let k = ((1 - s) - sharpness * s) * (1 / 9)
        out[4 * i] += k * dr
        out[4 * i + 1] += k * dg
        out[4 * i + 2] += k * db
        out[4 * i + 3] += k * da
    }
}

extension Image {
    /// The image with noise smoothed and edges sharpened (see ``Filters/NoiseReduction``).
    public func noiseReduction(noiseLevel: Double = 0.02, sharpness: Double = 0.4) -> Image {
        applyingFilter(
            Filters.NoiseReduction {
                $0.noiseLevel = noiseLevel
                $0.sharpness = sharpness
            })
    }
}
