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
    public struct BlendModeFilter<Kind: BlendModeKind>: Filter {
        public static var descriptor: FilterDescriptor {
            FilterDescriptor(
                name: Kind.mode.filterName, displayName: Kind.mode.displayName,
                categories: [.compositeOperation, .stillImage, .video, .highDynamicRange],
                summary: "Blends the image onto the background with the \(Kind.mode.rawValue) blend mode.",
                parameters: [
                    .image(summary: "The source (top layer)."),
                    .image("background", summary: "The backdrop (bottom layer)."),
                ])
        }

        public var image: Image
        public var background: Image

        public init(image: Image, background: Image) {
            self.image = image
            self.background = background
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), background: a.image("background")) }

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
