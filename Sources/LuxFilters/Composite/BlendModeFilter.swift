public import LuxRender

/// A blend mode as a type (the tags of ``Filters/BlendModeFilter``).
public protocol BlendModeKind: Sendable {
    /// The mode.
    static var mode: BlendMode { get }
}

extension Filters {
    /// Blends the image (the source) onto the background (the backdrop) with a ``BlendMode``, composited by the W3C
    /// formula on premultiplied colour in the working space (linear light by default).
    ///
    /// The extent is the union of both.
    public struct BlendModeFilter<Kind: BlendModeKind>: DeclaredFilter {
        public static var declaration: FilterDeclaration<Self> {
            FilterDeclaration<Self>(
                Kind.mode.filterName, displayName: Kind.mode.displayName,
                categories: [.compositeOperation, .stillImage, .video, .highDynamicRange],
                summary: "Blends the image onto the background with the \(Kind.mode.rawValue) blend mode.",
                .image(\.image, summary: "The source (top layer)."),
                .image(\.background, "background", summary: "The backdrop (bottom layer)."))
        }

        public var image: Image = .empty
        public var background: Image = .empty

        public init() {}

        public var outputImage: Image {
            BlendKernels.kernel(Kind.mode).apply(
                extent: image.extent.union(background.extent), inputs: [image, background])
        }
    }
}

extension Image {
    /// This image blended onto `background` with `mode` (see ``Filters/BlendModeFilter``).
    public func blended(onto background: Image, mode: BlendMode) -> Image {
        BlendKernels.kernel(mode).apply(extent: extent.union(background.extent), inputs: [self, background])
    }
}
