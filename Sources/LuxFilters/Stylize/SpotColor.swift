public import LuxPixels
public import LuxRender

extension Filters {
    /// Replaces up to three ranges of colour with spot colours, as a print in three inks.
    ///
    /// Core Image gives no formula; Lux's is this, in the linear working space. For each of the three, `d` is the
    /// Euclidean distance in RGB between the (unpremultiplied) pixel and `centerColorₖ`, and its weight
    /// `wₖ = clamp((closenessₖ − d) / (closenessₖ·(1 − contrastₖ)), 0, 1)`: full within `contrastₖ·closenessₖ`,
    /// fading to nothing at `closenessₖ` (a contrast of 1 is a hard edge). The pixel becomes
    /// `mix(pixel, replacementColorₖ, wₖ)` for the spot of largest weight (the first on a tie); alpha is kept. The
    /// extent is the input's.
    public struct SpotColor: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "SpotColor", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Replaces ranges of colour with spot colours.", .image(\.image),
            .parameter("centerColor1", \.centerColor1, summary: "The centre of the first range."),
            .parameter("replacementColor1", \.replacementColor1, summary: "The colour the first range becomes."),
            .parameter(
                "closeness1", \.closeness1, slider: 0...0.5, allowed: 0...2,
                summary: "How far from its centre the first range reaches."),
            .parameter(
                "contrast1", \.contrast1, slider: 0...1, allowed: 0...1, summary: "How hard the first range's edge is."),
            .parameter("centerColor2", \.centerColor2, summary: "The centre of the second range."),
            .parameter("replacementColor2", \.replacementColor2, summary: "The colour the second range becomes."),
            .parameter(
                "closeness2", \.closeness2, slider: 0...0.5, allowed: 0...2,
                summary: "How far from its centre the second range reaches."),
            .parameter(
                "contrast2", \.contrast2, slider: 0...1, allowed: 0...1, summary: "How hard the second range's edge is."
            ),
            .parameter("centerColor3", \.centerColor3, summary: "The centre of the third range."),
            .parameter("replacementColor3", \.replacementColor3, summary: "The colour the third range becomes."),
            .parameter(
                "closeness3", \.closeness3, slider: 0...0.5, allowed: 0...2,
                summary: "How far from its centre the third range reaches."),
            .parameter(
                "contrast3", \.contrast3, slider: 0...1, allowed: 0...1, summary: "How hard the third range's edge is.")
        )

        public var image: Image = .empty
        public var centerColor1 = Color(red: 0.0784, green: 0.0627, blue: 0.0706)
        public var replacementColor1 = Color(red: 0.4392, green: 0.1922, blue: 0.1961)
        public var closeness1 = 0.22
        public var contrast1 = 0.98
        public var centerColor2 = Color(red: 0.5255, green: 0.3059, blue: 0.3451)
        public var replacementColor2 = Color(red: 0.9137, green: 0.5608, blue: 0.5059)
        public var closeness2 = 0.15
        public var contrast2 = 0.98
        public var centerColor3 = Color(red: 0.9216, green: 0.4549, blue: 0.3333)
        public var replacementColor3 = Color(red: 0.9098, green: 0.7529, blue: 0.6078)
        public var closeness3 = 0.5
        public var contrast3 = 0.99

        public init() {}

        public var outputImage: Image {
            let closeness = SIMD4<Float>(Float(closeness1), Float(closeness2), Float(closeness3), 0)
            let contrast = SIMD4<Float>(Float(contrast1), Float(contrast2), Float(contrast3), 0)
            // 1 / the width of each range's soft edge.
            let edge = closeness * (1 - contrast)
            let slope = 1 / edge.replacing(with: 1e-6, where: edge .< 1e-6)
            let kernel = ColorKernel(name: "spotColor", alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
                let centers = (row.color(0), row.color(2), row.color(4))
                let replacements = (row.color(1), row.color(3), row.color(5))
                let p = row.pixels
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                for i in 0..<row.count {
                    let c = SIMD4<Float>(rr[i], gg[i], bb[i], 0)
                    let d0 = c - SIMD4(centers.0.x, centers.0.y, centers.0.z, 0)
                    let d1 = c - SIMD4(centers.1.x, centers.1.y, centers.1.z, 0)
                    let d2 = c - SIMD4(centers.2.x, centers.2.y, centers.2.z, 0)
                    let d = SIMD4<Float>(
                        (d0 * d0).sum().squareRoot(), (d1 * d1).sum().squareRoot(), (d2 * d2).sum().squareRoot(), 0)
                    let w = ((closeness - d) * slope).clamped(
                        lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 1))
                    var weight = w.x
                    var target = replacements.0
                    if w.y > weight {
                        weight = w.y
                        target = replacements.1
                    }
                    if w.z > weight {
                        weight = w.z
                        target = replacements.2
                    }
                    rr[i] += (target.x - rr[i]) * weight
                    gg[i] += (target.y - gg[i]) * weight
                    bb[i] += (target.z - bb[i]) * weight
                }
            }
            return image.applying(
                kernel,
                arguments:
                    "closeness=\(closeness1),\(closeness2),\(closeness3) contrast=\(contrast1),\(contrast2),\(contrast3)",
                colors: [
                    centerColor1, replacementColor1, centerColor2, replacementColor2, centerColor3, replacementColor3,
                ])
        }
    }
}
