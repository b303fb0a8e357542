public import LuxRender

extension Filters {
    /// Shows the image where the mask is opaque and the background where it is transparent, blending in between
    /// by the mask's alpha.
    public struct BlendWithAlphaMask: Filter {
        public static let descriptor = FilterDescriptor(
            name: "BlendWithAlphaMask", displayName: "Blend with Alpha Mask",
            categories: [.compositeOperation, .stillImage, .video, .highDynamicRange],
            summary: "Blends the image and the background by a mask's alpha.", parameters: MaskBlend.parameters)

        public var image: Image
        public var background: Image
        public var mask: Image

        public init(image: Image, background: Image, mask: Image) {
            self.image = image
            self.background = background
            self.mask = mask
        }

        public init(arguments a: FilterArguments) {
            self.init(image: a.image(), background: a.image("background"), mask: a.image("mask"))
        }

        public var outputImage: Image { MaskBlend.apply(image, background: background, mask: mask, useAlpha: true) }
    }
}

extension Image {
    /// This image over `background` where `mask` is opaque (see ``Filters/BlendWithAlphaMask``).
    public func blended(with background: Image, alphaMask mask: Image) -> Image {
        MaskBlend.apply(self, background: background, mask: mask, useAlpha: true)
    }
}
