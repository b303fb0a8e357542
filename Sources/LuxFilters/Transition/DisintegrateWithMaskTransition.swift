public import LuxRender

extension Filters {
    /// Reveals the target where the mask is darker than `time`: the picture disintegrates in the order of the mask's
    /// grey levels, black first.
    ///
    /// A pixel shows the target once its mask luma (straight, working space, clamped to 0…1) is below `time`, and
    /// every pixel shows it at time 1. Core Image's shadow under the disintegrating edge (`shadowRadius`,
    /// `shadowDensity`, `shadowOffset`) is not drawn. The extent is the union of the two images.
    public struct DisintegrateWithMaskTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "DisintegrateWithMaskTransition", categories: [.transition, .stillImage, .video, .highDynamicRange],
            summary: "Reveals the target in the order of a mask's grey levels.",
            .image(\.image, summary: "Shown at time 0."), .image(\.target, "targetImage", summary: "Shown at time 1."),
            .image(\.mask, "mask", summary: "The order: dark pixels change first."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var mask: Image = .empty
        public var time: Double = 0

        public init() {}

        public var outputImage: Image {
            let t = Float(time)
            return TransitionMix.apply(
                image, target: target, inputs: [mask], name: "disintegrateWithMask", arguments: "time=\(time)"
            ) { row, k in
                let m = row.input(2)
                for i in 0..<row.count {
                    let a = m.alpha[i]
                    let luma = a > 0 ? (Luma.red * m.red[i] + Luma.green * m.green[i] + Luma.blue * m.blue[i]) / a : 0
                    k[i] = t >= 1 || min(max(luma, 0), 1) < t ? 1 : 0
                }
            }
        }
    }
}
