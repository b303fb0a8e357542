import LuxPixels
public import LuxRender

extension Filters {
    /// The edges of the image in colour: each component's Sobel gradient magnitude, times `intensity`, on black.
    ///
    /// With `Gx` and `Gy` the responses of the 3 × 3 Sobel kernels `[−1 0 1; −2 0 2; −1 0 1]` and its transpose
    /// (unnormalised, so a step from 0 to 1 gives 4) on premultiplied colour in the working space, each colour
    /// component is `intensity·√(Gx² + Gy²)`; alpha is 1. Edge pixels are extended, so the border is not an edge.
    /// The extent is the input's.
    public struct Edges: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Edges", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Finds the edges of the image and shows them in colour.", .image(\.image),
            .parameter(
                "intensity", \.intensity, slider: 0...10, allowed: 0...1e4,
                summary: "The factor on the gradient magnitude."))

        public var image: Image = .empty
        public var intensity: Double = 1

        public init() {}

        public var outputImage: Image {
            let k = Float(intensity)
            let kernel = GeneralKernel(name: "edges") { row in
                let s = row.sampler(0)
                let up = s.row(row.y - 1) + 4 * (row.x - s.minX)
                let mid = s.row(row.y) + 4 * (row.x - s.minX)
                let down = s.row(row.y + 1) + 4 * (row.x - s.minX)
                let out = row.output
                for i in 0..<row.count {
                    let o = 4 * i
                    for c in 0..<3 {
                        let l = o - 4 + c
                        let r = o + 4 + c
                        let gx = (up[r] - up[l]) + 2 * (mid[r] - mid[l]) + (down[r] - down[l])
                        let gy = (down[l] - up[l]) + 2 * (down[o + c] - up[o + c]) + (down[r] - up[r])
                        out[o + c] = k * (gx * gx + gy * gy).squareRoot()
                    }
                    out[o + 3] = 1
                }
            }
            return kernel.apply(
                extent: image.extent, inputs: [image.clampedToExtent()], arguments: "intensity=\(intensity)"
            ) {
                _, rect in rect.insetBy(dx: -1, dy: -1)
            }
        }
    }
}

extension Image {
    /// The image's edges in colour (see ``Filters/Edges``).
    public func edges(intensity: Double = 1) -> Image { applyingFilter(Filters.Edges { $0.intensity = intensity }) }
}
