public import LuxRender

extension Filters {
    /// Cross-fades from the image to the target: `image + (target − image)·time` on premultiplied colour.
    ///
    /// The extent is the union of the two images.
    public struct DissolveTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "DissolveTransition", categories: [.transition, .stillImage, .video, .highDynamicRange],
            summary: "Cross-fades from the image to the target.", .image(\.image, summary: "Shown at time 0."),
            .image(\.target, "targetImage", summary: "Shown at time 1."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var time: Double = 0

        public init() {}

        public var outputImage: Image {
            let t = Float(time)
            return TransitionMix.apply(image, target: target, name: "dissolve", arguments: "time=\(time)") { row, k in
                k.update(repeating: t, count: row.count)
            }
        }
    }
}

extension Image {
    /// A cross-fade from this image to `target` (see ``Filters/DissolveTransition``).
    public func dissolveTransition(to target: Image, time: Double) -> Image {
        applyingFilter(
            Filters.DissolveTransition {
                $0.target = target
                $0.time = time
            })
    }
}
