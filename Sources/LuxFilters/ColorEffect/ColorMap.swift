import LuxPixels
public import LuxRender

extension Filters {
    /// Replaces each colour by the colour of a gradient image at the pixel's luma.
    ///
    /// The luma `y` of the sRGB-encoded colour (clamped to 0…1) picks a position along the middle row of
    /// `gradientImage`: `y = 0` is the centre of its first pixel, `y = 1` the centre of its last, linearly
    /// interpolated between. The result has the gradient's colour and alpha times the input's alpha. An
    /// infinite gradient is read over `x` = 0…256 of row 0.
    public struct ColorMap: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorMap", categories: [.colorEffect, .stillImage, .video],
            summary: "Maps luma to the colours of a gradient image.", .image(\.image),
            .image(\.gradientImage, "gradientImage", summary: "The colours, left (dark) to right (light)."))

        public var image: Image = .empty
        public var gradientImage: Image = .empty

        public init() {}

        public var outputImage: Image {
            var gradient = gradientImage
            if gradient.extent.isInfinite { gradient = gradient.cropped(to: Rect(x: 0, y: 0, width: 256, height: 1)) }
            guard !gradient.extent.isEmpty else { return .empty }
            let g = PixelRectBounds(gradient.extent)
            let row0 = g.minY + g.height / 2
            let kernel = GeneralKernel(name: "colorMap", inputCount: 2) { row in
                let s = row.sampler(0)
                let gs = row.sampler(1)
                let src = s.row(row.y) + 4 * (row.x - s.minX)
                let line = gs.row(row0) + 4 * (g.minX - gs.minX)
                let span = Float(g.width - 1)
                let last = g.width - 1
                let out = row.output
                for i in 0..<row.count {
                    let a = src[4 * i + 3]
                    let k: Float = a > 0 ? 1 / a : 0
                    let y = clampFloat(
                        k * (Luma.red * src[4 * i] + Luma.green * src[4 * i + 1] + Luma.blue * src[4 * i + 2]), 0, 1)
                    let x = y * span
                    let j = min(Int(x), max(last - 1, 0))
                    let j1 = min(j + 1, last)
                    let u = x - Float(j)
                    for c in 0..<4 {
                        let v0 = line[4 * j + c]
                        out[4 * i + c] = (v0 + (line[4 * j1 + c] - v0) * u) * a
                    }
                }
            }
            let e = gradient.extent
            return kernel.apply(
                extent: image.extent, inputs: [image.matchedFromWorkingSpace(to: .extendedSRGB), gradient]
            ) { index, rect in index == 0 ? rect : e }
        }
    }
}

/// Whole-pixel bounds of a finite extent.
struct PixelRectBounds {
    let minX: Int
    let minY: Int
    let width: Int
    let height: Int

    init(_ r: Rect) {
        let i = r.integral
        minX = Int(i.minX)
        minY = Int(i.minY)
        width = Int(i.width)
        height = Int(i.height)
    }
}

extension Image {
    /// The image's luma mapped to the colours of `gradient` (see ``Filters/ColorMap``).
    public func colorMap(gradient: Image) -> Image {
        applyingFilter(Filters.ColorMap { $0.gradientImage = gradient })
    }
}
