public import LuxRender

extension Filters {
    /// A sketch: the image's edges outlined in black, the rest transparent.
    ///
    /// The image is cleaned by ``NoiseReduction`` (`nrNoiseLevel`, `nrSharpness`); its ``Edges`` at `edgeIntensity`
    /// give the luma `e` (working space), and the ink's alpha is `clamp((e − threshold)·contrast, 0, 1)`. The extent
    /// is the input's.
    public struct LineOverlay: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "LineOverlay", categories: [.stylize, .stillImage, .video],
            summary: "Outlines the edges of the image in black on transparency.", .image(\.image),
            .parameter(
                "nrNoiseLevel", \.nrNoiseLevel, slider: 0...0.1, allowed: 0...1, coreImageName: "inputNRNoiseLevel",
                summary: "The noise reduction's noise level."),
            .parameter(
                "nrSharpness", \.nrSharpness, slider: 0...2, allowed: 0...10, coreImageName: "inputNRSharpness",
                summary: "The noise reduction's sharpening of edges."),
            .parameter(
                "edgeIntensity", \.edgeIntensity, slider: 0...200, allowed: 0...1e4,
                summary: "The factor on the edges' gradient magnitude."),
            .parameter(
                "threshold", \.threshold, slider: 0...1, allowed: 0...1e4,
                summary: "The edge strength below which nothing is drawn."),
            .parameter(
                "contrast", \.contrast, slider: 0.25...200, allowed: 0...1e6,
                summary: "How fast the ink turns opaque above the threshold."))

        public var image: Image = .empty
        public var nrNoiseLevel: Double = 0.07
        public var nrSharpness: Double = 0.71
        public var edgeIntensity: Double = 1
        public var threshold: Double = 0.1
        public var contrast: Double = 50

        public init() {}

        public var outputImage: Image {
            EdgeInk.strokes(
                of: image.noiseReduction(noiseLevel: nrNoiseLevel, sharpness: nrSharpness), intensity: edgeIntensity,
                threshold: threshold, contrast: contrast)
        }
    }
}

extension Image {
    /// The image's edges as black lines on transparency (see ``Filters/LineOverlay``).
    public func lineOverlay() -> Image { applyingFilter(Filters.LineOverlay()) }
}
